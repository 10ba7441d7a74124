import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'
import type { TestApp } from '../../testing/test-app.ts'

const testApps = appPerTest()

/** Ada's row: when she first saw the tour. */
function tourSeen(testApp: TestApp) {
  return testApp.database.db.selectFrom('users').select('tour_seen_at').where('email', '=', 'ada@example.com').executeTakeFirstOrThrow()
}

describe('the guided tour, seen once per user', () => {
  it('is unseen for a new user, seen after POST /me/guided_tour/seen, for that user only', async () => {
    const testApp = await testApps.open()
    const ada = { authorization: `Bearer ${await testApp.tokenFor('ada@example.com')}` }
    const bob = { authorization: `Bearer ${await testApp.tokenFor('bob@example.com')}` }
    const seen = async (headers: Record<string, string>) =>
      (await testApp!.app.inject({ method: 'GET', url: '/api/v1/me/guided_tour', headers })).json()
    expect(await seen(ada)).toEqual({ seen: false })
    const marked = await testApp.app.inject({ method: 'POST', url: '/api/v1/me/guided_tour/seen', headers: ada })
    expect(marked.statusCode).toBe(200)
    expect(marked.json()).toEqual({ seen: true })
    expect(await seen(ada)).toEqual({ seen: true })
    expect(await seen(bob)).toEqual({ seen: false })
  })

  it('keeps the first time it was seen', async () => {
    const testApp = await testApps.open()
    const headers = { authorization: `Bearer ${await testApp.tokenFor('ada@example.com')}` }
    await testApp.app.inject({ method: 'POST', url: '/api/v1/me/guided_tour/seen', headers })
    const first = await tourSeen(testApp)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await testApp.app.inject({ method: 'POST', url: '/api/v1/me/guided_tour/seen', headers })
    const second = await tourSeen(testApp)
    expect(first.tour_seen_at).toBeInstanceOf(Date)
    expect(second.tour_seen_at).toEqual(first.tour_seen_at)
  })
})
