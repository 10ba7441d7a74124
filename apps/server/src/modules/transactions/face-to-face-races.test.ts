import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { depositAccepted, joinedF2fSale, payF2fByCard, setTotal, submitF2fCard } from '../../testing/f2f-sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { raceProbes, returnRecordProbes } from '../../testing/race-probes.ts'
import { TestClock } from '../../testing/test-clock.ts'

/**
 * Face-to-face races through the real app: whatever interleaves, money
 * moves once and the books stay sound (`close()` verifies the ledger).
 */

const webhookSecret = 'whsec_f2f_races_0123456789abcdef'

const testApps = appPerTest()

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock, env: { SANDBOX_WEBHOOK_SECRET: webhookSecret } })
  const { app } = testApp
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' }, admin: { admin: true } })
  const call = apiCaller(app, tokens)
  const db = app.services.db
  const entries = async (id: string) =>
    (await db.selectFrom('ledger_entries').select(['kind', 'part']).where('transaction_id', '=', id).orderBy('created_at').execute()).map(
      (row) => (row.kind === 'hold' ? `hold:${row.part}` : row.kind),
    )
  /** A remainder paid and the seller's handover confirmed: the complaint window runs. */
  const inWindow = async () => {
    const { id } = await joinedF2fSale(call)
    await depositAccepted(call, id)
    await setTotal(call, id, 20_000)
    await payF2fByCard(call, id, 'remainder')
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.status).toBe('seller_handover_confirmed')
    return id
  }
  const returns = returnRecordProbes(call, testApp.dataDir, (id) => `/api/v1/p2p/transactions/${id}`)
  return { ...raceProbes(app, clock, webhookSecret), ...returns, app, clock, call, db, entries, inWindow }
}

describe('face-to-face races', () => {
  it('lets exactly one of a complaint and the automatic release win at the deadline', async () => {
    const t = await start()
    const ids = [await t.inWindow(), await t.inWindow()]
    const deadline = (
      await t.db.selectFrom('transactions').select('complaint_period_deadline').where('id', '=', ids[0]!).executeTakeFirstOrThrow()
    ).complaint_period_deadline!
    await t.clock.moveBy((deadline.getTime() - t.clock.now().getTime()) / 1000 - 1)
    const [complaints] = await Promise.all([
      Promise.all(ids.map((id) => t.call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/complain`, { description: 'Not as described' }))),
      t.clock.advance(t.app, 2),
    ])
    await t.clock.advance(t.app, 3600)
    for (const [index, id] of ids.entries()) {
      const resolutions = (await t.entries(id)).filter((kind) => kind === 'release' || kind === 'refund')
      if (complaints[index]!.status === 200) {
        expect(await t.status(id)).toBe('complained')
        expect(resolutions).toEqual([])
      } else {
        expect(['complaint_period_expired', 'funds_already_released']).toContain(complaints[index]!.body.code)
        expect(await t.status(id)).toBe('funds_released')
        expect(resolutions).toEqual(['release'])
      }
    }
  })

  it('confirms a handover once when the seller taps twice at the same moment', async () => {
    const t = await start()
    const { id } = await joinedF2fSale(t.call)
    await depositAccepted(t.call, id)
    await t.call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)
    const answers = await Promise.all([1, 2].map(() => t.call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    expect(answers.find((answer) => answer.status === 409)?.body.code).toBe('handover_already_confirmed')
    const events = await t.historyOf(id, 'confirm_handover')
    expect(events).toHaveLength(1)
    await t.clock.advance(t.app, 24 * 3600)
    expect(await t.entries(id)).toEqual(['hold:deposit', 'release'])
    // One e-mail to each party about the handover, not two.
    const mails = await t.notificationsOf(id, 'handover_confirmed')
    expect(mails.map((mail) => mail.recipient_role).sort()).toEqual(['buyer', 'seller'])
  })

  it('sends back, once, a deposit whose success arrives after the sale was cancelled', async () => {
    const t = await start()
    const { id } = await joinedF2fSale(t.call)
    const { intentId } = await submitF2fCard(t.call, id, 'deposit')
    const news = await t.heldUpNews('payment_intent.succeeded', intentId)
    // The buyer cancels before anyone heard of the deposit.
    expect(
      (await t.call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/cancel_with_description`, { description: 'cancelled by buyer' })).body
        .status,
    ).toBe('cancelled')
    await t.deliverWithResend(news)
    // And the browser reports it as well.
    expect(
      (await t.call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })).body.status,
    ).toBe('cancelled')
    await t.settle()
    expect(await t.status(id)).toBe('cancelled')
    expect(await t.entries(id)).toEqual(['refund_unheld'])
    await t.expectSentBackOnce(id, intentId, 5_190)
    // On the sale once, however many reported it.
    const record = await t.expectReturnShown(id, 5_190, { reason: 'cancelled', status: 'cancelled' })
    expect(record.mails.map((mail) => mail.text)).toEqual([
      expect.stringMatching(/Refunded: €51\.90\nWhy: the transaction had been cancelled before your payment arrived/),
    ])
  })

  it('records and e-mails a remainder paid after the seller skipped it, and keeps it apart from the release', async () => {
    const t = await start()
    const { id } = await joinedF2fSale(t.call)
    await depositAccepted(t.call, id)
    await setTotal(t.call, id, 20_000)
    // The buyer pays the remainder by card; before anyone hears of it, the seller waives it.
    const { intentId, confirmation } = await submitF2fCard(t.call, id, 'remainder')
    expect(confirmation.status).toBe('succeeded')
    const news = await t.heldUpNews('payment_intent.succeeded', intentId)
    expect((await t.call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)).body.status).toBe('remainder_skipped')
    expect((await t.deliverWebhook(news.payload)).statusCode).toBe(200)
    expect(
      (await t.call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })).body.status,
    ).toBe('remainder_skipped')
    await t.settle()

    expect(await t.status(id)).toBe('remainder_skipped')
    expect(await t.entries(id)).toEqual(['hold:deposit', 'refund_unheld'])
    expect(await t.refunds(intentId)).toEqual([{ amount: 15_490, status: 'succeeded' }])
    const record = await t.expectReturnShown(id, 15_490, { reason: 'remainder_skipped', status: 'remainder_skipped' })
    expect(record.mails.map((mail) => mail.text)).toEqual([
      expect.stringMatching(/Refunded: €154\.90\nWhy: the seller waived the remainder, so nothing more was due/),
    ])

    // The sale ends as a skipped one does: the deposit to the seller, the remainder already back with the buyer.
    expect((await t.call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.status).toBe(
      'seller_handover_confirmed',
    )
    await t.clock.advance(t.app, 24 * 3600)
    expect(await t.status(id)).toBe('funds_released')
    expect(await t.returnRecord(id)).toMatchObject({ amountRefunded: 15_490, amountReleased: 5_000 })
    expect(await t.entries(id)).toEqual(['hold:deposit', 'refund_unheld', 'release'])
  })

  it('settles pay_remainder against skip_remainder either way, never holding a skipped remainder', async () => {
    const t = await start()
    const { id } = await joinedF2fSale(t.call)
    await depositAccepted(t.call, id)
    await setTotal(t.call, id, 20_000)
    // The buyer opens the remainder and pays by card while the seller skips the remainder.
    const buyerPays = async () => {
      const opened = await t.call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_remainder`)
      if (opened.status !== 200) return { opened, intentId: null }
      const intentId: string = opened.body.payment_intent_id
      await t.call(null, 'POST', `/sandbox/v1/payment_intents/${intentId}/confirm`, {
        client_secret: opened.body.client_secret,
        card_number: '4242424242424242',
      })
      await t.call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })
      return { opened, intentId }
    }
    const [paid, skipped] = await Promise.all([buyerPays(), t.call('seller', 'POST', `/api/v1/p2p/transactions/${id}/skip_remainder`)])
    await t.settle()
    const final = await t.status(id)
    if (final === 'remainder_paid') {
      // The payment landed first: skipping came too late.
      expect(skipped.body.code).toBe('remainder_already_paid')
      expect(await t.entries(id)).toEqual(['hold:deposit', 'hold:remainder'])
      expect(await t.outbox(id)).toEqual([])
      return
    }
    expect(final).toBe('remainder_skipped')
    if (paid.intentId === null) {
      // Skipped before the payment was even opened: nothing was charged.
      expect(paid.opened.body.code).toBe('remainder_already_skipped')
      expect(await t.entries(id)).toEqual(['hold:deposit'])
      expect(await t.outbox(id)).toEqual([])
    } else {
      // Skipped while the card went through: that money went straight back, once, and the sale shows it.
      expect(await t.entries(id)).toEqual(['hold:deposit', 'refund_unheld'])
      expect((await t.outbox(id)).map((row) => [row.action, row.idempotency_key])).toEqual([
        ['refund', `${id}:refund-unheld:${paid.intentId}`],
      ])
      expect(await t.returnRecord(id)).toMatchObject({
        amountRefunded: 15_490,
        history: [{ reason: 'remainder_skipped', status: 'remainder_skipped' }],
      })
    }
  })
})
