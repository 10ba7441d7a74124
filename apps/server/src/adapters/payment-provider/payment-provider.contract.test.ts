import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../payments/payment-event.ts'
import { tinyPng } from '../../testing/identity-upload.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import type { AccountProfile, ConnectedAccounts } from './connected-accounts-port.ts'
import type { IdentityVerification, VerificationSession } from './identity-port.ts'
import type { PaymentIntent, Payments } from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import type { SandboxIdentity } from './sandbox-identity.ts'
import { stripeWebhookPath } from './stripe-webhook.ts'

/**
 * The payment provider ports' contract (payments, connected accounts,
 * identity), run against the sandbox and the
 * Stripe adapter (against a local stateful fake of Stripe's API): the same
 * expectations, each provider driven the way its buyer's browser and its
 * asynchronous news work (the sandbox's confirm route and timers; Stripe.js
 * against the fake, and its signed webhooks).
 */
interface Harness {
  testApp: TestApp
  events: PaymentEvent[]
  payments: Payments
  accounts: ConnectedAccounts
  identity: IdentityVerification
  /** The buyer's browser confirms with a card that goes through, or one declined for insufficient funds. */
  payByCard(intent: PaymentIntent, outcome: 'accepted' | 'insufficient_funds'): Promise<void>
  /** The buyer's browser confirms a SEPA debit whose bank will accept or return it. */
  debitSepa(intent: PaymentIntent, outcome: 'accepted' | 'returned'): Promise<void>
  /** Lets whatever the provider does later happen (debits, refunds, checks) and its webhooks arrive. */
  settle(): Promise<void>
  /** The user finishes the Identity session's hosted page, and the check has its result. */
  completeIdentity(session: VerificationSession, outcome: 'verified' | 'failed'): Promise<void>
  /** The provider's payout schedule comes round for the account. */
  payOut(accountId: string): Promise<void>
  /** Uploads an identity document the provider's check will find unreadable. */
  uploadUnreadableDocument(accountId: string): Promise<void>
  close(): Promise<void>
}

async function startApp(env: Record<string, string>, clock: TestClock): Promise<{ testApp: TestApp; events: PaymentEvent[] }> {
  const testApp = await createTestApp({ clock, env })
  const events: PaymentEvent[] = []
  testApp.app.services.events.registerPaymentEventHandler(async (event) => {
    events.push(event)
  })
  return { testApp, events }
}

function portsOf(testApp: TestApp): Pick<Harness, 'payments' | 'accounts' | 'identity'> {
  const { payments, connectedAccounts, identity } = testApp.app.services
  return { payments, accounts: connectedAccounts, identity }
}

async function sandboxHarness(): Promise<Harness> {
  const clock = new TestClock()
  const { testApp, events } = await startApp({ SANDBOX_DOCUMENT_CHECK_SECONDS: '10', SANDBOX_PAYOUT_DELAY_SECONDS: '3600' }, clock)
  const confirm = async (intent: PaymentIntent, body: Record<string, string>) => {
    const response = await testApp.app.inject({ method: 'POST', url: `/sandbox/v1/payment_intents/${intent.id}/confirm`, payload: { client_secret: intent.clientSecret, ...body } })
    expect(response.statusCode).toBe(200)
  }
  return {
    testApp,
    events,
    ...portsOf(testApp),
    payByCard: (intent, outcome) => confirm(intent, { card_number: outcome === 'accepted' ? '4242424242424242' : '4000000000009995' }),
    debitSepa: (intent, outcome) => confirm(intent, { iban: outcome === 'accepted' ? 'DE89370400440532013000' : 'DE35370400440532013002' }),
    settle: async () => {
      await clock.advance(testApp.app, 60)
    },
    completeIdentity: async (session, outcome) => {
      const sandbox = testApp.app.services.identity as SandboxIdentity
      await sandbox.submit(session.id, session.clientSecret, outcome === 'verified' ? 'verified' : 'unverified')
      await clock.advance(testApp.app, 60)
    },
    payOut: async () => {
      await clock.advance(testApp.app, 3600)
    },
    uploadUnreadableDocument: async (accountId) => {
      await testApp.app.services.connectedAccounts.uploadIdentityDocument({ accountId, document: 'identity_document', side: 'front', fileName: 'passport-unreadable.png', contentType: 'image/png', bytes: new Uint8Array(tinyPng), idempotencyKey: `unreadable:${accountId}` })
    },
    close: () => testApp.close(),
  }
}

async function stripeHarness(): Promise<Harness & { fake: StripeFake }> {
  const clock = new TestClock()
  const fake = await startStripeFake({ now: () => clock.now() })
  const { testApp, events } = await startApp(fake.env, clock)
  fake.setWebhookTarget(async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode)
  return {
    fake,
    testApp,
    events,
    ...portsOf(testApp),
    payByCard: async (intent, outcome) => {
      await fake.confirm(intent.id, intent.clientSecret, { paymentMethod: outcome === 'accepted' ? 'pm_card_visa' : 'pm_card_chargeDeclinedInsufficientFunds' })
    },
    debitSepa: async (intent, outcome) => {
      await fake.confirm(intent.id, intent.clientSecret, { iban: outcome === 'accepted' ? 'DE89370400440532013000' : 'DE62370400440532013001' })
    },
    settle: async () => {
      await fake.settle()
      await testApp.app.services.jobs.runDue()
    },
    completeIdentity: async (session, outcome) => {
      fake.completeIdentity(session.id, outcome)
      await fake.settle()
    },
    payOut: async (accountId) => {
      fake.payOut(accountId)
      await fake.settle()
    },
    uploadUnreadableDocument: async (accountId) => {
      fake.rejectDocuments('document_not_readable')
      await testApp.app.services.connectedAccounts.uploadIdentityDocument({ accountId, document: 'identity_document', side: 'front', fileName: 'passport.png', contentType: 'image/png', bytes: new Uint8Array(tinyPng), idempotencyKey: `unreadable:${accountId}` })
      fake.rejectDocuments(null)
    },
    close: async () => {
      await testApp.close()
      await fake.close()
    },
  }
}

/** Everything both providers ask of a German individual. */
const sellerProfile: AccountProfile = {
  firstName: 'Vera',
  lastName: 'Verkäufer',
  email: 'v@example.com',
  phone: '+4915112345678',
  dob: { day: 4, month: 5, year: 1990 },
  address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', state: null, postalCode: '10115' },
  businessUrl: null,
  tosAcceptance: { date: new Date('2026-11-01T10:00:00Z'), ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
}

const providers: Array<[string, () => Promise<Harness>]> = [
  ['sandbox', sandboxHarness],
  ['stripe', stripeHarness],
]

describe.each(providers)('payment provider contract: %s', (_name, start) => {
  let h: Harness
  beforeEach(async () => {
    h = await start()
    // The first test of a run builds the database template.
  }, 60_000)
  afterEach(async () => {
    await h.close()
  })

  let keys = 0
  const intent = (paymentMethod: 'card' | 'sepa' | 'p24' = 'card', amount = 10_340, transactionId = 'tx-1') =>
    h.payments.createPaymentIntent({ amount, currency: 'eur', paymentMethod, transactionId, idempotencyKey: `${transactionId}:pay:${++keys}`, metadata: { part: 'payment' } })
  const eventTypes = () => h.events.map((event) => event.type)
  async function paid(amount = 10_000, transactionId = 'tx-1') {
    const created = await intent('card', amount, transactionId)
    await h.payByCard(created, 'accepted')
    await h.settle()
    return created
  }

  it('opens an intent for the method, amount and transaction, waiting for the buyer', async () => {
    const created = await intent('p24')
    expect(created).toMatchObject({ status: 'requires_payment_method', amount: 10_340, currency: 'eur', paymentMethod: 'p24', transactionId: 'tx-1', amountRefunded: 0, lastPaymentError: null, nextAction: null })
    expect(created.metadata).toMatchObject({ transaction_id: 'tx-1', part: 'payment' })
    expect(created.clientSecret).toMatch(new RegExp(`^${created.id}_secret_`))
    expect(await h.payments.retrievePaymentIntent(created.id)).toEqual(created)
  })

  it('takes an accepted card and says so by webhook, once', async () => {
    const created = await intent()
    await h.payByCard(created, 'accepted')
    await h.settle()
    expect((await h.payments.retrievePaymentIntent(created.id)).status).toBe('succeeded')
    expect(h.events).toEqual([expect.objectContaining({ type: 'payment_succeeded', paymentIntentId: created.id, transactionId: 'tx-1', amount: 10_340, currency: 'eur' })])
  })

  it('declines a card with the reason, and the intent can be paid with another', async () => {
    const created = await intent()
    await h.payByCard(created, 'insufficient_funds')
    await h.settle()
    expect(await h.payments.retrievePaymentIntent(created.id)).toMatchObject({ status: 'requires_payment_method', lastPaymentError: { reason: 'insufficient_funds' } })
    expect(h.events).toEqual([expect.objectContaining({ type: 'payment_failed', paymentIntentId: created.id, reason: 'insufficient_funds' })])
    await h.payByCard(created, 'accepted')
    await h.settle()
    expect(eventTypes()).toEqual(['payment_failed', 'payment_succeeded'])
  })

  it('keeps a SEPA debit processing, then settles it or fails it later', async () => {
    const accepted = await intent('sepa')
    await h.debitSepa(accepted, 'accepted')
    expect((await h.payments.retrievePaymentIntent(accepted.id)).status).toBe('processing')
    await h.settle()
    expect((await h.payments.retrievePaymentIntent(accepted.id)).status).toBe('succeeded')
    expect(eventTypes()).toEqual(['payment_processing', 'payment_succeeded'])
    const returned = await intent('sepa')
    await h.debitSepa(returned, 'returned')
    await h.settle()
    expect((await h.payments.retrievePaymentIntent(returned.id)).status).toBe('requires_payment_method')
    expect(eventTypes()).toEqual(['payment_processing', 'payment_succeeded', 'payment_processing', 'payment_failed'])
  })

  it('refuses SEPA in another currency than euros', async () => {
    await expect(h.payments.createPaymentIntent({ amount: 500, currency: 'pln', paymentMethod: 'sepa', transactionId: 't', idempotencyKey: 'k' })).rejects.toMatchObject({ code: 'invalid_request' })
  })

  describe('idempotency keys', () => {
    it('gives the first answer again for the same key and request', async () => {
      const input = { amount: 5000, currency: 'eur', paymentMethod: 'card' as const, transactionId: 'tx-2', idempotencyKey: 'tx-2:pay' }
      const first = await h.payments.createPaymentIntent(input)
      const second = await h.payments.createPaymentIntent({ ...input })
      expect(second.id).toBe(first.id)
      const third = await h.payments.createPaymentIntent({ ...input, idempotencyKey: 'tx-2:pay:again' })
      expect(third.id).not.toBe(first.id)
    })

    it('refuses the same key with a different request', async () => {
      const input = { amount: 5000, currency: 'eur', paymentMethod: 'card' as const, transactionId: 'tx-3', idempotencyKey: 'tx-3:pay' }
      await h.payments.createPaymentIntent(input)
      const reused = h.payments.createPaymentIntent({ ...input, amount: 5001 })
      await expect(reused).rejects.toBeInstanceOf(PaymentProviderError)
      await expect(h.payments.createPaymentIntent({ ...input, amount: 5001 })).rejects.toMatchObject({ code: 'idempotency_key_reused' })
    })
  })

  it('cancels an open intent (again: the same answer), but not a paid one', async () => {
    const open = await intent()
    expect(await h.payments.cancelPaymentIntent({ paymentIntentId: open.id, idempotencyKey: 'c1' })).toMatchObject({ id: open.id, status: 'canceled' })
    expect(await h.payments.cancelPaymentIntent({ paymentIntentId: open.id, idempotencyKey: 'c2' })).toMatchObject({ status: 'canceled' })
    const done = await paid()
    await expect(h.payments.cancelPaymentIntent({ paymentIntentId: done.id, idempotencyKey: 'c3' })).rejects.toMatchObject({ code: 'invalid_state' })
    await expect(h.payments.retrievePaymentIntent('pi_missing')).rejects.toMatchObject({ code: 'not_found' })
  })

  describe('refunds', () => {
    it('accepts a refund as pending and settles it later by webhook', async () => {
      const payment = await paid()
      const refund = await h.payments.refund({ paymentIntentId: payment.id, amount: 4000, idempotencyKey: 'tx-1:refund' })
      expect(refund).toMatchObject({ status: 'pending', amount: 4000, currency: 'eur', paymentIntentId: payment.id })
      const replay = await h.payments.refund({ paymentIntentId: payment.id, amount: 4000, idempotencyKey: 'tx-1:refund' })
      expect(replay.id).toBe(refund.id)
      expect((await h.payments.retrievePaymentIntent(payment.id)).amountRefunded).toBe(4000)
      await h.settle()
      expect(h.events.filter((event) => event.type !== 'payment_succeeded')).toEqual([
        expect.objectContaining({ type: 'refund_succeeded', refundId: refund.id, paymentIntentId: payment.id, amount: 4000, transactionId: 'tx-1' }),
      ])
    })

    it('refuses to refund more than was paid, or a payment that has not succeeded', async () => {
      const payment = await paid(1000)
      await h.payments.refund({ paymentIntentId: payment.id, amount: 600, idempotencyKey: 'r1' })
      await expect(h.payments.refund({ paymentIntentId: payment.id, amount: 401, idempotencyKey: 'r2' })).rejects.toMatchObject({ code: 'amount_too_large' })
      const unpaid = await intent()
      await expect(h.payments.refund({ paymentIntentId: unpaid.id, amount: 1, idempotencyKey: 'r3' })).rejects.toMatchObject({ code: 'invalid_state' })
    })
  })

  describe('connected accounts and transfers', () => {
    it('creates an account once per user and finds it again', async () => {
      expect(await h.accounts.findConnectedAccount('user-1')).toBeNull()
      const input = { userId: 'user-1', email: 's@example.com', country: 'DE', idempotencyKey: 'acct:user-1' }
      const account = await h.accounts.createConnectedAccount(input)
      expect(account).toMatchObject({ id: expect.stringMatching(/^acct_/), email: 's@example.com', country: 'de' })
      expect((await h.accounts.createConnectedAccount(input)).id).toBe(account.id)
      expect(await h.accounts.findConnectedAccount('user-1')).toEqual(account)
    })

    it('credits the seller’s balance with what the sale brought, once per key, and announces it', async () => {
      await paid(10_340, 'tx-1')
      await paid(1000, 'tx-5')
      const account = await h.accounts.createConnectedAccount({ userId: 'u1', email: 's@example.com', country: 'DE', idempotencyKey: 'acct:u1' })
      expect((await h.accounts.getBalance(account.id)).available).toEqual([])
      const transfer = await h.payments.transfer({ amount: 9660, currency: 'eur', destinationAccount: account.id, transactionId: 'tx-1', idempotencyKey: 'tx-1:release' })
      const again = await h.payments.transfer({ amount: 9660, currency: 'eur', destinationAccount: account.id, transactionId: 'tx-1', idempotencyKey: 'tx-1:release' })
      expect(again.id).toBe(transfer.id)
      await h.payments.transfer({ amount: 340, currency: 'eur', destinationAccount: account.id, transactionId: 'tx-5', idempotencyKey: 'tx-5:release' })
      expect(await h.accounts.getBalance(account.id)).toEqual({ available: [{ amount: 10_000, currency: 'eur' }], pending: [] })
      const listed = await h.accounts.listTransfers(account.id)
      // Newest first; both were made in the same second here, so only the set is compared.
      expect(listed.map((record) => [record.transactionId, record.amount]).sort()).toEqual([
        ['tx-1', 9660],
        ['tx-5', 340],
      ])
      await h.settle()
      expect(h.events.filter((event) => event.type === 'transfer_paid')).toHaveLength(2)
      expect(h.events).toContainEqual(expect.objectContaining({ type: 'transfer_paid', transferId: transfer.id, transactionId: 'tx-1', amount: 9660 }))
    })

    it('refuses a transfer to an unknown account', async () => {
      await paid(1000, 't')
      await expect(h.payments.transfer({ amount: 1, currency: 'eur', destinationAccount: 'acct_nope', transactionId: 't', idempotencyKey: 'x' })).rejects.toMatchObject({ code: 'not_found' })
    })
  })

  describe('verification and payout details', () => {
    it('asks who the seller is and for the terms, and no longer once the profile is forwarded', async () => {
      const account = await h.accounts.createConnectedAccount({ userId: 'u10', email: 'w@example.com', country: 'DE', idempotencyKey: 'acct:u10' })
      expect((await h.accounts.getAccountVerification(account.id)).currentlyDue).toEqual(expect.arrayContaining(['name', 'dob', 'address', 'tos_acceptance']))
      await h.accounts.updateAccountProfile({ accountId: account.id, profile: { ...sellerProfile, dob: null, tosAcceptance: null }, idempotencyKey: 'profile:u10:1' })
      const partly = await h.accounts.getAccountVerification(account.id)
      expect(partly.currentlyDue).toEqual(expect.arrayContaining(['dob', 'tos_acceptance']))
      expect(partly.currentlyDue).not.toContain('name')
      expect(partly.currentlyDue).not.toContain('address')
      // The same key and profile again is the same update; a changed profile takes a new key.
      await h.accounts.updateAccountProfile({ accountId: account.id, profile: { ...sellerProfile, dob: null, tosAcceptance: null }, idempotencyKey: 'profile:u10:1' })
      await expect(h.accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u10:1' })).rejects.toMatchObject({ code: 'idempotency_key_reused' })
      await h.accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u10:2' })
      const complete = await h.accounts.getAccountVerification(account.id)
      for (const item of ['name', 'dob', 'address', 'phone', 'tos_acceptance', 'provider_onboarding']) expect(complete.currentlyDue).not.toContain(item)
    })

    it('asks for an identity document and a bank account, and no longer once given', async () => {
      const account = await h.accounts.createConnectedAccount({ userId: 'u2', email: 'v@example.com', country: 'DE', idempotencyKey: 'acct:u2' })
      await h.accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u2' })
      const fresh = await h.accounts.getAccountVerification(account.id)
      expect(fresh.currentlyDue).toEqual(expect.arrayContaining(['identity_document', 'external_account']))
      expect(fresh.payoutsEnabled).toBe(false)
      expect(fresh.documents.identity_document.front.status).toBe('not_uploaded')

      const bytes = new Uint8Array(tinyPng)
      await h.accounts.uploadIdentityDocument({ accountId: account.id, document: 'identity_document', side: 'front', fileName: 'passport.png', contentType: 'image/png', bytes, idempotencyKey: 'doc:1' })
      const checking = await h.accounts.getAccountVerification(account.id)
      expect(checking.documents.identity_document.front.status).toBe('pending')
      expect(checking.currentlyDue).not.toContain('identity_document')

      await h.accounts.setExternalBankAccount({ accountId: account.id, country: 'de', currency: 'eur', accountNumber: 'DE89370400440532013000', last4: '3000', idempotencyKey: 'bank:1' })
      await h.settle()
      const verified = await h.accounts.getAccountVerification(account.id)
      expect(verified.documents.identity_document.front.status).toBe('verified')
      expect(verified.currentlyDue).toEqual([])
      expect(verified.payoutsEnabled).toBe(true)
    })

    it('rejects an unreadable document with the reason, and asks for one again', async () => {
      const account = await h.accounts.createConnectedAccount({ userId: 'u8', email: 'r@example.com', country: 'DE', idempotencyKey: 'acct:u8' })
      await h.uploadUnreadableDocument(account.id)
      await h.settle()
      const rejected = await h.accounts.getAccountVerification(account.id)
      expect(rejected.documents.identity_document.front).toEqual({ status: 'rejected', rejectionReason: expect.stringMatching(/could not be read/) })
      expect(rejected.currentlyDue).toContain('identity_document')
      expect(rejected.payoutsEnabled).toBe(false)
    })

    it('attaches a bank-account token as the payout account, replacing the one before', async () => {
      const account = await h.accounts.createConnectedAccount({ userId: 'u3', email: 'us@example.com', country: 'US', idempotencyKey: 'acct:u3' })
      await h.accounts.setExternalBankAccount({ accountId: account.id, country: 'us', currency: 'usd', accountNumber: '000123456789', routingNumber: '110000000', last4: '6789', idempotencyKey: 'bank:2' })
      expect(await h.accounts.attachBankAccountToken({ accountId: account.id, token: 'btok_us_1234', idempotencyKey: 'token:1' })).toEqual({ last4: '1234' })
      expect(await h.accounts.attachBankAccountToken({ accountId: account.id, token: 'btok_us_verified', idempotencyKey: 'token:2' })).toEqual({ last4: '6789' })
      await expect(h.accounts.attachBankAccountToken({ accountId: account.id, token: 'tok_visa', idempotencyKey: 'token:3' })).rejects.toMatchObject({ code: 'invalid_request' })
      expect((await h.accounts.getAccountVerification(account.id)).currentlyDue).not.toContain('external_account')
    })

    it('hands out an account session for the embedded components', async () => {
      const account = await h.accounts.createConnectedAccount({ userId: 'u4', email: 'a@example.com', country: 'FI', idempotencyKey: 'acct:u4' })
      expect((await h.accounts.createAccountSession(account.id)).clientSecret).toMatch(/_secret_/)
    })
  })

  describe('Identity and payouts', () => {
    it('verifies a user with an Identity session, whose document then verifies the account', async () => {
      const input = { userId: 'u5', returnUrl: 'http://localhost:3999/profile/verification', idempotencyKey: 'identity:u5:1' }
      const session = await h.identity.createVerificationSession(input)
      expect(session).toMatchObject({ id: expect.any(String), status: 'requires_input', lastError: null, url: expect.stringMatching(/\S/) })
      expect(session.clientSecret).toMatch(/_secret_/)
      expect((await h.identity.createVerificationSession(input)).id).toBe(session.id)
      await h.completeIdentity(session, 'verified')
      expect(await h.identity.retrieveVerificationSession(session.id, input.returnUrl)).toMatchObject({ id: session.id, status: 'verified' })
      const account = await h.accounts.createConnectedAccount({ userId: 'u5', email: 'i@example.com', country: 'DE', idempotencyKey: 'acct:u5' })
      await h.accounts.attachVerifiedSession({ accountId: account.id, sessionId: session.id, idempotencyKey: `attach-session:${session.id}` })
      await h.settle()
      const verification = await h.accounts.getAccountVerification(account.id)
      expect(verification.documents.identity_document.front.status).toBe('verified')
      expect(verification.currentlyDue).not.toContain('identity_document')
    })

    it('leaves a failed Identity session waiting for input, with the reason, and refuses to attach it', async () => {
      const session = await h.identity.createVerificationSession({ userId: 'u6', returnUrl: 'http://localhost:3999/profile', idempotencyKey: 'identity:u6:1' })
      await h.completeIdentity(session, 'failed')
      const failed = await h.identity.retrieveVerificationSession(session.id, 'http://localhost:3999/profile')
      expect(failed.status).toBe('requires_input')
      expect(failed.lastError).toEqual(expect.any(String))
      const account = await h.accounts.createConnectedAccount({ userId: 'u6', email: 'f@example.com', country: 'DE', idempotencyKey: 'acct:u6' })
      await expect(h.accounts.attachVerifiedSession({ accountId: account.id, sessionId: session.id, idempotencyKey: 'attach:u6' })).rejects.toMatchObject({ code: 'invalid_state' })
    })

    it('pays a verified seller’s balance out to their bank account', async () => {
      await paid(10_340, 'tx-9')
      const account = await h.accounts.createConnectedAccount({ userId: 'u7', email: 'p@example.com', country: 'DE', idempotencyKey: 'acct:u7' })
      await h.accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u7' })
      await h.accounts.uploadIdentityDocument({ accountId: account.id, document: 'identity_document', side: 'front', fileName: 'passport.png', contentType: 'image/png', bytes: new Uint8Array(tinyPng), idempotencyKey: 'doc:u7' })
      await h.accounts.setExternalBankAccount({ accountId: account.id, country: 'de', currency: 'eur', accountNumber: 'DE89370400440532013000', last4: '3000', idempotencyKey: 'bank:u7' })
      await h.settle()
      await h.payments.transfer({ amount: 10_000, currency: 'eur', destinationAccount: account.id, transactionId: 'tx-9', idempotencyKey: 'tx-9:release' })
      expect(await h.accounts.listPayouts(account.id)).toEqual([])
      await h.payOut(account.id)
      expect(await h.accounts.listPayouts(account.id)).toEqual([
        { id: expect.any(String), amount: 10_000, currency: 'eur', status: 'in_transit', bankLast4: '3000', created: expect.any(Date), arrivalDate: expect.any(Date), failureMessage: null },
      ])
      expect((await h.accounts.getBalance(account.id)).available).toEqual([])
    })
  })
})
