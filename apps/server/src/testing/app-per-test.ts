import { afterEach } from 'vitest'
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts'

/**
 * The app of each test in a file, closed (its ledger checked) when the test
 * ends, pass or fail: `const testApps = appPerTest()` once at the top, then
 * `await testApps.open(options)` in a test.
 */
export function appPerTest(): { open(options?: TestAppOptions): Promise<TestApp> } {
  let current: TestApp | undefined
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  return {
    open: async (options) => {
      current = await createTestApp(options)
      return current
    },
  }
}
