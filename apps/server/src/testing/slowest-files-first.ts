import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The server test files that take longest (each starts processes or servers,
 * or hashes many passwords: a minute or more of a busy two-core machine,
 * docs/performance.md), in the order they should start. Paths are relative
 * to apps/server.
 */
const slowestFiles: readonly string[] = [
  'src/cli.test.ts',
  'src/modules/sign-in/oidc/sign-in-flow.test.ts',
  'src/crash-recovery.test.ts',
  'src/modules/disputes/case-races.test.ts',
  'src/http/api-fuzz.test.ts',
  'src/backup/backup.test.ts',
]

/**
 * Vitest's order, with the slowest server files first. Without the timings
 * of an earlier run (a clean clone in CI has none) Vitest starts the larger
 * files first, and these are short files of long tests: they started last
 * and ran on alone at the end, two or three minutes with a core idle.
 */
export default class SlowestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) => {
      const index = slowestFiles.findIndex((file) => spec.moduleId.endsWith(`/apps/server/${file}`))
      return index === -1 ? slowestFiles.length : index
    }
    // Array sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
