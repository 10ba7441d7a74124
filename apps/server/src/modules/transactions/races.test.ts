import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { confirmDelivery, joinedSale, payByCard, submitCard, track } from '../../testing/sale-steps.ts'
import { raceProbes, returnRecordProbes } from '../../testing/race-probes.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { writtenMails } from '../../testing/written-mails.ts'

/**
 * Races and failures through the real app (DESIGN §2 "Ledger", §3 "Timers"):
 * whatever interleaves, money moves once and the books stay sound (every
 * test also ends with `close()` verifying the ledger invariants).
 */

const webhookSecret = 'whsec_races_0123456789abcdef'

let testApp: TestApp | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await testApp?.close()
  testApp = undefined
})

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  // The buyer is a company user (DESIGN §2), so that races may involve SEPA.
  testApp = await createTestApp({ clock, env: { SANDBOX_WEBHOOK_SECRET: webhookSecret, COMPANY_EMAIL_DOMAIN: 'example.com' } })
  const { app } = testApp
  const tokens = await partyTokens(testApp.tokenFor, {
    seller: { firstName: 'Sam' },
    buyer: { firstName: 'Bea', emailVerified: true },
    admin: { admin: true },
  })
  const call = apiCaller(app, tokens)
  const db = app.services.db

  /** Created by the seller, joined by the buyer: eur 100.00 + 3.40 fee (by card, or by P24). */
  const joined = async (paymentMethod: 'card' | 'p24' = 'card') => {
    const { id, created } = await joinedSale(call, { payment_method: paymentMethod })
    expect(created.charge).toBe(340)
    return id
  }
  /** The buyer's card goes through at the provider; Pactum has not heard of it yet. */
  const cardCharged = async (id: string) => {
    const { intentId, confirmation } = await submitCard(call, id)
    expect(confirmation).toMatchObject({ status: 'succeeded' })
    return intentId
  }
  const paid = async (id: string) => (await payByCard(call, id)).intentId
  /** The buyer authorises a P24 payment at their bank, and the page tells Pactum. */
  const paidByP24 = async (id: string) => {
    const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    const intentId: string = opened.body.payment_intent_id
    const authorised = await call(null, 'POST', `/sandbox/v1/payment_intents/${intentId}/confirm`, {
      client_secret: opened.body.client_secret,
      p24_outcome: 'succeeded',
    })
    expect(authorised.body.status).toBe('succeeded')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })).body.status).toBe(
      'paid',
    )
    return intentId
  }
  /** Another payment for the same sale goes through at the provider (a second tab, a retried checkout): its intent and the provider's answer. */
  const secondTabPayment = async (id: string, paymentMethod: 'card' | 'p24' = 'card') => {
    const second = await app.services.payments.createPaymentIntent({
      amount: 10_340,
      currency: 'eur',
      paymentMethod,
      transactionId: id,
      idempotencyKey: `${id}:second-tab`,
    })
    const confirmed = await call(null, 'POST', `/sandbox/v1/payment_intents/${second.id}/confirm`, {
      client_secret: second.clientSecret,
      ...(paymentMethod === 'card' ? { card_number: '4242424242424242' } : { p24_outcome: 'succeeded' }),
    })
    return { second, confirmed }
  }
  const delivered = async (id: string) => {
    await paid(id)
    await track(call, id, { carrier: 'dhl', tracking_code: `JD${id.slice(-8)}` })
    await confirmDelivery(call, id)
  }
  const complained = async (id: string) => {
    await delivered(id)
    const response = await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'Cracked frame' })
    expect(response.body.status).toBe('complained')
  }

  const entries = async (id: string) =>
    (await db.selectFrom('ledger_entries').select('kind').where('transaction_id', '=', id).orderBy('created_at').execute()).map(
      (row) => row.kind,
    )

  /** The same e-mail in English to the buyer: how much went back, and why. */
  const returnMail = (amount: string, why: string) =>
    expect.objectContaining({
      subject: expect.stringContaining('has been refunded to you'),
      text: expect.stringMatching(new RegExp(`Refunded: ${amount}\\nWhy: ${why}`)),
    })

  return {
    ...raceProbes(app, clock, webhookSecret),
    ...returnRecordProbes(call, testApp.dataDir, (id) => `/api/v1/transactions/${id}`),
    app,
    clock,
    call,
    db,
    joined,
    cardCharged,
    paid,
    paidByP24,
    secondTabPayment,
    delivered,
    complained,
    entries,
    returnMail,
  }
}

describe('complaint against the automatic release', () => {
  it('lets exactly one of them win when they land in the same second', async () => {
    const t = await start()
    // Several transactions with the same deadline, each raced on its own.
    const ids = [await t.joined(), await t.joined(), await t.joined()]
    for (const id of ids) await t.delivered(id)
    const deadlines = await t.db.selectFrom('transactions').select('complaint_period_deadline').where('id', 'in', ids).execute()
    const deadline = deadlines[0]!.complaint_period_deadline!
    expect(new Set(deadlines.map((row) => row.complaint_period_deadline!.getTime()))).toEqual(new Set([deadline.getTime()]))

    await t.clock.moveBy((deadline.getTime() - t.clock.now().getTime()) / 1000 - 1)
    const [complaints] = await Promise.all([
      Promise.all(
        ids.map((id) =>
          t.call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'Not as described' }),
        ),
      ),
      t.clock.advance(t.app, 2),
    ])
    // Whatever is still due (the transfer of a release) runs, and time moves well past the window.
    await t.clock.advance(t.app, 3600)

    for (const [index, id] of ids.entries()) {
      const complaint = complaints[index]!
      const resolutions = (await t.entries(id)).filter((kind) => kind === 'release' || kind === 'refund')
      const final = await t.status(id)
      if (complaint.status === 200) {
        expect(complaint.body.status).toBe('complained')
        expect(final).toBe('complained')
        expect(resolutions).toEqual([])
        expect(await t.outbox(id)).toEqual([])
      } else {
        // complaint_period_expired if it ran after the deadline but before the timer; after the release, funds_already_released.
        expect(complaint.status).toBe(409)
        expect(['complaint_period_expired', 'funds_already_released']).toContain(complaint.body.code)
        expect(final).toBe('funds_released')
        expect(resolutions).toEqual(['release'])
        expect((await t.outbox(id)).map((row) => [row.action, row.status])).toEqual([['transfer', 'sent']])
      }
    }
  })

  it('makes a complaint that arrives while the release is being written wait for it, then refuses it', async () => {
    const t = await start()
    const id = await t.joined()
    await t.delivered(id)
    const deadline = t.clock.now().getTime() + 24 * 3600 * 1000
    // Pause the timer's database transaction just as it enqueues the transfer
    // (the release is written, not committed) and send the complaint then,
    // as if it had read the transaction and the time one second earlier.
    const { jobs } = t.app.services
    const realSend = jobs.send.bind(jobs)
    const realNow = t.clock.now.bind(t.clock)
    let justBefore = false
    vi.spyOn(t.clock, 'now').mockImplementation(() => (justBefore ? new Date(deadline - 1000) : realNow()))
    let complaint: ReturnType<typeof t.call> | undefined
    vi.spyOn(jobs, 'send').mockImplementation(async (name, data, options) => {
      if (name === 'outbox-send' && !complaint) {
        justBefore = true
        complaint = t.call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'Too late?' })
        await new Promise((resolve) => setTimeout(resolve, 300))
        justBefore = false
      }
      return realSend(name, data, options)
    })

    await t.clock.advance(t.app, 24 * 3600)
    expect(complaint).toBeDefined()
    const answer = await complaint!
    vi.mocked(jobs.send).mockRestore()
    await t.app.services.jobs.runDue()
    expect(answer).toMatchObject({ status: 409, body: { code: 'funds_already_released' } })
    expect(await t.status(id)).toBe('funds_released')
    expect(await t.entries(id)).toEqual(['hold', 'release'])
  })

  it('keeps a complaint made in the last second, and refuses one made at the deadline', async () => {
    const t = await start()
    const [early, atDeadline, afterRelease] = [await t.joined(), await t.joined(), await t.joined()]
    for (const id of [early, atDeadline, afterRelease]) await t.delivered(id)
    await t.clock.moveBy(24 * 3600 - 1)
    expect(
      (await t.call('buyer', 'POST', `/api/v1/transactions/${early}/complain_with_description`, { description: 'Broken' })).status,
    ).toBe(200)
    await t.clock.moveBy(1)
    // At the deadline, before the timer has run: the window is closed all the same.
    const expired = await t.call('buyer', 'POST', `/api/v1/transactions/${atDeadline}/complain_with_description`, { description: 'Broken' })
    expect(expired).toMatchObject({ status: 409, body: { code: 'complaint_period_expired' } })
    await t.app.services.jobs.runDue()
    // The timer fired for all three: the complained one is left alone.
    expect([await t.status(early), await t.status(atDeadline), await t.status(afterRelease)]).toEqual([
      'complained',
      'funds_released',
      'funds_released',
    ])
    expect(await t.entries(early)).toEqual(['hold'])
    const released = await t.call('buyer', 'POST', `/api/v1/transactions/${afterRelease}/complain_with_description`, {
      description: 'Broken',
    })
    expect(released).toMatchObject({ status: 409, body: { code: 'funds_already_released' } })
  })
})

describe('payment news from three sides at once', () => {
  it('holds the money once when two confirm_payment calls and the webhook arrive together', async () => {
    const t = await start()
    const id = await t.joined()
    const intentId = await t.cardCharged(id)
    const confirm = () => t.call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })
    const [first, second] = await Promise.all([confirm(), confirm(), t.app.services.jobs.runDue()])
    expect([first.status, second.status]).toEqual([200, 200])
    expect([first.body.status, second.body.status]).toEqual(['paid', 'paid'])
    await t.app.services.jobs.runDue()

    expect(await t.status(id)).toBe('paid')
    expect(await t.entries(id)).toEqual(['hold'])
    expect(await t.holding(id)).toEqual({ amount_held: 10_340, payment_intent_id: intentId })
    const succeeded = await t.sandboxEvent('payment_intent.succeeded', intentId)
    expect(succeeded.delivered_at).toBeInstanceOf(Date)
    expect(succeeded.last_status).toBe(200)
    const recorded = await t.db.selectFrom('provider_events').select('processed_at').where('event_id', '=', succeeded.event_id).execute()
    expect(recorded).toEqual([{ processed_at: expect.any(Date) }])
    // One transition to paid, one tracking-deadline timer behind it.
    const events = await t.db
      .selectFrom('transaction_events')
      .select('event')
      .where('transaction_id', '=', id)
      .where('to_status', '=', 'paid')
      .execute()
    expect(events).toEqual([{ event: 'payment_succeeded' }])
  })

  it('does not leave a payment in progress when the debit fails while the browser’s report of it waits', async () => {
    const t = await start()
    const id = await t.joined()
    await t.call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })
    const opened = await t.call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    const intentId: string = opened.body.payment_intent_id
    const submitted = await t.call(null, 'POST', `/sandbox/v1/payment_intents/${intentId}/confirm`, {
      client_secret: opened.body.client_secret,
      iban: 'DE35370400440532013002',
    })
    expect(submitted.body.status).toBe('processing')
    await t.app.services.jobs.runDue()
    // The report reads "processing" from the provider; before it takes the
    // row, the bank refuses the debit and that news is applied.
    const provider = t.app.services.payments
    const retrieve = provider.retrievePaymentIntent.bind(provider)
    vi.spyOn(provider, 'retrievePaymentIntent').mockImplementationOnce(async (paymentIntentId) => {
      const seen = await retrieve(paymentIntentId)
      await t.clock.advance(t.app, 60)
      return seen
    })
    const reported = await t.call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })
    expect(reported).toMatchObject({ status: 200, body: { status: 'joined', is_payment_in_progress: false } })
    await t.settle()

    // Nothing is on its way: the buyer may pay again, either party may cancel.
    expect((await t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).body.status).toBe('cancelled')
    expect(await t.entries(id)).toEqual([])
    // The buyer heard of the failure (twice, as it was undone and found again: a duplicate beats silence).
    const failedMails = await t.notificationsOf(id, 'payment_failed')
    expect(failedMails.length).toBeGreaterThanOrEqual(1)
  })

  it('opens a new payment once the old one, paid after the method changed, was sent back', async () => {
    const t = await start()
    const id = await t.joined()
    const first = await t.call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    expect((await t.call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })).status).toBe(200)
    // Another tab still shows the card form of the first payment, and the buyer uses it.
    const firstId: string = first.body.payment_intent_id
    await t.call(null, 'POST', `/sandbox/v1/payment_intents/${firstId}/confirm`, {
      client_secret: first.body.client_secret,
      card_number: '4242424242424242',
    })
    await t.settle()
    // 103.40 is not what is due by SEPA (101.40): it went straight back.
    expect(await t.refunds(firstId)).toEqual([{ amount: 10_340, status: 'succeeded' }])
    expect(await t.status(id)).toBe('joined')

    const second = await t.call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    expect(second).toMatchObject({ status: 200, body: { charge: 140 } })
    expect(second.body.payment_intent_id).not.toBe(firstId)
    await t.call(null, 'POST', `/sandbox/v1/payment_intents/${second.body.payment_intent_id}/confirm`, {
      client_secret: second.body.client_secret,
      iban: 'DE89370400440532013000',
    })
    await t.settle()
    expect(await t.status(id)).toBe('paid')
    expect(await t.entries(id)).toEqual(['refund_unheld', 'hold'])
    // The card payment sent back is on the sale beside the one it holds.
    const record = await t.expectReturnShown(id, 10_340, { reason: 'wrong_amount', status: 'joined' })
    expect(record.mails).toEqual([
      t.returnMail('€103.40', 'the payment was not for the amount due \\(the payment method, and with it the fee, had changed\\)'),
    ])
  })

  it('answers a new payment, not a 500, when the old one is paid while pay replaces it', async () => {
    const t = await start()
    const id = await t.joined()
    const first = await t.call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    const firstId: string = first.body.payment_intent_id
    await t.call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })
    // pay reads the old card payment as open; before it cancels it, another tab pays it.
    const provider = t.app.services.payments
    const retrieve = provider.retrievePaymentIntent.bind(provider)
    vi.spyOn(provider, 'retrievePaymentIntent').mockImplementationOnce(async (paymentIntentId) => {
      const seen = await retrieve(paymentIntentId)
      await t.call(null, 'POST', `/sandbox/v1/payment_intents/${firstId}/confirm`, {
        client_secret: first.body.client_secret,
        card_number: '4242424242424242',
      })
      return seen
    })
    const second = await t.call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    expect(second).toMatchObject({ status: 200, body: { charge: 140 } })
    expect(second.body.payment_intent_id).not.toBe(firstId)
    await t.settle()
    // The card payment was not what is due any more: sent back whole, once.
    expect(await t.refunds(firstId)).toEqual([{ amount: 10_340, status: 'succeeded' }])
    expect(await t.status(id)).toBe('joined')
    expect(await t.entries(id)).toEqual(['refund_unheld'])
    const record = await t.expectReturnShown(id, 10_340, { reason: 'wrong_amount', status: 'joined' })
    expect(record.mails).toHaveLength(1)
  })
})

describe('an administrator resolving a dispute', () => {
  it('settles once when twenty release calls race, whichever way they point', async () => {
    const t = await start()
    const id = await t.joined()
    await t.complained(id)
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        t.call('admin', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=${index % 3 === 0 ? 'buyer' : 'seller'}`, {
          reason: `call ${index}`,
        }),
      ),
    )
    const winners = responses.filter((response) => response.status === 200)
    const losers = responses.filter((response) => response.status !== 200)
    expect(winners).toHaveLength(1)
    expect(losers.map((response) => response.status)).toEqual(Array(19).fill(409))
    const outcome = winners[0]!.body.status as string
    expect(['funds_released', 'payment_refunded']).toContain(outcome)
    // Every loser is told the state that the winner left behind.
    const expectedCode = outcome === 'funds_released' ? 'funds_already_released' : 'already_cancelled'
    expect(new Set(losers.map((response) => response.body.code))).toEqual(new Set([expectedCode]))

    expect(await t.entries(id)).toEqual(['hold', outcome === 'funds_released' ? 'release' : 'refund'])
    const audit = await t.db
      .selectFrom('transaction_events')
      .select('reason')
      .where('transaction_id', '=', id)
      .where('actor_kind', '=', 'admin')
      .execute()
    expect(audit).toHaveLength(1)
    await t.app.services.jobs.runDue()
    const rows = await t.outbox(id)
    expect(rows.map((row) => [row.action, row.status])).toEqual([[outcome === 'funds_released' ? 'transfer' : 'refund', 'sent']])
    const transfers = await t.db.selectFrom('sandbox_transfers').selectAll().where('transaction_id', '=', id).execute()
    expect(transfers).toHaveLength(outcome === 'funds_released' ? 1 : 0)
  })
})

describe('provider webhooks', () => {
  it('handles an event delivered five times (at once) exactly once', async () => {
    const t = await start()
    const id = await t.joined()
    const intentId = await t.cardCharged(id)
    const event = (await t.sandboxEvent('payment_intent.succeeded', intentId)).payload

    const responses = await Promise.all(Array.from({ length: 5 }, () => t.deliverWebhook(event)))
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect(responses.map((response) => response.json().duplicate).sort()).toEqual([false, true, true, true, true])
    // The sandbox's own delivery is the sixth.
    await t.app.services.jobs.runDue()

    expect(await t.status(id)).toBe('paid')
    expect(await t.entries(id)).toEqual(['hold'])
    expect(
      await t.db
        .selectFrom('provider_events')
        .select('event_id')
        .where('event_id', '=', event.id as string)
        .execute(),
    ).toHaveLength(1)
    const transitions = await t.historyOf(id, 'payment_succeeded')
    expect(transitions).toHaveLength(1)
  })

  it('does not hold money again when the payment’s success arrives after its refund', async () => {
    const t = await start()
    const id = await t.joined()
    const intentId = await t.cardCharged(id)
    // The provider's news of the payment is held up somewhere on the way.
    const late = await t.heldUpNews('payment_intent.succeeded', intentId)

    expect((await t.call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })).body.status).toBe(
      'paid',
    )
    expect((await t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).body.status).toBe('cancelled_with_payment')
    await t.settle() // the refund goes out, settled at once (a card's), and its webhook arrives
    expect(await t.status(id)).toBe('payment_refunded')
    const refundSettled = await t.db.selectFrom('provider_events').select('type').where('type', '=', 'refund.created').execute()
    expect(refundSettled).toHaveLength(1)

    // Now the old news: the payment succeeded.
    const response = await t.deliverWebhook(late.payload)
    expect(response.json()).toEqual({ received: true, duplicate: false })
    await t.clock.advance(t.app, 3600)

    expect(await t.status(id)).toBe('payment_refunded')
    expect(await t.entries(id)).toEqual(['hold', 'refund'])
    const escrow = await t.db
      .selectFrom('ledger_postings')
      .select((eb) => eb.fn.sum<number>('amount').as('balance'))
      .where('account', '=', `escrow:${id}`)
      .executeTakeFirstOrThrow()
    expect(Number(escrow.balance)).toBe(0)
    // No second refund was asked for, and the provider refunded once.
    expect((await t.outbox(id)).map((row) => [row.action, row.status])).toEqual([['refund', 'sent']])
    expect(await t.refunds(intentId)).toEqual([{ amount: 10_340, status: 'succeeded' }])
  })

  it('sends back, once, money that arrives for a transaction cancelled meanwhile, and shows it on the sale', async () => {
    const t = await start()
    expect((await t.call('buyer', 'POST', '/api/v1/me/notification_language', { language_code: 'pl_pl' })).status).toBe(200)
    const id = await t.joined()
    const intentId = await t.cardCharged(id)
    const news = await t.heldUpNews('payment_intent.succeeded', intentId)
    // The seller cancels before anyone heard of the payment.
    expect((await t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).body.status).toBe('cancelled')

    await t.deliverWithResend(news)
    await t.settle()

    expect(await t.status(id)).toBe('cancelled')
    expect(await t.entries(id)).toEqual(['refund_unheld'])
    await t.expectSentBackOnce(id, intentId, 10_340)
    // The sale shows it, once: the amount, a line of its history saying why, one e-mail to the buyer in their language.
    const record = await t.expectReturnShown(id, 10_340, { reason: 'cancelled', status: 'cancelled' })
    expect(record.mails).toHaveLength(1)
    expect(record.mails[0]!.subject).toBe('Płatność za „A blue bicycle” została Ci zwrócona')
    expect(record.mails[0]!.text).toMatch(/Zwrócono: 103,40\s€\nPowód: transakcja została anulowana, zanim dotarła Twoja płatność/)
  })

  it('records, e-mails and balances the refund whichever of a seller’s cancel and a card payment wins', async () => {
    const t = await start()
    const outcomes = new Set<string>()
    // Raced several times so that each side wins some: the cancel lands before the payment's news, or after it.
    for (let round = 0; round < 4; round++) {
      const id = await t.joined()
      const intentId = await t.cardCharged(id)
      const [cancelled] = await Promise.all([
        t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`),
        round % 2 === 0
          ? t.app.services.jobs.runDue()
          : t.call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId }),
      ])
      expect(cancelled.status).toBe(200)
      await t.settle()
      const final = await t.status(id)
      outcomes.add(final)
      const record = await t.returnRecord(id)
      // Either way the buyer has everything back, and the sale says so.
      expect(record.amountRefunded).toBe(10_340)
      expect(await t.refunds(intentId)).toEqual([{ amount: 10_340, status: 'succeeded' }])
      if (final === 'cancelled') {
        // The cancel came first: the payment was never held and went straight back.
        expect(await t.entries(id)).toEqual(['refund_unheld'])
        expect(record.history).toEqual([{ reason: 'cancelled', status: 'cancelled' }])
        expect(record.mails).toEqual([t.returnMail('€103.40', 'the transaction had been cancelled before your payment arrived')])
      } else {
        // The payment came first: held, then refunded by the seller's cancel (its own e-mails).
        expect(final).toBe('payment_refunded')
        expect(await t.entries(id)).toEqual(['hold', 'refund'])
        expect(record.history).toEqual([])
        const subjects = (await writtenMails(testApp!.dataDir))
          .filter((mail) => mail.to === 'buyer@example.com' && mail.text.includes(id))
          .map((mail) => mail.subject)
        expect(subjects).toContain('Your payment for “A blue bicycle” has been refunded')
      }
    }
    expect(outcomes.has('cancelled')).toBe(true)
  })

  it('records a second payment that succeeds after the sale was paid, and sends it back once', async () => {
    const t = await start()
    const id = await t.joined()
    const first = await t.paid(id)
    // Another payment for the same sale goes through at the provider (a second tab, a retried checkout).
    const { second, confirmed } = await t.secondTabPayment(id)
    expect(confirmed.body.status).toBe('succeeded')
    await t.settle()
    // The provider sends its news again under another event id: one record, one refund.
    const news = await t.sandboxEvent('payment_intent.succeeded', second.id)
    expect((await t.deliverWebhook({ ...news.payload, id: `${news.event_id}_again` })).statusCode).toBe(200)
    await t.settle()

    expect(await t.status(id)).toBe('paid')
    expect(await t.entries(id)).toEqual(['hold', 'refund_unheld'])
    expect(await t.holding(id)).toEqual({ amount_held: 10_340, payment_intent_id: first })
    const record = await t.expectReturnShown(id, 10_340, { reason: 'superseded', status: 'paid' })
    expect(record.mails).toEqual([t.returnMail('€103.40', 'the transaction was already paid, or another payment had replaced this one')])
    expect(await t.refunds(second.id)).toEqual([{ amount: 10_340, status: 'succeeded' }])

    // The sale goes on; a later refund of the held payment is counted on top.
    expect((await t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).body).toMatchObject({
      status: 'cancelled_with_payment',
      amount_refunded: 20_680,
    })
    await t.settle()
    expect(await t.status(id)).toBe('payment_refunded')
    expect(await t.entries(id)).toEqual(['hold', 'refund_unheld', 'refund'])
  })
})

describe('refunds settling in another order than they were sent', () => {
  // On P24 sales: a refund to a bank is pending until the bank takes it, where a card's is settled at once.
  it('keeps a cancellation waiting for its own refund when a payment sent back unheld settles first', async () => {
    const t = await start()
    const id = await t.joined('p24')
    await t.paidByP24(id)
    // A second payment goes through and is sent back; its refund is pending at the provider.
    const { second } = await t.secondTabPayment(id, 'p24')
    await t.app.services.jobs.runDue()
    expect(await t.entries(id)).toEqual(['hold', 'refund_unheld'])
    await t.clock.advance(t.app, 2)
    // The seller cancels: the held payment's refund is sent after the other's.
    expect((await t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).body.status).toBe('cancelled_with_payment')
    await t.app.services.jobs.runDue()

    // The unheld payment's refund settles; the held one's is still pending.
    await t.clock.advance(t.app, 4)
    const settled = await t.db.selectFrom('sandbox_refunds').select(['payment_intent_id', 'status']).orderBy('created_at').execute()
    expect(settled.map((refund) => [refund.payment_intent_id === second.id ? 'unheld' : 'held', refund.status])).toEqual([
      ['unheld', 'succeeded'],
      ['held', 'pending'],
    ])
    expect(await t.status(id)).toBe('cancelled_with_payment')

    // Then the held payment's refund settles, and that closes the sale.
    await t.settle()
    expect(await t.status(id)).toBe('payment_refunded')
    expect((await t.returnRecord(id)).amountRefunded).toBe(20_680)
  })
})

describe('a crash between the commit and the provider call', () => {
  it('resends a transfer whose answer was lost with the same key, and pays the seller once', async () => {
    const t = await start()
    const id = await t.joined()
    await t.delivered(id)
    const provider = t.app.services.payments
    const realTransfer = provider.transfer.bind(provider)
    const transfer = vi.spyOn(provider, 'transfer').mockImplementationOnce(async (input) => {
      // The provider moves the money, then the connection drops before we hear back.
      await realTransfer(input)
      throw new Error('socket hang up')
    })

    await t.clock.advance(t.app, 24 * 3600)
    expect(await t.status(id)).toBe('funds_released')
    const [pending] = await t.outbox(id)
    expect(pending).toMatchObject({ action: 'transfer', status: 'pending', attempts: 1, last_error: 'socket hang up' })
    expect(await t.db.selectFrom('sandbox_transfers').select('id').where('transaction_id', '=', id).execute()).toHaveLength(1)

    await t.clock.advance(t.app, 60) // the outbox job's retry
    const [sent] = await t.outbox(id)
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, last_error: null })
    expect(transfer.mock.calls.map(([input]) => input.idempotencyKey)).toEqual([`${id}:transfer`, `${id}:transfer`])
    const transfers = await t.db.selectFrom('sandbox_transfers').select(['id', 'amount']).where('transaction_id', '=', id).execute()
    expect(transfers).toEqual([{ id: sent!.provider_reference, amount: 10_000 }])
  })

  it('retries a refund the provider was unavailable for, with the same key, and refunds once', async () => {
    const t = await start()
    const id = await t.joined()
    const intentId = await t.paid(id)
    const provider = t.app.services.payments
    const refund = vi.spyOn(provider, 'refund').mockRejectedValueOnce(new Error('503 Service Unavailable'))

    expect((await t.call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).body.status).toBe('cancelled_with_payment')
    await t.app.services.jobs.runDue()
    expect((await t.outbox(id))[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: '503 Service Unavailable' })
    expect(await t.db.selectFrom('sandbox_refunds').select('id').where('payment_intent_id', '=', intentId).execute()).toEqual([])

    await t.settle() // the outbox job's retry, then the refund settles
    expect((await t.outbox(id))[0]).toMatchObject({ status: 'sent', attempts: 2 })
    expect(refund.mock.calls.map(([input]) => input.idempotencyKey)).toEqual([`${id}:refund`, `${id}:refund`])
    expect(await t.refunds(intentId)).toEqual([{ amount: 10_340, status: 'succeeded' }])
    expect(await t.status(id)).toBe('payment_refunded')
    expect(await t.entries(id)).toEqual(['hold', 'refund'])
  })
})

describe('Idempotency-Key on money-moving calls', () => {
  it('replays confirm_delivery instead of running it again, even when the replays race it', async () => {
    const t = await start()
    const id = await t.joined()
    await t.paid(id)
    await track(t.call, id, { carrier: 'dhl', tracking_code: 'JD0001' })
    const confirm = () =>
      t.call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_delivery`, undefined, { 'idempotency-key': 'delivery-1' })

    const racing = await Promise.all([confirm(), confirm(), confirm()])
    const original = racing.filter((response) => response.status === 200 && response.headers['idempotent-replayed'] !== 'true')
    expect(original).toHaveLength(1)
    for (const response of racing) {
      // Never run twice (that would answer 409 delivery_already_set).
      expect(response.body.code).not.toBe('delivery_already_set')
      if (response.status !== 200) expect(response.body.code).toBe('idempotency_request_in_progress')
    }
    const replay = await confirm()
    expect(replay.status).toBe(200)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.body).toEqual(original[0]!.body)
    const transitions = await t.historyOf(id, 'confirm_delivery')
    expect(transitions).toHaveLength(1)

    // The same key for another request is misuse.
    const reused = await t.call(
      'buyer',
      'POST',
      `/api/v1/transactions/${id}/complain_with_description`,
      { description: 'x' },
      { 'idempotency-key': 'delivery-1' },
    )
    expect(reused).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } })
    expect(await t.status(id)).toBe('delivered')
  })

  it('replays pay with the same payment intent', async () => {
    const t = await start()
    const id = await t.joined()
    const pay = () => t.call('buyer', 'POST', `/api/v1/transactions/${id}/pay`, undefined, { 'idempotency-key': 'pay-1' })
    const first = await pay()
    const again = await pay()
    expect(first.status).toBe(200)
    expect(again).toMatchObject({ status: 200, body: first.body, headers: { 'idempotent-replayed': 'true' } })
    expect(await t.db.selectFrom('sandbox_payment_intents').select('id').where('transaction_id', '=', id).execute()).toHaveLength(1)
  })
})
