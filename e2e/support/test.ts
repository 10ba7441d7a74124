import { test as base } from '@playwright/test'

/**
 * Playwright's `test`, with every browser context a test opened itself
 * (`browser.newContext()`, as `registeredPerson` does for each person)
 * closed when the test ends. Playwright closes only the contexts of its own
 * `context` and `page` fixtures: the others stayed open for the rest of the
 * worker's run, their pages still running the app, and before every later
 * test Playwright started tracing each of them again
 * (`trace: 'retain-on-failure'` locally). A failed test's trace is still kept:
 * closing a context stops its tracing as the fixtures' own close does.
 */
export const test = base.extend<{ closesTheContextsItOpened: void }>({
  closesTheContextsItOpened: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts())
      await use()
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      )
    },
    { auto: true },
  ],
})
