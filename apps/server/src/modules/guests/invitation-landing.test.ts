import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createGuestSale } from '../../testing/guest-sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

/*
 * The landing an invitation link opens before anyone signs in (issue 33
 * item 8): `GET /guest_invitations/{secret}`, with the secret as the only key.
 */

const testApps = appPerTest()
const day = 24 * 60 * 60

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, {
    seller: { firstName: 'Sam', lastName: 'Sellerson' },
    buyer: { firstName: 'Bea' },
  })
  return { clock, dataDir: testApp.dataDir, call: apiCaller(testApp.app, tokens) }
}

const landingPath = (secret: string) => `/api/v1/guest_invitations/${secret}`

describe('an invitation link opened before signing in', () => {
  it('says who invited its holder to what, and no more: the first name only, never the inviter’s address', async () => {
    const { call, dataDir } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'Guest@Example.com' })
    const landing = await call(null, 'GET', landingPath(sale.secret))
    expect(landing.status).toBe(200)
    expect(landing.body).toEqual({
      type: 'online',
      role: 'buyer',
      description: 'A green lamp',
      currency: 'eur',
      price: 10_000,
      inviter_first_name: 'Sam',
      invited_email: 'guest@example.com',
    })
    expect(JSON.stringify(landing.body)).not.toMatch(/seller@example\.com|Sellerson/)
    expect(landing.headers['cache-control']).toBe('no-store')

    const f2f = await createGuestSale(call, dataDir, { email: 'other@example.com', kind: 'f2f', creator: 'buyer' })
    expect((await call(null, 'GET', landingPath(f2f.secret))).body).toMatchObject({ type: 'f2f', role: 'seller' })
  })

  it('answers an unknown or malformed secret 404, an accepted one or one whose sale was called off 409 and an expired one 410, with nothing of the sale', async () => {
    const { call, clock, dataDir } = await start()
    for (const secret of ['A'.repeat(43), 'short', 'x'.repeat(100)]) {
      expect(await call(null, 'GET', landingPath(secret)), secret).toMatchObject({ status: 404, body: { code: 'claim_secret_not_found' } })
    }
    const claimed = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    expect((await call('buyer', 'POST', `/api/v1/transactions_by_claim_secret/${claimed.secret}/claim_as_buyer`)).status).toBe(200)
    const used = await call(null, 'GET', landingPath(claimed.secret))
    expect(used).toMatchObject({ status: 409, body: { code: 'already_claimed' } })
    expect(JSON.stringify(used.body)).not.toContain('A green lamp')

    const calledOff = await createGuestSale(call, dataDir, { email: 'gone@example.com' })
    expect((await call('seller', 'POST', `/api/v1/transactions/${calledOff.id}/cancel`)).status).toBe(200)
    const cancelled = await call(null, 'GET', landingPath(calledOff.secret))
    expect(cancelled).toMatchObject({ status: 409, body: { code: 'already_cancelled' } })
    expect(JSON.stringify(cancelled.body)).not.toContain('A green lamp')

    const waiting = await createGuestSale(call, dataDir, { email: 'late@example.com' })
    await clock.moveBy(14 * day)
    expect(await call(null, 'GET', landingPath(waiting.secret))).toMatchObject({ status: 410, body: { code: 'claim_link_expired' } })
  })

  it('counts look-ups per address, so secrets cannot be tried at speed', async () => {
    const { call } = await start()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 21; attempt++) statuses.push((await call(null, 'GET', landingPath('C'.repeat(43)))).status)
    expect(statuses.slice(0, 20).every((status) => status === 404)).toBe(true)
    expect(statuses[20]).toBe(429)
  })
})
