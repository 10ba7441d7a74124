import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { uploadDocument } from '../../testing/identity-upload.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { writtenMails } from '../../testing/written-mails.ts'

/*
 * Issue 34 deliver 4 through the real server on the sandbox provider: the
 * sandbox pays out on its schedule and tells each step with Connect events
 * (`payout.*` with `account`), delivered asynchronously to the webhook;
 * Pactum follows each payout to paid or failed, e-mails the seller a
 * failure, and the payout made after the bank account is replaced pays the
 * money out again. The ledger is checked when each test's app closes.
 */

const testApps = appPerTest()

const documentCheck = 5
const payoutDelay = 60
const payoutArrival = 120

async function start() {
  const clock = new TestClock(new Date('2026-12-01T10:00:00Z'))
  const testApp = await testApps.open({
    clock,
    env: {
      SANDBOX_DOCUMENT_CHECK_SECONDS: String(documentCheck),
      SANDBOX_PAYOUT_DELAY_SECONDS: String(payoutDelay),
      SANDBOX_PAYOUT_ARRIVAL_SECONDS: String(payoutArrival),
    },
  })
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } })
  return { ...testApp, clock, call: apiCaller(testApp.app, tokens), tokens }
}

type Started = Awaited<ReturnType<typeof start>>

const sellerDetails = {
  name: { first: 'Sam', last: 'Seller' },
  dob: { day: 1, month: 2, year: 1990 },
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115' },
  phone: '+4915112345678',
}

async function readyForPayouts({ app, clock, call, tokens }: Started, iban: string) {
  expect((await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'de' })).status).toBe(204)
  expect((await call('seller', 'POST', '/api/v1/me/accept_tos_direct')).status).toBe(200)
  expect((await call('seller', 'PUT', '/api/v1/me/personal', sellerDetails)).status).toBe(200)
  expect((await call('seller', 'POST', '/api/v1/me/debit_account', { account_holder_name: 'Sam Seller', iban })).status).toBe(200)
  expect((await uploadDocument(app, tokens.seller)).status).toBe(200)
  await clock.advance(app, documentCheck)
  await clock.advance(app, payoutDelay)
}

async function releasedSale({ app, clock, call }: Started) {
  const { id, quote } = await joinedSale(call)
  await payByCard(call, id)
  await app.services.jobs.runDue()
  await track(call, id, { carrier: 'dhl', tracking_code: 'jd0001234' })
  await confirmDelivery(call, id)
  await clock.advance(app, 24 * 3600)
  expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')
  return 10_000 - (quote.charge_seller as number)
}

const followed = (started: Started) =>
  started.app.services.db.selectFrom('seller_payouts').selectAll().orderBy('payout_created').orderBy('created_at').execute()

const payoutMails = async (started: Started) =>
  (await writtenMails(started.dataDir)).filter((mail) => mail.subject.includes('did not reach your bank'))

describe('seller payouts followed to the bank', () => {
  it('follows a payout from the Connect events to paid, with its expected arrival', async () => {
    const started = await start()
    const { app, clock, call } = started
    await readyForPayouts(started, 'DE89370400440532013000')
    const expected = await releasedSale(started)

    await clock.advance(app, payoutDelay)
    const [inTransit] = await followed(started)
    expect(inTransit).toMatchObject({
      provider: 'sandbox',
      amount: expected,
      currency: 'eur',
      status: 'in_transit',
      arrival_date: new Date(clock.now().getTime() + payoutArrival * 1000),
      automatic: true,
      failed_at: null,
    })
    expect(inTransit!.account_id).toMatch(/^acct_/)
    // Received as Connect events: recorded with the account, processed once.
    const received = await app.services.db
      .selectFrom('provider_events')
      .select(['type', 'processed_at', 'payload'])
      .where('type', 'like', 'payout.%')
      .execute()
    expect(received).toEqual([expect.objectContaining({ type: 'payout.created', processed_at: expect.any(Date) })])
    expect(received[0]!.payload).toMatchObject({ account: inTransit!.account_id })

    await clock.advance(app, payoutArrival)
    expect(await followed(started)).toEqual([expect.objectContaining({ id: inTransit!.id, status: 'paid', failure_code: null })])
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([{ status: 'paid', next_step: null }])
    expect(await payoutMails(started)).toEqual([])
  })

  it('e-mails the seller a failed payout, asks for a new bank account, and pays the money out again once it is given', async () => {
    const started = await start()
    const { app, clock, call } = started
    // Stripe's test IBAN whose payouts fail with no_account.
    await readyForPayouts(started, 'DE62370400440532013001')
    const expected = await releasedSale(started)

    await clock.advance(app, payoutDelay)
    await clock.advance(app, payoutArrival)
    const [failed] = await followed(started)
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'no_account', amount: expected, failed_at: clock.now() })

    // The seller is told once, in their language, what happened and what to do.
    const mails = await payoutMails(started)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe(`Your payout of €${(expected / 100).toFixed(2)} did not reach your bank`)
    expect(mails[0]!.text).toContain('Hello Sam,')
    expect(mails[0]!.text).toContain('The bank found no account with these details.')
    expect(mails[0]!.text).toContain('http://localhost:3999/profile/payment/bank-details')
    expect((await followed(started))[0]!.failure_mailed_at).toEqual(expect.any(Date))

    // The Balance page asks for a new bank account; the money is back in the balance and no run pays it to the same one.
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
      { status: 'failed', failure_code: 'no_account', next_step: 'update_bank_account' },
    ])
    await clock.advance(app, payoutDelay + payoutArrival)
    expect(await followed(started)).toHaveLength(1)
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({
      available: [{ amount: expected, currency: 'eur' }],
      pending: [],
    })

    // The seller replaces the bank account: the page says the next payout takes it, and it does.
    const replaced = await call('seller', 'POST', '/api/v1/me/debit_account', {
      account_holder_name: 'Sam Seller',
      iban: 'DE89370400440532013000',
    })
    expect(replaced.status).toBe(200)
    expect((await followed(started))[0]!.bank_account_replaced_at).toEqual(clock.now())
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
      { status: 'failed', next_step: 'waiting_for_next_payout' },
    ])

    await clock.advance(app, payoutDelay)
    await clock.advance(app, payoutArrival)
    const [first, again] = await followed(started)
    expect(first).toMatchObject({ status: 'failed' })
    expect(again).toMatchObject({ status: 'paid', amount: expected, currency: 'eur' })
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
      { status: 'paid', bank_account_last4: '3000', next_step: null },
      { status: 'failed', bank_account_last4: '3001', next_step: null },
    ])
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({ available: [], pending: [] })
    expect(await payoutMails(started)).toHaveLength(1)
  })
})
