import { afterEach, beforeEach, expect } from 'vitest'
import type {
  AccountProfile,
  ConnectedAccounts,
  UploadIdentityDocumentInput,
} from '../adapters/payment-provider/connected-accounts-port.ts'
import type { IdentityVerification, VerificationSession } from '../adapters/payment-provider/identity-port.ts'
import type { PaymentIntent, Payments } from '../adapters/payment-provider/payments-port.ts'
import type { SandboxIdentity } from '../adapters/payment-provider/sandbox-identity.ts'
import type { SandboxPayments } from '../adapters/payment-provider/sandbox-payments.ts'
import { stripeWebhookPath } from '../adapters/payment-provider/stripe-webhook.ts'
import type { PaymentEvent } from '../modules/payments/payment-event.ts'
import { tinyPng } from './identity-upload.ts'
import { startStripeFake, type StripeFake } from './stripe-fake.ts'
import { createTestApp, type TestApp } from './test-app.ts'
import { TestClock } from './test-clock.ts'

/**
 * The payment provider ports' contract tests (payments, connected accounts,
 * identity: adapters/payment-provider/*.contract.test.ts) run the same
 * expectations against the sandbox and the Stripe adapter (against a local
 * stateful fake of Stripe's API), each provider driven the way its buyer's
 * browser and its asynchronous news work (the sandbox's confirm route and
 * timers; Stripe.js against the fake, and its signed webhooks). This is
 * their common harness.
 */

export interface Harness {
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
  /** The buyer's bank disputes the payment (all of it unless `amount`); answers the dispute's id. */
  openDispute(paymentIntentId: string, amount?: number): Promise<string>
  /** The bank decides the dispute. */
  decideDispute(disputeId: string, outcome: 'won' | 'lost'): Promise<void>
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
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/sandbox/v1/payment_intents/${intent.id}/confirm`,
      payload: { client_secret: intent.clientSecret, ...body },
    })
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
    openDispute: async (paymentIntentId, amount) => {
      const sandbox = testApp.app.services.payments as SandboxPayments
      return (await sandbox.disputes.open(paymentIntentId, { reason: 'fraudulent', ...(amount ? { amount } : {}) })).id
    },
    decideDispute: async (disputeId, outcome) => {
      await (testApp.app.services.payments as SandboxPayments).disputes.decide(disputeId, outcome)
    },
    uploadUnreadableDocument: async (accountId) => {
      // The sandbox's document check fails a file by its name.
      await testApp.app.services.connectedAccounts.uploadIdentityDocument({
        ...passportFront(accountId, `unreadable:${accountId}`),
        fileName: 'passport-unreadable.png',
      })
    },
    close: () => testApp.close(),
  }
}

async function stripeHarness(): Promise<Harness & { fake: StripeFake }> {
  const clock = new TestClock()
  const fake = await startStripeFake({ now: () => clock.now() })
  const { testApp, events } = await startApp(fake.env, clock)
  fake.setWebhookTarget(
    async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode,
  )
  return {
    fake,
    testApp,
    events,
    ...portsOf(testApp),
    payByCard: async (intent, outcome) => {
      await fake.confirm(intent.id, intent.clientSecret, {
        paymentMethod: outcome === 'accepted' ? 'pm_card_visa' : 'pm_card_chargeDeclinedInsufficientFunds',
      })
    },
    debitSepa: async (intent, outcome) => {
      await fake.confirm(intent.id, intent.clientSecret, {
        iban: outcome === 'accepted' ? 'DE89370400440532013000' : 'DE62370400440532013001',
      })
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
    openDispute: async (paymentIntentId, amount) => fake.openDispute(paymentIntentId, amount ? { amount } : {}).id as string,
    decideDispute: async (disputeId, outcome) => {
      fake.decideDispute(disputeId, outcome)
    },
    uploadUnreadableDocument: async (accountId) => {
      fake.rejectDocuments('document_not_readable')
      await testApp.app.services.connectedAccounts.uploadIdentityDocument(passportFront(accountId, `unreadable:${accountId}`))
      fake.rejectDocuments(null)
    },
    close: async () => {
      await testApp.close()
      await fake.close()
    },
  }
}

/** Everything both providers ask of a German individual. */
/** The front of a passport (the tiny PNG) as an account's identity document. */
export function passportFront(accountId: string, idempotencyKey: string): UploadIdentityDocumentInput {
  return {
    accountId,
    document: 'identity_document',
    side: 'front',
    fileName: 'passport.png',
    contentType: 'image/png',
    bytes: new Uint8Array(tinyPng),
    idempotencyKey,
  }
}

export const sellerProfile: AccountProfile = {
  firstName: 'Vera',
  lastName: 'Verkäufer',
  email: 'v@example.com',
  phone: '+4915112345678',
  dob: { day: 4, month: 5, year: 1990 },
  address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', state: null, postalCode: '10115' },
  businessUrl: null,
  tosAcceptance: { date: new Date('2026-11-01T10:00:00Z'), ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
}

export const providerHarnesses: Array<[string, () => Promise<Harness>]> = [
  ['sandbox', sandboxHarness],
  ['stripe', stripeHarness],
]

/** One harness per test, started before and closed after it; `h()` is the current one. */
export function useHarness(start: () => Promise<Harness>): () => Harness {
  let current: Harness | undefined
  beforeEach(async () => {
    current = await start()
    // The first test of a run builds the database template.
  }, 60_000)
  afterEach(async () => {
    await current?.close()
  })
  return () => {
    if (!current) throw new Error('No harness outside a test')
    return current
  }
}

/** The provider's news that a payment of the usual test intent (eur 103.40 for tx-1) went through. */
export function paymentSucceeded(paymentIntentId: string) {
  return expect.objectContaining({ type: 'payment_succeeded', paymentIntentId, transactionId: 'tx-1', amount: 10_340, currency: 'eur' })
}

/** A buyer's payment: an intent opened (each with a new key), and one paid by an accepted card and settled. */
export function paymentSteps(h: () => Harness) {
  let keys = 0
  const intent = (paymentMethod: 'card' | 'sepa' | 'p24' = 'card', amount = 10_340, transactionId = 'tx-1') =>
    h().payments.createPaymentIntent({
      amount,
      currency: 'eur',
      paymentMethod,
      transactionId,
      idempotencyKey: `${transactionId}:pay:${++keys}`,
      metadata: { part: 'payment' },
    })
  async function paid(amount = 10_000, transactionId = 'tx-1') {
    const created = await intent('card', amount, transactionId)
    await h().payByCard(created, 'accepted')
    await h().settle()
    return created
  }
  return { intent, paid }
}
