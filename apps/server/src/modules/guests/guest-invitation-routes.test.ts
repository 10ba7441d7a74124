import { guestInvitationMaxSends } from '@pactum/domain/guest-invitation-timing'
import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createGuestSale, invitationLink } from '../../testing/guest-sale-steps.ts'
import { createSale } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { writtenMails } from '../../testing/written-mails.ts'

const testApps = appPerTest()

const day = 24 * 60 * 60

/** The seller invites `buyer@example.com` on a clock the test moves. */
async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' }, stranger: {} })
  return { clock, dataDir: testApp.dataDir, db: testApp.database.db, call: apiCaller(testApp.app, tokens) }
}

const claimPath = (secret: string, role: 'buyer' | 'seller' = 'buyer', type: 'online' | 'f2f' = 'online') =>
  `/api/v1${type === 'f2f' ? '/p2p' : ''}/transactions_by_claim_secret/${secret}/claim_as_${role}`
const resendPath = (id: string, type: 'online' | 'f2f' = 'online') =>
  `/api/v1${type === 'f2f' ? '/p2p' : ''}/transactions/${id}/resend_invitation`

describe('a guest invitation’s expiry', () => {
  it('shows the creator whom and when they invited, and nobody else', async () => {
    const { call, dataDir } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    const invitation = {
      email: 'buyer@example.com',
      role: 'buyer',
      sent_at: '2026-11-22T10:00:00.000Z',
      expires_at: '2026-12-06T10:00:00.000Z',
    }
    expect(sale.created.invitation).toEqual(invitation)
    expect((await call('seller', 'GET', `/api/v1/transactions/${sale.id}`)).body.invitation).toEqual(invitation)
    // The list leaves it out; an ordinary sale's creator reads null.
    const list = await call('seller', 'GET', '/api/v1/me/transactions')
    expect(list.body[0]).not.toHaveProperty('invitation')
    const ordinary = await createSale(call)
    expect((await call('seller', 'GET', `/api/v1/transactions/${ordinary.id}`)).body.invitation).toBeNull()

    expect(await call('buyer', 'POST', claimPath(sale.secret))).toMatchObject({ status: 200 })
    expect((await call('seller', 'GET', `/api/v1/transactions/${sale.id}`)).body.invitation).toBeNull()
    expect((await call('buyer', 'GET', `/api/v1/transactions/${sale.id}`)).body.invitation).toBeNull()
  })

  it('answers 410 claim_link_expired to a preview or claim fourteen days after sending, and a claimed link stays “already claimed”', async () => {
    const { call, dataDir, clock } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    const claimedSale = await createGuestSale(call, dataDir, { email: 'stranger@example.com' })
    expect(await call('stranger', 'POST', claimPath(claimedSale.secret))).toMatchObject({ status: 200 })

    await clock.moveBy(14 * day - 1)
    expect(await call('buyer', 'GET', `/api/v1/transactions_by_claim_secret/${sale.secret}`)).toMatchObject({
      status: 200,
      body: { claimed: false },
    })
    await clock.moveBy(1)
    const expired = { status: 410, body: { code: 'claim_link_expired', details: { expires_at: '2026-12-06T10:00:00.000Z' } } }
    expect(await call('buyer', 'GET', `/api/v1/transactions_by_claim_secret/${sale.secret}`)).toMatchObject(expired)
    expect(await call('buyer', 'POST', claimPath(sale.secret))).toMatchObject(expired)
    expect(await call('buyer', 'GET', `/api/v1/transactions/${sale.id}`)).toMatchObject({ status: 404 })
    expect(await call('stranger', 'POST', claimPath(claimedSale.secret))).toMatchObject({ status: 409, body: { code: 'already_claimed' } })
  })
})

describe('re-sending a guest invitation', () => {
  it('replaces the link: the old secret is dead, the new one works, and the expiry restarts', async () => {
    const { call, dataDir, clock } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    await clock.moveBy(13 * day)
    const resent = await call('seller', 'POST', resendPath(sale.id))
    expect(resent).toMatchObject({
      status: 200,
      body: {
        id: sale.id,
        status: 'created',
        invitation: { email: 'buyer@example.com', sent_at: '2026-12-05T10:00:00.000Z', expires_at: '2026-12-19T10:00:00.000Z' },
      },
    })
    // The re-send is offered with the invitation, as the web shows exactly the actions offered.
    expect((resent.body as { available_actions: string[] }).available_actions).toContain('resend_invitation')
    const read = await call('seller', 'GET', `/api/v1/transactions/${sale.id}`)
    expect((read.body as { available_actions: string[] }).available_actions).toContain('resend_invitation')
    // Only beside the invitation itself: the lists leave both out.
    const listed = await call('seller', 'GET', '/api/v1/me/transactions')
    expect(
      (listed.body as Array<{ id: string; available_actions: string[] }>).find((row) => row.id === sale.id)?.available_actions,
    ).not.toContain('resend_invitation')
    // Never to the other party, who is not the invitation's creator.
    expect(await call('buyer', 'GET', `/api/v1/transactions/${sale.id}`)).toMatchObject({ status: 404 })
    const fresh = await invitationLink(dataDir, 'buyer@example.com')
    expect(fresh.secret).not.toBe(sale.secret)
    expect(fresh.mail.subject).toBe(sale.mail.subject)
    expect((await writtenMails(dataDir)).filter((mail) => mail.to === 'buyer@example.com')).toHaveLength(2)

    expect(await call('buyer', 'POST', claimPath(sale.secret))).toMatchObject({ status: 404, body: { code: 'claim_secret_not_found' } })
    // Past the first link's fourteen days, the new one still works.
    await clock.moveBy(2 * day)
    expect(await call('buyer', 'POST', claimPath(fresh.secret))).toMatchObject({ status: 200, body: { status: 'joined', role: 'buyer' } })
    const claimed = await call('seller', 'GET', `/api/v1/transactions/${sale.id}`)
    expect((claimed.body as { available_actions: string[] }).available_actions).not.toContain('resend_invitation')
    expect(await call('seller', 'POST', resendPath(sale.id))).toMatchObject({ status: 409, body: { code: 'already_claimed' } })
  })

  it('works for a face-to-face invitation through /p2p, in the invitation’s own language', async () => {
    const { call, dataDir, clock } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'seller@example.com', kind: 'f2f', creator: 'buyer', language: 'fi_fi' })
    await clock.moveBy(60)
    expect(await call('buyer', 'POST', resendPath(sale.id))).toMatchObject({ status: 404 })
    const resent = await call('buyer', 'POST', resendPath(sale.id, 'f2f'))
    expect(resent).toMatchObject({ status: 200, body: { type: 'f2f', invitation: { email: 'seller@example.com', role: 'seller' } } })
    const fresh = await invitationLink(dataDir, 'seller@example.com')
    expect(fresh.mail.subject).toBe(sale.mail.subject)
    expect(fresh.mail.text).toContain(`/join-guest-transaction-as-seller/${fresh.secret}/f2f`)
    expect(await call('seller', 'POST', claimPath(fresh.secret, 'seller', 'f2f'))).toMatchObject({ status: 200 })
  })

  it('answers 404 to anyone but the parties, and refuses a transaction without an invitation', async () => {
    const { call, dataDir, clock } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    await clock.moveBy(60)
    // The invitee has not claimed yet, so is no party either.
    for (const who of ['stranger', 'buyer'] as const)
      expect(await call(who, 'POST', resendPath(sale.id))).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(await call(null, 'POST', resendPath(sale.id))).toMatchObject({ status: 401 })
    expect(await call('seller', 'POST', resendPath('not-an-id'))).toMatchObject({ status: 404 })
    const ordinary = await createSale(call)
    expect(await call('seller', 'POST', resendPath(ordinary.id))).toMatchObject({ status: 409, body: { code: 'invalid_state' } })
    expect((await writtenMails(dataDir)).filter((mail) => mail.to === 'buyer@example.com')).toHaveLength(1)
  })

  it('refuses once the transaction is cancelled', async () => {
    const { call, dataDir, clock } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    expect(await call('seller', 'POST', `/api/v1/transactions/${sale.id}/cancel`)).toMatchObject({ status: 200 })
    await clock.moveBy(60)
    expect(await call('seller', 'POST', resendPath(sale.id))).toMatchObject({ status: 409, body: { code: 'invalid_state' } })
  })

  it('goes out at most once a minute (429 with Retry-After) and at most the capped number of times', async () => {
    const { call, dataDir, clock } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    await clock.moveBy(20)
    const tooSoon = await call('seller', 'POST', resendPath(sale.id))
    expect(tooSoon).toMatchObject({ status: 429, body: { code: 'rate_limited', details: { reason: 'too_soon', retry_after: 40 } } })
    expect(tooSoon.headers['retry-after']).toBe('40')
    // A refused re-send changes nothing: the first link still works afterwards.
    const before = await invitationLink(dataDir, 'buyer@example.com')
    expect(before.secret).toBe(sale.secret)

    for (let sends = 1; sends < guestInvitationMaxSends; sends++) {
      await clock.moveBy(60)
      expect((await call('seller', 'POST', resendPath(sale.id))).status).toBe(200)
    }
    await clock.moveBy(day)
    expect(await call('seller', 'POST', resendPath(sale.id))).toMatchObject({
      status: 429,
      body: { code: 'rate_limited', details: { reason: 'too_many' } },
    })
    expect((await writtenMails(dataDir)).filter((mail) => mail.to === 'buyer@example.com')).toHaveLength(guestInvitationMaxSends)
    const last = await invitationLink(dataDir, 'buyer@example.com')
    expect(await call('buyer', 'POST', claimPath(last.secret))).toMatchObject({ status: 200 })
  })
})
