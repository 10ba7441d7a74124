import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../modules/payments/payment-event.ts'
import { paymentSucceeded } from '../../testing/payment-provider-harness.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { refillSandboxWriteBudget, spendSandboxWriteBudget } from '../../testing/sandbox-write-budget.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { ProviderRateLimitedError } from './provider-error.ts'
import { payoutQueues } from './sandbox-payouts.ts'

const sepaSucceeds = 'DE89 3704 0044 0532 0130 00'
const sepaFails = 'DE35370400440532013002'

describe('sandbox payment provider', () => {
  let testApp: TestApp
  let clock: TestClock
  let events: PaymentEvent[]

  async function start(env: Record<string, string> = {}) {
    clock = new TestClock()
    testApp = await createTestApp({ clock, env })
    events = []
    testApp.app.services.events.registerPaymentEventHandler(async (event) => {
      events.push(event)
    })
  }
  beforeEach(async () => {
    await start()
  })
  afterEach(async () => {
    await testApp.close()
  })

  const provider = () => testApp.app.services.payments
  let keys = 0
  const intent = (paymentMethod: 'card' | 'sepa' | 'p24' = 'card', amount = 10_340) =>
    provider().createPaymentIntent({
      amount,
      currency: 'eur',
      paymentMethod,
      transactionId: 'tx-1',
      idempotencyKey: `tx-1:pay:${++keys}`,
    })
  const confirm = (id: string, body: Record<string, unknown>) =>
    testApp.app.inject({ method: 'POST', url: `/sandbox/v1/payment_intents/${id}/confirm`, payload: body })
  const eventTypes = () => events.map((event) => event.type)

  it('answers rate_limit beyond its writes a second, as Stripe does beyond its limit, having done nothing: the same key works a moment later', async () => {
    await testApp.close()
    await start({ SANDBOX_MAX_REQUESTS_PER_SECOND: '2' })
    const { db } = testApp.app.services
    // The account's bucket empty, as if its writes had just been made (wall-clock time, as Stripe's).
    await spendSandboxWriteBudget(db, 60_000)
    const key = `tx-1:pay:${++keys}`
    const write = () =>
      provider().createPaymentIntent({ amount: 500, currency: 'eur', paymentMethod: 'card', transactionId: 'tx-1', idempotencyKey: key })
    await expect(write()).rejects.toBeInstanceOf(ProviderRateLimitedError)
    expect(await db.selectFrom('sandbox_payment_intents').select('id').execute()).toEqual([])
    // A moment later: the bucket has filled again.
    await refillSandboxWriteBudget(db)
    const made = await write()
    expect(made.status).toBe('requires_payment_method')
    await expect(write()).resolves.toMatchObject({ id: made.id })
  })

  it('answers rate_limit beyond an endpoint’s own writes a second (Stripe: 25 each), while the account has room, and not on other endpoints', async () => {
    await testApp.close()
    await start({ SANDBOX_MAX_REQUESTS_PER_SECOND: '100', SANDBOX_MAX_ENDPOINT_REQUESTS_PER_SECOND: '2' })
    const { db } = testApp.app.services
    const create = () =>
      provider().createPaymentIntent({
        amount: 500,
        currency: 'eur',
        paymentMethod: 'card',
        transactionId: 'tx-1',
        idempotencyKey: `tx-1:pay:${++keys}`,
      })
    const first = await create()
    await create()
    await expect(create()).rejects.toBeInstanceOf(ProviderRateLimitedError)
    expect(await db.selectFrom('sandbox_payment_intents').select('id').execute()).toHaveLength(2)
    // Another endpoint has its own count: a cancel still goes through this second.
    await expect(
      provider().cancelPaymentIntent({ paymentIntentId: first.id, idempotencyKey: `tx-1:cancel:${++keys}` }),
    ).resolves.toMatchObject({
      status: 'canceled',
    })
  })

  it('takes 4242 4242 4242 4242 at once and says so by webhook', async () => {
    const created = await intent()
    expect(created.status).toBe('requires_payment_method')
    expect(created.clientSecret).toMatch(new RegExp(`^${created.id}_secret_`))
    const response = await confirm(created.id, { client_secret: created.clientSecret, card_number: '4242 4242 4242 4242' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ id: created.id, status: 'succeeded', last_payment_error: null })
    expect(events).toEqual([])
    await testApp.app.services.jobs.runDue()
    expect(events).toEqual([paymentSucceeded(created.id)])
    expect((await provider().retrievePaymentIntent(created.id)).status).toBe('succeeded')
  })

  it.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000069', 'expired_card'],
    ['4242424242424241', 'incorrect_number'],
    ['4111111111111111', 'test_mode_live_card'],
  ])('declines %s with %s, and the intent can be tried again', async (card, reason) => {
    const created = await intent()
    const response = await confirm(created.id, { client_secret: created.clientSecret, card_number: card })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ status: 'requires_payment_method', last_payment_error: { reason } })
    await testApp.app.services.jobs.runDue()
    expect(events).toEqual([expect.objectContaining({ type: 'payment_failed', paymentIntentId: created.id, reason })])
    const retry = await confirm(created.id, { client_secret: created.clientSecret, card_number: '4242424242424242' })
    expect(retry.json()).toMatchObject({ status: 'succeeded', last_payment_error: null })
  })

  it('refuses a wrong client secret as not found, and a second confirmation as a conflict', async () => {
    const created = await intent()
    const wrong = await confirm(created.id, { client_secret: `${created.clientSecret}x`, card_number: '4242424242424242' })
    expect(wrong.statusCode).toBe(404)
    expect(wrong.json().code).toBe('not_found')
    await confirm(created.id, { client_secret: created.clientSecret, card_number: '4242424242424242' })
    const again = await confirm(created.id, { client_secret: created.clientSecret, card_number: '4242424242424242' })
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('invalid_state')
    const noCard = await confirm((await intent()).id, { client_secret: created.clientSecret, iban: sepaSucceeds })
    expect(noCard.statusCode).toBe(404)
  })

  it('refuses a confirmation without what the method needs, naming that body field', async () => {
    const cases: Array<['card' | 'sepa' | 'p24', Record<string, unknown>, string]> = [
      ['card', { iban: sepaSucceeds }, 'body.card_number'],
      ['card', { card_number: '' }, 'body.card_number'],
      ['sepa', { card_number: '4242424242424242' }, 'body.iban'],
      ['p24', { return_url: 'https://evil.example' }, 'body.return_url'],
    ]
    for (const [method, body, field] of cases) {
      const created = await intent(method)
      const response = await confirm(created.id, { client_secret: created.clientSecret, ...body })
      expect(response.statusCode, field).toBe(400)
      expect(response.json(), field).toMatchObject({
        code: 'validation_failed',
        error: expect.stringMatching(`^${field}: `),
        details: { fields: [{ field, message: expect.any(String) }] },
      })
    }
  })

  it('keeps a SEPA debit processing until the delay has passed, then succeeds', async () => {
    const created = await intent('sepa')
    const response = await confirm(created.id, { client_secret: created.clientSecret, iban: sepaSucceeds })
    expect(response.json()).toMatchObject({ status: 'processing' })
    await clock.advance(testApp.app, 9)
    expect(eventTypes()).toEqual(['payment_processing'])
    expect((await provider().retrievePaymentIntent(created.id)).status).toBe('processing')
    await clock.advance(testApp.app, 1)
    expect(eventTypes()).toEqual(['payment_processing', 'payment_succeeded'])
    const read = await testApp.app.inject({
      method: 'GET',
      url: `/sandbox/v1/payment_intents/${created.id}?client_secret=${created.clientSecret}`,
    })
    expect(read.json()).toMatchObject({ status: 'succeeded' })
  })

  it('fails a SEPA debit from an IBAN ending in 3002 after the delay', async () => {
    const created = await intent('sepa')
    await confirm(created.id, { client_secret: created.clientSecret, iban: sepaFails })
    await clock.advance(testApp.app, 10)
    expect(eventTypes()).toEqual(['payment_processing', 'payment_failed'])
    expect(events[1]).toMatchObject({ reason: 'insufficient_funds' })
    expect((await provider().retrievePaymentIntent(created.id)).status).toBe('requires_payment_method')
  })

  it('takes the SEPA delay from SANDBOX_SEPA_DELAY_SECONDS', async () => {
    await testApp.close()
    await start({ SANDBOX_SEPA_DELAY_SECONDS: '600' })
    const created = await intent('sepa')
    await confirm(created.id, { client_secret: created.clientSecret, iban: sepaSucceeds })
    await clock.advance(testApp.app, 599)
    expect(eventTypes()).toEqual(['payment_processing'])
    await clock.advance(testApp.app, 1)
    expect(eventTypes()).toEqual(['payment_processing', 'payment_succeeded'])
  })

  it('only takes SEPA debits in euros', async () => {
    await expect(
      provider().createPaymentIntent({ amount: 500, currency: 'pln', paymentMethod: 'sepa', transactionId: 't', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ code: 'unsupported_combination' })
  })

  describe('P24', () => {
    async function redirect(returnUrl: string) {
      const created = await intent('p24')
      const response = await confirm(created.id, { client_secret: created.clientSecret, return_url: returnUrl })
      expect(response.statusCode).toBe(200)
      const body = response.json()
      expect(body.status).toBe('requires_action')
      return { created, url: body.next_action.redirect_to_url.url as string }
    }
    const post = (url: string, form: Record<string, string>) =>
      testApp.app.inject({
        method: 'POST',
        url: url.split('?')[0] ?? url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      })

    it('shows a redirect page whose "Authorise payment" succeeds and returns to the site', async () => {
      const { created, url } = await redirect('/transactions/tx-1?step=pay')
      expect(url).toMatch(new RegExp(`^/sandbox/p24/${created.id}\\?client_secret=`))
      const page = await testApp.app.inject({ method: 'GET', url })
      expect(page.statusCode).toBe(200)
      expect(page.headers['content-type']).toContain('text/html')
      expect(page.body).toContain('Authorise payment')
      expect(page.body).toContain('Fail payment')
      expect(page.body).not.toContain('<script')
      expect(page.body).toContain('€103.40')
      const answer = await post(url, {
        client_secret: created.clientSecret,
        return_url: '/transactions/tx-1?step=pay',
        outcome: 'authorise',
      })
      expect(answer.statusCode).toBe(303)
      expect(answer.headers.location).toBe(`/transactions/tx-1?step=pay&payment_intent=${created.id}&redirect_status=succeeded`)
      await testApp.app.services.jobs.runDue()
      expect(eventTypes()).toEqual(['payment_succeeded'])
      const again = await testApp.app.inject({ method: 'GET', url })
      expect(again.statusCode).toBe(409)
    })

    it('fails the payment with "Fail payment"', async () => {
      const { created, url } = await redirect('/transactions/tx-1')
      const answer = await post(url, { client_secret: created.clientSecret, return_url: '/transactions/tx-1', outcome: 'fail' })
      expect(answer.headers.location).toBe(`/transactions/tx-1?payment_intent=${created.id}&redirect_status=failed`)
      await testApp.app.services.jobs.runDue()
      expect(events).toEqual([expect.objectContaining({ type: 'payment_failed', reason: 'p24_declined' })])
      expect((await provider().retrievePaymentIntent(created.id)).status).toBe('requires_payment_method')
    })

    it.each(['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'transactions'])(
      'refuses to return to %s',
      async (returnUrl) => {
        const created = await intent('p24')
        const refused = await confirm(created.id, { client_secret: created.clientSecret, return_url: returnUrl })
        expect(refused.statusCode).toBe(400)
        const { url } = await redirect('/transactions')
        const query = new URLSearchParams(url.split('?')[1])
        query.set('return_url', returnUrl)
        const page = await testApp.app.inject({ method: 'GET', url: `${url.split('?')[0]}?${query.toString()}` })
        expect(page.statusCode).toBe(400)
        const answer = await post(url, { client_secret: query.get('client_secret') ?? '', return_url: returnUrl, outcome: 'authorise' })
        expect(answer.statusCode).toBe(400)
        expect(answer.headers.location).toBeUndefined()
      },
    )
  })

  // Idempotency keys, refunds, connected accounts and transfers: payment-provider.contract.test.ts, shared with Stripe.

  it('keeps one payout run waiting per account, however many transfers land before it; a transfer after it queues the next', async () => {
    await testApp.close()
    await start({ SANDBOX_PAYOUT_DELAY_SECONDS: '3600' })
    const { db, connectedAccounts } = testApp.app.services
    const account = await connectedAccounts.createConnectedAccount({
      userId: 'u1',
      email: 's@example.com',
      country: 'DE',
      idempotencyKey: 'acct:u1',
    })
    const other = await connectedAccounts.createConnectedAccount({
      userId: 'u2',
      email: 't@example.com',
      country: 'DE',
      idempotencyKey: 'acct:u2',
    })
    const transfer = (destinationAccount: string, n: number) =>
      provider().transfer({
        amount: 1000,
        currency: 'eur',
        destinationAccount,
        transactionId: `tx-${n}`,
        idempotencyKey: `tx-${n}:release`,
      })
    const waitingRuns = async () =>
      (
        await sql<{ account: string }>`select data->>'accountId' as account from pgboss.job
          where name = ${payoutQueues.runPayouts} and state = 'created' order by 1`.execute(db)
      ).rows.map((row) => row.account)
    await transfer(account.id, 1)
    await transfer(account.id, 2)
    await transfer(other.id, 3)
    expect(await waitingRuns()).toEqual([account.id, other.id].sort())
    await clock.advance(testApp.app, 3600)
    expect(await waitingRuns()).toEqual([])
    await transfer(account.id, 4)
    expect(await waitingRuns()).toEqual([account.id])
  })

  it('delivers a webhook again when the endpoint failed, and records it once', async () => {
    let failures = 1
    testApp.app.services.events.registerPaymentEventHandler(async () => {
      if (failures-- > 0) throw new Error('handler down')
    })
    const created = await intent()
    await confirm(created.id, { client_secret: created.clientSecret, card_number: '4242424242424242' })
    const { db, jobs } = testApp.app.services
    await jobs.runDue()
    const delivery = () =>
      db.selectFrom('sandbox_webhook_deliveries').selectAll().where('type', '=', 'payment_intent.succeeded').executeTakeFirstOrThrow()
    expect(await delivery()).toMatchObject({ attempts: 1, last_status: 500, delivered_at: null })
    await clock.advance(testApp.app, 60)
    expect(await delivery()).toMatchObject({ attempts: 2, last_status: 200, delivered_at: expect.any(Date) })
    await clock.advance(testApp.app, 3600)
    const recorded = await db.selectFrom('provider_events').selectAll().where('type', '=', 'payment_intent.succeeded').execute()
    expect(recorded).toHaveLength(1)
    expect(recorded[0]?.processed_at).toBeInstanceOf(Date)
  })
})
