import { apiCaller, partyTokens } from './api-caller.ts'
import type { appPerTest } from './app-per-test.ts'
import { TestClock } from './test-clock.ts'

/** The people of most sale tests, signed in as `<role>@example.com`. */
const saleCast = {
  seller: { firstName: 'Sam' },
  buyer: { firstName: 'Bea' },
  stranger: {},
  admin: { admin: true },
} as const

/**
 * A fresh app at a fixed time with a seller, a buyer, a stranger and an
 * admin signed in, and a caller for each: how the sale, case and
 * conversation tests begin.
 */
export async function openWithSaleCast(testApps: ReturnType<typeof appPerTest>, start = '2026-11-23T10:00:00Z') {
  const clock = new TestClock(new Date(start))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, saleCast)
  return { testApp, app: testApp.app, clock, tokens, call: apiCaller(testApp.app, tokens) }
}
