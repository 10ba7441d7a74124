import { globSync, readFileSync } from 'node:fs'
import path from 'node:path'

const webRoot = path.resolve(import.meta.dirname, '../..')

/** The line a test file starts with when it needs a module graph of its own, followed by why. */
const runsIsolatedMark = '// Runs isolated:'

/**
 * The web test files that need a module graph of their own, relative to
 * apps/web; vitest.config.ts runs them isolated, the others share one per
 * worker. Those that replace a module (`vi.mock`, `vi.doMock`): Vitest
 * hoists a mock above the file's imports, but where files share a module
 * graph a module that an earlier file had loaded is already there, and the
 * mock did not take (2026-12-07). And those marked with `runsIsolatedMark`,
 * whose tests depend on a module's first load (a page's chunk loading after
 * the shell).
 */
export const webFilesRunIsolated: string[] = globSync('src/**/*.test.{ts,tsx}', { cwd: webRoot }).filter((file) => {
  const source = readFileSync(path.join(webRoot, file), 'utf8')
  return /\bvi\.(?:mock|doMock)\(/.test(source) || source.startsWith(runsIsolatedMark)
})
