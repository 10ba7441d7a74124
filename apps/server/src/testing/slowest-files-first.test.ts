import { describe, expect, it } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import SlowestFilesFirst from './slowest-files-first.ts'

/** A file of the server project, with the duration and outcome an earlier run left in Vitest's cache. */
function spec(file: string): TestSpecification {
  return {
    moduleId: `/repo/apps/server/${file}`,
    project: { name: 'server', config: { sequence: { groupOrder: 0 }, isolate: true } },
  } as unknown as TestSpecification
}

function sequencer(durations: Record<string, number>): SlowestFilesFirst {
  const cache = {
    getTestSpecificationResult: (file: TestSpecification) => ({ duration: durations[file.moduleId] ?? 0, failed: false }),
  }
  return new SlowestFilesFirst({ cache } as unknown as Vitest)
}

describe('the order the test files start in', () => {
  it('starts the slowest server files first, in their listed order, and keeps Vitest order for the rest', async () => {
    const files = ['src/ids.test.ts', 'src/crash-recovery.test.ts', 'src/http/app.test.ts', 'src/cli.test.ts'].map(spec)
    const durations = { '/repo/apps/server/src/http/app.test.ts': 20, '/repo/apps/server/src/ids.test.ts': 1 }
    const sorted = await sequencer(durations).sort(files)
    expect(sorted.map((file) => file.moduleId.replace('/repo/apps/server/', ''))).toEqual([
      'src/cli.test.ts',
      'src/crash-recovery.test.ts',
      'src/http/app.test.ts',
      'src/ids.test.ts',
    ])
  })
})
