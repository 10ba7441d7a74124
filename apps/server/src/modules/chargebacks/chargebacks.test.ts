import { describe, expect, it } from 'vitest'
import { verifyLedger } from '../../ledger/verify-ledger.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { confirmDelivery, confirmPayment, joinedSale, payByCard, submitCard, track } from '../../testing/sale-steps.ts'
import { depositAccepted, joinedF2fSale, payF2fByCard, setTotal } from '../../testing/f2f-sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { writtenMails } from '../../testing/written-mails.ts'
import { sandboxDelivery } from '../payments/webhook-signature.ts'

const testApps = appPerTest()
const webhookSecret = 'whsec_disputes_test'

/**
 * Card disputes through the real server on the sandbox provider (docs/decisions/109):
 * the dispute card, the admin's sandbox actions and the admin console's calls,
 * the provider's webhooks delivered as they come, the ledger verified after each.
 */
async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock, env: { SANDBOX_DISPUTE_DELAY_SECONDS: '10', SANDBOX_WEBHOOK_SECRET: webhookSecret } })
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' }, admin: { admin: true } })
  const call = apiCaller(testApp.app, tokens)
  const settle = (seconds = 1) => clock.advance(testApp.app, seconds)
  const sale = async (id: string) => (await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body
  const expectSoundBooks = async () => expect(await verifyLedger(testApp.app.services.db)).toEqual([])
  const chargebacks = async (state = 'all') => (await call('admin', 'GET', `/api/v1/admin/chargebacks?state=${state}`)).body
  return { testApp, clock, call, settle, sale, expectSoundBooks, chargebacks }
}

describe('a card dispute on money still held', () => {
  it('opens by itself after a payment with the dispute card, freezes the sale, and a win lets it go on', async () => {
    const { testApp, call, settle, sale, expectSoundBooks, chargebacks } = await start()
    const { id } = await joinedSale(call)
    const { intentId } = await submitCard(call, id, '4000000000000259')
    await confirmPayment(call, id, intentId)
    await settle(11)
    const frozen = await sale(id)
    expect(frozen.chargeback).toEqual({
      status: 'needs_response',
      amount: 10_340,
      reason: 'fraudulent',
      evidence_due_by: expect.any(String),
      frozen: true,
    })
    // The seller can no longer ship, nor cancel; the refusal names why.
    const refused = await call('seller', 'POST', `/api/v1/transactions/${id}/track`, { carrier: 'dhl', tracking_code: 'JD1' })
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('chargeback_open')
    expect((await sale(id)).available_actions).toEqual([])
    expect((await call('admin', 'GET', `/api/v1/admin/transactions/${id}`)).body.available_steps).toEqual([])
    await expectSoundBooks()

    // Staff heard of it once, both parties too.
    const mails = await writtenMails(testApp.dataDir)
    expect(mails.filter((mail) => mail.subject.startsWith('[Chargeback]')).map((mail) => mail.to)).toEqual(['support@pactum.example'])
    expect(
      mails
        .filter((mail) => mail.subject.includes('card dispute'))
        .map((mail) => mail.to)
        .sort(),
    ).toEqual(['buyer@example.com', 'seller@example.com'])
    const [listed] = await chargebacks('open')
    expect(listed).toMatchObject({ transaction_id: id, status: 'needs_response', fee: { amount: 1_500, currency: 'eur' }, recoverable: 0 })
    const evidence = await call('admin', 'POST', `/api/v1/admin/chargebacks/${listed.id}/evidence`, { reason: 'our record' })
    expect(evidence.status).toBe(200)
    expect(evidence.body).toMatchObject({ status: 'under_review', evidence_submitted_at: expect.any(String) })
    const won = await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${listed.id}/decide`, { outcome: 'won' })
    expect(won.body.status).toBe('won')
    await settle()
    const after = await sale(id)
    expect(after.chargeback).toMatchObject({ status: 'won', frozen: false })
    expect(after.status).toBe('paid')
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0001' })
    await expectSoundBooks()
  })

  it('lost: the sale ends refunded, with only what the bank did not return refunded by Pactum', async () => {
    const { call, settle, sale, expectSoundBooks, chargebacks } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    const opened = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: id, amount: 10_000 })
    expect(opened.status).toBe(200)
    await settle()
    const accepted = await call('admin', 'POST', `/api/v1/admin/chargebacks/${opened.body.id}/accept`, { reason: 'the buyer is right' })
    expect(accepted.body).toMatchObject({ status: 'lost', transaction_status: 'payment_refunded' })
    await settle(60)
    const ended = await sale(id)
    expect(ended).toMatchObject({ status: 'payment_refunded', amount_refunded: 10_340, chargeback: { status: 'lost', frozen: false } })
    expect(await chargebacks('open')).toEqual([])
    await expectSoundBooks()
  })
})

describe('a card dispute on a face-to-face sale', () => {
  it("is found by the remainder's payment; lost, the bank returns it and Pactum refunds the deposit", async () => {
    const { call, settle, expectSoundBooks } = await start()
    const { id } = await joinedF2fSale(call)
    await depositAccepted(call, id)
    await setTotal(call, id, 20_000)
    const { intentId } = await payF2fByCard(call, id, 'remainder')
    const read = async () => (await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).body
    const opened = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: id, payment: 'remainder' })
    expect(opened.status).toBe(200)
    await settle()
    expect((await read()).chargeback).toMatchObject({ status: 'needs_response', frozen: true })
    expect(intentId).toMatch(/^pi_/)
    await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${opened.body.id}/decide`, { outcome: 'lost' })
    await settle(60)
    const ended = await read()
    expect(ended).toMatchObject({ status: 'payment_refunded', chargeback: { status: 'lost' } })
    // Everything the buyer paid, the total with both fees, came back: the remainder by the bank, the deposit by Pactum.
    expect(ended.amount_refunded).toBeGreaterThan(20_000)
    await expectSoundBooks()
  })
})

describe('a card dispute on money already released', () => {
  it('records the loss; lost, an admin recovers part of it from the seller, no more than the account holds', async () => {
    const { testApp, call, settle, sale, expectSoundBooks } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0002' })
    await confirmDelivery(call, id)
    await call('buyer', 'POST', `/api/v1/transactions/${id}/end_complaint_period`)
    await settle(60)
    expect((await sale(id)).status).toBe('funds_released')

    const opened = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: id })
    await settle()
    expect((await sale(id)).chargeback).toMatchObject({ status: 'needs_response', frozen: false })
    await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${opened.body.id}/decide`, { outcome: 'lost' })
    await settle()
    const lost = (await call('admin', 'GET', '/api/v1/admin/chargebacks?state=closed')).body[0]
    expect(lost).toMatchObject({ status: 'lost', recoverable: 10_000, recovered: 0 })
    await expectSoundBooks()

    const tooMuch = await call('admin', 'POST', `/api/v1/admin/chargebacks/${lost.id}/recover`, { amount: 10_001, reason: 'all' })
    expect(tooMuch.status).toBe(400)
    const recovered = await call('admin', 'POST', `/api/v1/admin/chargebacks/${lost.id}/recover`, { amount: 4_000, reason: 'fraud' })
    expect(recovered.status).toBe(200)
    expect(recovered.body).toMatchObject({ recovered: 4_000, recoverable: 6_000 })
    await settle(5)
    // The reversal reached the seller's account at the provider.
    const seller = await testApp.app.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'seller@example.com')
      .executeTakeFirstOrThrow()
    const account = await testApp.app.services.connectedAccounts.findConnectedAccount(seller.id)
    const reversals = await testApp.app.services.db.selectFrom('sandbox_transfer_reversals').selectAll().execute()
    expect(reversals.map((reversal) => reversal.amount)).toEqual([4_000])
    expect(account).not.toBeNull()
    await expectSoundBooks()
  })
})

describe("the provider's dispute news", () => {
  it('is taken once however often and in whatever order it comes', async () => {
    const { testApp, clock, call, settle, sale, expectSoundBooks } = await start()
    const { id } = await joinedSale(call)
    const { intentId } = await payByCard(call, id)
    const opened = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: id })
    await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${opened.body.id}/decide`, { outcome: 'won' })
    // Every delivery the sandbox made, replayed twice in reverse order (new event ids: new deliveries of the same news).
    const deliveries = await testApp.app.services.db
      .selectFrom('sandbox_webhook_deliveries')
      .selectAll()
      .orderBy('created_at', 'desc')
      .execute()
    const disputeNews = deliveries.filter((row) => row.type.startsWith('charge.dispute.'))
    expect(disputeNews.map((row) => row.type).sort()).toEqual([
      'charge.dispute.closed',
      'charge.dispute.created',
      'charge.dispute.funds_reinstated',
      'charge.dispute.funds_withdrawn',
    ])
    for (const round of [1, 2]) {
      for (const row of disputeNews) {
        const event = { ...(row.payload as Record<string, unknown>), id: `evt_replay_${round}_${row.event_id}` }
        const response = await testApp.app.inject(sandboxDelivery(event, webhookSecret, clock.now()))
        expect(response.statusCode).toBe(200)
      }
    }
    await settle()
    const after = await sale(id)
    expect(after.chargeback).toMatchObject({ status: 'won', frozen: false })
    expect(after.status).toBe('paid')
    // The sandbox's workers may have delivered the news before the replays, in
    // any order, or not at all yet. Each step is booked once however it came.
    // The fee is booked only if a snapshot with the fee charged came first:
    // when the close (fee returned) is the first news taken, no fee is booked at all.
    const db = testApp.app.services.db
    const entries = await db.selectFrom('ledger_entries').select('kind').where('transaction_id', '=', id).execute()
    const kinds = entries.map((entry) => entry.kind).sort()
    expect(kinds.filter((kind) => kind !== 'dispute_fee')).toEqual(['dispute_opened', 'dispute_won', 'hold'])
    expect(kinds.filter((kind) => kind === 'dispute_fee').length).toBeOneOf([0, 2])
    const fees = await db
      .selectFrom('ledger_postings')
      .innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_postings.entry_id')
      .select('ledger_postings.amount')
      .where('ledger_entries.transaction_id', '=', id)
      .where('ledger_postings.account', '=', 'dispute_fees')
      .execute()
    expect(fees.reduce((sum, posting) => sum + posting.amount, 0)).toBe(0)
    expect(intentId).toMatch(/^pi_/)
    await expectSoundBooks()
  })
})

describe('an early fraud warning', () => {
  it('holds the release until an admin clears it', async () => {
    const { call, settle, sale, expectSoundBooks } = await start()
    const { id } = await joinedSale(call)
    const { intentId } = await submitCard(call, id, '4000000000005423')
    await confirmPayment(call, id, intentId)
    await settle(11)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0003' })
    await confirmDelivery(call, id)
    const held = await call('buyer', 'POST', `/api/v1/transactions/${id}/end_complaint_period`)
    expect(held.status).toBe(409)
    expect(held.body.code).toBe('fraud_warning_open')
    await settle(2 * 86_400)
    expect((await sale(id)).status).toBe('delivered')
    const detail = (await call('admin', 'GET', `/api/v1/admin/transactions/${id}`)).body
    expect(detail.fraud_warning).toMatchObject({ fraud_type: 'made_with_stolen_card', cleared_at: null })
    // The console is offered what the engine takes: the refund and the clearing, not the release.
    expect(detail.available_steps).toEqual(['refund_buyer', 'clear_fraud_warning'])
    // The parties never see it.
    expect(JSON.stringify(await sale(id))).not.toContain('fraud')
    const cleared = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/clear_fraud_warning`, {
      reason: 'the buyer showed their card',
    })
    expect(cleared.status).toBe(200)
    await settle(1)
    expect((await sale(id)).status).toBe('funds_released')
    await expectSoundBooks()
  })
})
