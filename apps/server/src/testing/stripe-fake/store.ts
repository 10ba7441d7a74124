import { randomBytes } from 'node:crypto'
import Stripe from 'stripe'
import { missing } from './wire.ts'
import { stripeShapeProblems } from '../stripe-schema.ts'

/*
 * What the Stripe fake (../stripe-fake.ts) keeps: its keys, the objects of
 * every kind by id, the events it told, and what Stripe does later (the
 * `later` queue that `settle` runs). The other parts of the fake take this
 * store and share it, as Stripe's API shares one account's data.
 */

/** What the app's webhook route answers, through `inject` or over HTTP. */
export type StripeWebhookTarget = (request: { headers: Record<string, string>; payload: string }) => Promise<number>

export type Json = Record<string, unknown>

const apiVersion = '2026-10-28.endive'

export type StripeStore = ReturnType<typeof createStore>

/**
 * Fixed test rates into the platform's settlement currency: a charge in
 * another currency settles converted (its balance transaction's amount and
 * `exchange_rate`), as Stripe converts at the time of the charge.
 */
const ratesToEur: Record<string, number> = { eur: 1, pln: 0.23, sek: 0.087, gbp: 1.17, usd: 0.92, myr: 0.2, aud: 0.6, jpy: 0.0061 }

export function createStore(options: { now: () => Date; platformCountry: string; settlementCurrency: string }) {
  const { now, platformCountry, settlementCurrency } = options
  const seconds = () => Math.floor(now().getTime() / 1000)
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`
  const signer = new Stripe(secretKey)
  const pending = new Set<Promise<unknown>>()
  const queue: Array<() => void> = []
  let counter = 0

  const store = {
    platformCountry,
    secretKey,
    publishableKey: `pk_test_${randomBytes(12).toString('hex')}`,
    webhookSecret,
    events: [] as Json[],
    /** Where the fake's answers and events differ from Stripe's published shapes (../stripe-schema.ts); `close()` fails on any. */
    shapeProblems: new Set<string>(),
    intents: new Map<string, Json>(),
    charges: new Map<string, Json>(),
    refunds: new Map<string, Json>(),
    balanceTransactions: new Map<string, Json>(),
    settlementCurrency,
    accounts: new Map<string, Json>(),
    transfers: new Map<string, Json>(),
    payouts: new Map<string, Json>(),
    /** What Stripe asks of an account beyond Pactum's screens until its onboarding page is done (`requireMore`), kept off the object. */
    extraRequirements: new Map<string, string[]>(),
    /** Each payout's connected account, kept off the object: a Payout names no account (its events do, in `account`). */
    payoutAccounts: new Map<string, string>(),
    /** The failure code a bank account's payouts fail with (Stripe's test numbers), by bank account id; kept off the object, as Stripe shows none. */
    payoutFailures: new Map<string, string>(),
    files: new Map<string, { object: Json; data: Buffer; account: string | undefined }>(),
    sessions: new Map<string, Json>(),
    reports: new Map<string, Json>(),
    /** Where signed webhooks go; none are sent until one is set. */
    target: undefined as StripeWebhookTarget | undefined,
    /** Events still happen and are listed, but are not delivered. */
    paused: false,
    /** The code the document checks that follow reject with, or null. */
    documentRejection: null as string | null,
    /** The fake's own address (for redirect and onboarding URLs), once it listens. */
    url: '',
    seconds,
    /** Kept once each, with list positions left out: the same misreading shows once. */
    noteShapeProblems: (problems: string[]) => {
      for (const problem of problems) store.shapeProblems.add(problem.replace(/\[\d+\]/g, '[]'))
    },
    newId: (prefix: string) => `${prefix}_${(++counter).toString(36).padStart(6, '0')}${randomBytes(6).toString('hex')}`,
    later,
    balanceTransactionFor,
    signedDelivery,
    emit,
    accountOf,
    settle,
  }

  /** The platform balance's record of money coming in, converted to the settlement currency when the charge was in another. */
  function balanceTransactionFor(source: string, type: string, amount: number, currency: string): Json {
    const rate = currency === settlementCurrency ? null : (ratesToEur[currency] ?? 1) / (ratesToEur[settlementCurrency] ?? 1)
    const settled = rate === null ? amount : Math.round(amount * rate)
    const balance: Json = {
      id: store.newId('txn'),
      object: 'balance_transaction',
      amount: settled,
      available_on: seconds() + 2 * 86_400,
      created: seconds(),
      currency: settlementCurrency,
      description: null,
      exchange_rate: rate,
      fee: 0,
      fee_details: [],
      net: settled,
      reporting_category: type,
      balance_type: 'payments',
      source,
      status: 'pending',
      type,
    }
    store.balanceTransactions.set(balance.id as string, balance)
    return balance
  }

  /** What Stripe does later (a debit settling, a refund, a check, a delivery): waits until the test lets time pass (`settle`). */
  function later(work: () => void): void {
    queue.push(work)
  }

  function signedDelivery(event: Json, signing: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event)
    const header = signer.webhooks.generateTestHeaderString({
      payload,
      secret: signing.secret ?? webhookSecret,
      timestamp: signing.timestamp ?? seconds(),
    })
    return {
      payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': header,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
    }
  }

  /** Stripe retries a failed delivery with backoff; the fake tries three times. */
  function deliver(event: Json, attempt = 1): void {
    if (!store.target || store.paused) return
    const send = store.target
    const done = (async () => {
      const status = await send(signedDelivery(event)).catch(() => 0)
      if ((status < 200 || status >= 300) && attempt < 3) later(() => deliver(event, attempt + 1))
    })()
    pending.add(done)
    void done.finally(() => pending.delete(done))
  }

  function emit(type: string, object: Json, account?: string): void {
    const event: Json = {
      id: store.newId('evt'),
      object: 'event',
      api_version: apiVersion,
      created: seconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
      ...(account ? { account } : {}),
    }
    store.noteShapeProblems(stripeShapeProblems(event, `event ${type}`))
    store.events.unshift(event)
    later(() => deliver(event))
  }

  function accountOf(id: string, param = 'account'): Json {
    const account = store.accounts.get(id)
    if (!account) throw missing('account', id, param)
    return account
  }

  async function settle(): Promise<void> {
    // One at a time, in the order they happened (Stripe does not promise an order: the out-of-order test sends its own),
    // until nothing is left: an outcome emits events, whose deliveries may be retried.
    while (queue.length > 0 || pending.size > 0) {
      queue.shift()?.()
      await Promise.allSettled([...pending])
    }
  }

  return store
}
