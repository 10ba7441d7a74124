import { afterEach, beforeEach, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { passportFront, sellerProfile } from '../../testing/payment-provider-harness.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { writtenMails } from '../../testing/written-mails.ts'
import { stripeWebhookPath } from './stripe-webhook.ts'

/*
 * Sellers' payouts over the Stripe adapter against the fake (decision
 * 110): Stripe pays a connected account's balance out on its schedule and
 * tells each step to the Connect endpoint (`payout.*` with `account`). A
 * payout to one of Stripe's failing test bank accounts fails, errors the
 * bank account and stops payouts until the seller replaces it; the next
 * payout then takes the money. Events Stripe never delivered are caught up
 * by listing the account's events with `Stripe-Account`.
 */

let fake: StripeFake
let testApp: TestApp
let clock: TestClock
let call: ReturnType<typeof apiCaller<'seller'>>

beforeEach(async () => {
  clock = new TestClock(new Date('2026-12-01T10:00:00Z'))
  fake = await startStripeFake({ now: () => clock.now() })
  testApp = await createTestApp({ clock, env: fake.env })
  fake.setWebhookTarget(
    async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode,
  )
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Vera' } }))
}, 60_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

const followed = () =>
  testApp.database.db.selectFrom('seller_payouts').selectAll().orderBy('payout_created').orderBy('created_at').execute()

/** A German seller with the bank account `iban` and a verified identity, whose balance holds 100.00 EUR from a charge. */
async function sellerWithBalance(iban: string): Promise<string> {
  const { connectedAccounts, payments, db } = testApp.app.services
  expect((await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'de' })).status).toBe(204)
  expect((await call('seller', 'POST', '/api/v1/me/debit_account', { account_holder_name: 'Vera Verkäufer', iban })).status).toBe(200)
  const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow()
  const account = await connectedAccounts.findConnectedAccount(user.id)
  if (!account) throw new Error('the bank account made no connected account')
  await connectedAccounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:vera' })
  await connectedAccounts.uploadIdentityDocument(passportFront(account.id, 'passport:vera'))
  await fake.settle()
  expect((await connectedAccounts.getAccountVerification(account.id)).payoutsEnabled).toBe(true)
  const intent = await payments.createPaymentIntent({
    amount: 10_340,
    currency: 'eur',
    paymentMethod: 'card',
    transactionId: 'tx-p',
    idempotencyKey: 'tx-p:pay',
  })
  await fake.confirm(intent.id, intent.clientSecret, { paymentMethod: 'pm_card_visa' })
  await fake.settle()
  await payments.transfer({
    amount: 10_000,
    currency: 'eur',
    destinationAccount: account.id,
    transactionId: 'tx-p',
    idempotencyKey: 'tx-p:release',
  })
  await fake.settle()
  return account.id
}

it('follows a Stripe payout from payout.created to payout.paid', async () => {
  const account = await sellerWithBalance('DE89370400440532013000')
  const [payout] = fake.payOut(account)
  await fake.settle()
  expect(await followed()).toEqual([
    expect.objectContaining({
      provider: 'stripe',
      payout_id: payout!.id,
      account_id: account,
      amount: 10_000,
      currency: 'eur',
      status: 'in_transit',
      arrival_date: new Date((payout!.arrival_date as number) * 1000),
      automatic: true,
    }),
  ])
  fake.payoutsArrive(account)
  await fake.settle()
  expect(await followed()).toEqual([expect.objectContaining({ payout_id: payout!.id, status: 'paid' })])
  expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([{ id: payout!.id, status: 'paid', next_step: null }])
})

it('tells the seller of a failed Stripe payout, pays nothing to the errored account, and pays out again after the new one', async () => {
  // Stripe's test IBAN whose payouts fail with no_account.
  const account = await sellerWithBalance('DE62370400440532013001')
  fake.payOut(account)
  await fake.settle()
  fake.payoutsArrive(account)
  await fake.settle()
  const [failed] = await followed()
  expect(failed).toMatchObject({ status: 'failed', failure_code: 'no_account', amount: 10_000 })
  await testApp.app.services.jobs.runDue()
  const mails = (await writtenMails(testApp.dataDir)).filter((mail) => mail.subject.includes('did not reach your bank'))
  expect(mails).toHaveLength(1)
  expect(mails[0]!.text).toContain('The bank found no account with these details.')
  expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
    { status: 'failed', failure_code: 'no_account', next_step: 'update_bank_account' },
  ])
  // The money is back in the balance, and Stripe's schedule pays nothing to the errored bank account.
  expect((await call('seller', 'GET', '/app_api/balance')).body.available).toEqual([{ amount: 10_000, currency: 'eur' }])
  expect(fake.payOut(account)).toEqual([])

  expect(
    (await call('seller', 'POST', '/api/v1/me/debit_account', { account_holder_name: 'Vera Verkäufer', iban: 'DE89370400440532013000' }))
      .status,
  ).toBe(200)
  expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([{ status: 'failed', next_step: 'waiting_for_next_payout' }])
  const [again] = fake.payOut(account)
  expect(again).toMatchObject({ amount: 10_000, currency: 'eur' })
  fake.payoutsArrive(account)
  await fake.settle()
  expect((await followed()).map((row) => [row.payout_id === again!.id, row.status])).toEqual([
    [false, 'failed'],
    [true, 'paid'],
  ])
  expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
    { status: 'paid', bank_account_last4: '3000', next_step: null },
    // The errored bank account was removed when the new one was added: its last four digits are no longer expanded.
    { status: 'failed', next_step: null },
  ])
})

it('catches up a payout event the Connect endpoint never received, listed on the connected account', async () => {
  const account = await sellerWithBalance('DE62370400440532013001')
  const [payout] = fake.payOut(account)
  await fake.settle()
  fake.pauseDeliveries(true)
  fake.payoutsArrive(account)
  await fake.settle()
  expect(await followed()).toEqual([expect.objectContaining({ status: 'in_transit' })])

  // The catch-up job runs every 5 minutes: the platform's events, then each account a payout is open on.
  await clock.advance(testApp.app, 5 * 60)
  expect(await followed()).toEqual([expect.objectContaining({ payout_id: payout!.id, status: 'failed', failure_code: 'no_account' })])
  const listed = fake.requests.filter((request) => request.path === '/v1/events' && request.account === account)
  expect(listed[0]?.params).toMatchObject({ types: expect.arrayContaining(['payout.created', 'payout.paid', 'payout.failed']) })
  // The platform's own list does not hold the account's events (the fake, as Stripe, keeps them apart).
  const platformListing = fake.requests.find((request) => request.path === '/v1/events' && request.account === undefined)
  expect(platformListing).toBeDefined()

  // The delivery arriving after all is a duplicate, and the seller is told once.
  fake.pauseDeliveries(false)
  const late = fake.events.find((event) => event.type === 'payout.failed')!
  const answer = await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, ...fake.signedDelivery(late) })
  expect(answer.json()).toEqual({ received: true, duplicate: true })
  await testApp.app.services.jobs.runDue()
  expect((await writtenMails(testApp.dataDir)).filter((mail) => mail.subject.includes('did not reach your bank'))).toHaveLength(1)
})
