import { afterAll, afterEach, beforeAll } from 'vitest'
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

/**
 * One app for all the tests of a file (or of the describe block it is called
 * in): opened before the first, closed (its ledger checked) after the last.
 * `const testApp = appPerFile(options)`, then `testApp()` in a test.
 */
export function appPerFile(options?: TestAppOptions): () => TestApp {
  let shared: TestApp | undefined
  beforeAll(async () => {
    shared = await createTestApp(options)
  })
  afterAll(async () => {
    await shared?.close()
  })
  return () => {
    if (!shared) throw new Error('The app of this file opens in beforeAll: call testApp() inside a test')
    return shared
  }
}
