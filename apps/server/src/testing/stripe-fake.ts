import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fakeConnect } from './stripe-fake/connect.ts'
import { fakeIdentity } from './stripe-fake/identity.ts'
import { fakeDisputes } from './stripe-fake/disputes.ts'
import { fakePayments } from './stripe-fake/payments.ts'
import { fakeRoutes } from './stripe-fake/routes.ts'
import { createStore, type Json, type StripeWebhookTarget } from './stripe-fake/store.ts'
import { fakeTransfers } from './stripe-fake/transfers.ts'
import { stripeShapeProblems } from './stripe-schema.ts'
import { type FormObject, parseForm, StripeFakeError } from './stripe-fake/wire.ts'

export type { StripeWebhookTarget } from './stripe-fake/store.ts'

export interface StripeFakeOptions {
  /** The clock events are stamped and signed with (the app's test clock); the real one by default. */
  now?: () => Date
  /** Where the platform's own Stripe account is (`GET /v1/account`), upper case; GB by default. */
  platformCountry?: string
  /** The currency the platform's balance settles in: a charge in another is converted (its balance transaction); eur by default. */
  settlementCurrency?: string
}

export interface RecordedStripeRequest {
  method: string
  path: string
  account: string | undefined
  idempotencyKey: string | undefined
  params: FormObject
}

export interface StripeFake {
  /** As STRIPE_API_URL. */
  url: string
  secretKey: string
  publishableKey: string
  webhookSecret: string
  /** The env that points the app at this fake. */
  env: Record<string, string>
  requests: RecordedStripeRequest[]
  events: Json[]
  /** Where its answers and events so far differ from Stripe's published shapes; `close()` fails on any. */
  shapeProblems(): string[]
  /** Where signed webhooks go; none are sent until one is set. */
  setWebhookTarget(target: StripeWebhookTarget): void
  /** Events still happen and are listed, but are not delivered (an outage, a misconfigured endpoint). */
  pauseDeliveries(paused: boolean): void
  /** The browser's Stripe.js confirmation with the client secret: `pm_card_visa`, `pm_card_chargeDeclined…`, or a SEPA IBAN / P24 return URL. */
  confirm(intentId: string, clientSecret: string, method: { paymentMethod?: string; iban?: string; returnUrl?: string }): Promise<Json>
  /** The buyer's bank answers the P24 redirect. */
  completeRedirect(intentId: string, outcome: 'succeeded' | 'failed'): void
  /** Stripe asks the account for more than Pactum's screens collect (e.g. `individual.political_exposure`), until its onboarding page is completed. */
  requireMore(accountId: string, requirements: string[]): void
  /** The seller finishes Stripe's hosted onboarding page (an account link's URL). */
  completeOnboarding(accountId: string): void
  /** The user finishes Stripe Identity's hosted page. */
  completeIdentity(sessionId: string, outcome: 'verified' | 'failed'): void
  /** Stripe pays the account's available balance out to its bank account. */
  payOut(accountId: string): Json[]
  /** The bank answers the account's payouts in transit: paid, or failed on Stripe's test bank numbers (the bank account then errored). */
  payoutsArrive(accountId: string): Json[]
  /** Stripe takes `amount` from the account's balance (a loss it carries after a payout): `available` may go below zero. */
  debitBalance(accountId: string, amount: number, currency: string): void
  /** The cardholder's bank disputes the payment's charge (all of it unless `amount`): `charge.dispute.created` and `…funds_withdrawn`. */
  openDispute(paymentIntentId: string, options?: { amount?: number; reason?: string }): Json
  /** The bank decides the dispute. */
  decideDispute(disputeId: string, outcome: 'won' | 'lost'): Json
  /** The document checks that follow will reject with this code (e.g. `document_not_readable`), until cleared with null. */
  rejectDocuments(code: string | null): void
  /** The next request to this method and path (after `skip` that pass) answers 500 (`api_error`) and changes nothing: Stripe out for a moment. */
  failNext(method: string, path: string, skip?: number): void
  /** The signed delivery Stripe would make of an event, with the account's secret unless a test forges one, at `timestamp` seconds. */
  signedDelivery(event: Json, options?: { secret?: string; timestamp?: number }): { headers: Record<string, string>; payload: string }
  /** Lets time pass: every outcome Stripe gives later (debits, refunds, checks) and every delivery happens, in order. */
  settle(): Promise<void>
  close(): Promise<void>
}

/**
 * A stateful stand-in for Stripe's API, for the Stripe adapter's tests
 * (the SDK pointed at it with STRIPE_API_URL). Like Stripe it checks the
 * secret key (401), keeps objects per connected account (`Stripe-Account`),
 * honours `Idempotency-Key` (the same key and parameters answer the first
 * answer again, for 24 hours of its clock; other parameters answer 400
 * `idempotency_error`), takes
 * form-encoded bodies and multipart uploads, settles SEPA debits and bank
 * refunds later (a card refund succeeds at once), settles charges in the
 * platform's currency and transfers only in it, drops a payment method the
 * currency cannot be paid with, declines Stripe's test payment methods, and tells every
 * change as an event: listed by `GET /v1/events` and delivered to the
 * webhook target signed with the SDK's `generateTestHeaderString`.
 */
/** How long Stripe keeps an idempotency key: "keys are eligible to be removed once they are at least 24 hours old". */
const idempotencyKeySeconds = 24 * 3600

/** `/v1/refunds/re_123/cancel` → `/v1/refunds/:id/cancel`: one problem per route, not per object. */
function routeOf(pathname: string): string {
  return pathname.replace(/\/(?:[a-z]+_)+[0-9a-z]{6,}(?=\/|$)/g, '/:id')
}

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const store = createStore({
    now: options.now ?? (() => new Date()),
    platformCountry: options.platformCountry ?? 'GB',
    settlementCurrency: options.settlementCurrency ?? 'eur',
  })
  const { secretKey, publishableKey, webhookSecret, events, newId } = store
  const payments = fakePayments(store)
  const transfers = fakeTransfers(store)
  const connect = fakeConnect(store)
  const identity = fakeIdentity(store)
  const disputes = fakeDisputes(store)
  const { authorised, route } = fakeRoutes(store, { payments, transfers, connect, identity, disputes })
  const requests: RecordedStripeRequest[] = []
  const pendingFailures: Array<{ request: string; skip: number }> = []
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown; at: number }>()

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const method = req.method ?? 'GET'
      const target = new URL(req.url ?? '/', 'http://fake')
      const contentType = req.headers['content-type'] ?? ''
      const params =
        method === 'GET' || method === 'DELETE'
          ? parseForm(target.search.slice(1))
          : contentType.startsWith('application/x-www-form-urlencoded')
            ? parseForm(body.toString('utf8'))
            : {}
      const account = typeof req.headers['stripe-account'] === 'string' ? req.headers['stripe-account'] : undefined
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined
      requests.push({ method, path: target.pathname, account, idempotencyKey: key, params })
      const answer = (status: number, payload: unknown, raw?: Buffer) => {
        res.writeHead(status, { 'content-type': raw ? 'application/octet-stream' : 'application/json', 'request-id': newId('req') })
        res.end(raw ?? JSON.stringify(payload))
      }
      if (!authorised(req.headers, method, target.pathname, params)) {
        answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } })
        return
      }
      const outage = pendingFailures.findIndex((failure) => failure.request === `${method} ${target.pathname}`)
      if (outage !== -1 && (pendingFailures[outage] as { skip: number }).skip-- === 0) {
        pendingFailures.splice(outage, 1)
        answer(500, { error: { type: 'api_error', message: 'An unknown error occurred (the fake’s outage).' } })
        return
      }
      // Stripe keys idempotency per account; the fingerprint covers the request's method, path and parameters (files by their bytes).
      const scope = key && method === 'POST' ? `${account ?? 'platform'}:${key}` : undefined
      const fingerprint = `${method} ${target.pathname} ${JSON.stringify(params)} ${createHash('sha256').update(body).digest('hex')}`
      // Stripe prunes a key once it is at least 24 hours old: the same key then makes a new request.
      const kept = scope ? idempotency.get(scope) : undefined
      const stored = kept && store.seconds() - kept.at < idempotencyKeySeconds ? kept : undefined
      if (stored) {
        // Multipart boundaries differ between attempts: a file upload is compared by its path and parameters only.
        const same = contentType.startsWith('multipart/')
          ? stored.fingerprint.split(' ').slice(0, 3).join(' ') === fingerprint.split(' ').slice(0, 3).join(' ')
          : stored.fingerprint === fingerprint
        if (!same) {
          answer(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          })
          return
        }
        answer(stored.status, stored.body)
        return
      }
      let status = 200
      let payload: unknown
      let raw: Buffer | undefined
      try {
        const result = route(method, target.pathname, params, account, body, contentType)
        payload = result.body
        raw = result.raw
      } catch (error) {
        if (!(error instanceof StripeFakeError)) throw error
        status = error.status
        payload = error.body
      }
      // Stripe replays 4xx answers too, except 409s and some 5xx; the fake keeps every answer.
      if (scope) idempotency.set(scope, { fingerprint, status, body: payload, at: store.seconds() })
      if (!raw) store.noteShapeProblems(stripeShapeProblems(payload, `${method} ${routeOf(target.pathname)}`))
      answer(status, payload, raw)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  store.url = url

  const fake: StripeFake = {
    url,
    secretKey,
    publishableKey,
    webhookSecret,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_PUBLISHABLE_KEY: publishableKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: url,
    },
    requests,
    events,
    shapeProblems: () => [...store.shapeProblems],
    setWebhookTarget: (next) => {
      store.target = next
    },
    pauseDeliveries: (value) => {
      store.paused = value
    },
    confirm: async (intentId, clientSecret, method) => {
      const body = new URLSearchParams({ client_secret: clientSecret })
      if (method.paymentMethod) body.set('payment_method', method.paymentMethod)
      if (method.iban) {
        body.set('payment_method_data[type]', 'sepa_debit')
        body.set('payment_method_data[sepa_debit][iban]', method.iban)
      }
      if (method.returnUrl) body.set('return_url', method.returnUrl)
      const response = await fetch(`${url}/v1/payment_intents/${intentId}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      return (await response.json()) as Json
    },
    completeRedirect: payments.completeRedirect,
    completeIdentity: identity.completeIdentity,
    payOut: transfers.payOut,
    payoutsArrive: transfers.payoutsArrive,
    debitBalance: transfers.debitBalance,
    openDispute: disputes.openDispute,
    decideDispute: disputes.decideDispute,
    requireMore: (accountId, requirements) => connect.setExtraRequirements(accountId, requirements),
    completeOnboarding: (accountId) => connect.setExtraRequirements(accountId, []),
    rejectDocuments: (code) => {
      store.documentRejection = code
    },
    failNext: (method, path, skip = 0) => {
      pendingFailures.push({ request: `${method} ${path}`, skip })
    },
    signedDelivery: store.signedDelivery,
    settle: store.settle,
    close: async () => {
      await fake.settle()
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
      const problems = fake.shapeProblems()
      if (problems.length > 0) {
        throw new Error(`The Stripe fake answered unlike Stripe's published shapes (testing/stripe-schema.ts):\n${problems.join('\n')}`)
      }
    },
  }
  return fake
}
