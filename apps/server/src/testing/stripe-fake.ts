import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import {
  type FormObject,
  invalidRequest,
  list,
  listPage,
  missing,
  parseForm,
  parseMultipart,
  record,
  StripeFakeError,
  text,
} from './stripe-fake-wire.ts'

/** What the app's webhook route answers, through `inject` or over HTTP. */
export type StripeWebhookTarget = (request: { headers: Record<string, string>; payload: string }) => Promise<number>

type Json = Record<string, unknown>

export interface StripeFakeOptions {
  /** The clock events are stamped and signed with (the app's test clock); the real one by default. */
  now?: () => Date
  /** Where the platform's own Stripe account is (`GET /v1/account`), upper case; GB by default. */
  platformCountry?: string
}

/**
 * Stripe's regions for cross-border payouts: a platform in one of them pays
 * accounts in another only under the recipient service agreement.
 */
const eea = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '))
const payoutRegion = (country: string) => (eea.has(country) ? 'EEA' : country)

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
  /** The document checks that follow will reject with this code (e.g. `document_not_readable`), until cleared with null. */
  rejectDocuments(code: string | null): void
  /** The next request to this method and path answers 500 (`api_error`) and changes nothing: Stripe out for a moment. */
  failNext(method: string, path: string): void
  /** The signed delivery Stripe would make of an event, with the account's secret unless a test forges one, at `timestamp` seconds. */
  signedDelivery(event: Json, options?: { secret?: string; timestamp?: number }): { headers: Record<string, string>; payload: string }
  /** Lets time pass: every outcome Stripe gives later (debits, refunds, checks) and every delivery happens, in order. */
  settle(): Promise<void>
  close(): Promise<void>
}

const apiVersion = '2026-10-28.endive'

/** The parameters each write takes, as Stripe refuses any other (`parameter_unknown`): a typo in the adapter fails its tests. */
const allowedParams: Record<string, string[]> = {
  'POST payment_intents': ['amount', 'currency', 'allowed_payment_method_types', 'transfer_group', 'metadata', 'description', 'expand'],
  'POST payment_intents/:id/confirm': ['client_secret', 'payment_method', 'payment_method_data', 'return_url', 'mandate_data', 'expand'],
  'POST payment_intents/:id/cancel': ['cancellation_reason', 'expand'],
  'POST refunds': ['payment_intent', 'amount', 'metadata', 'reason', 'expand'],
  'POST transfers': ['amount', 'currency', 'destination', 'source_transaction', 'transfer_group', 'metadata', 'description', 'expand'],
  'POST accounts': ['country', 'email', 'business_type', 'capabilities', 'controller', 'metadata', 'tos_acceptance', 'expand'],
  'POST accounts/:id': ['individual', 'business_profile', 'metadata', 'tos_acceptance', 'expand'],
  'POST account_links': ['account', 'type', 'collection_options', 'return_url', 'refresh_url', 'expand'],
  'POST accounts/:id/external_accounts': ['external_account', 'default_for_currency', 'metadata', 'expand'],
  'POST identity/:id': ['type', 'return_url', 'metadata', 'options', 'expand'],
  'POST account_sessions': ['account', 'components', 'expand'],
}

/**
 * A stateful stand-in for Stripe's API, for the Stripe adapter's tests
 * (the SDK pointed at it with STRIPE_API_URL). Like Stripe it checks the
 * secret key (401), keeps objects per connected account (`Stripe-Account`),
 * honours `Idempotency-Key` (the same key and parameters answer the first
 * answer again; other parameters answer 400 `idempotency_error`), takes
 * form-encoded bodies and multipart uploads, settles SEPA debits and
 * refunds later, declines Stripe's test payment methods, and tells every
 * change as an event: listed by `GET /v1/events` and delivered to the
 * webhook target signed with the SDK's `generateTestHeaderString`.
 */
export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const now = options.now ?? (() => new Date())
  const platformCountry = options.platformCountry ?? 'GB'
  const seconds = () => Math.floor(now().getTime() / 1000)
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`
  const publishableKey = `pk_test_${randomBytes(12).toString('hex')}`
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`
  const signer = new Stripe(secretKey)
  const requests: RecordedStripeRequest[] = []
  const pendingFailures: string[] = []
  const events: Json[] = []
  const intents = new Map<string, Json>()
  const charges = new Map<string, Json>()
  const refunds = new Map<string, Json>()
  const accounts = new Map<string, Json>()
  const transfers = new Map<string, Json>()
  const payouts = new Map<string, Json>()
  const files = new Map<string, { object: Json; data: Buffer; account: string | undefined }>()
  const sessions = new Map<string, Json>()
  const reports = new Map<string, Json>()
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>()
  const pending = new Set<Promise<unknown>>()
  const queue: Array<() => void> = []
  let target: StripeWebhookTarget | undefined
  let paused = false
  let documentRejection: string | null = null
  let counter = 0
  let url = ''

  const newId = (prefix: string) => `${prefix}_${(++counter).toString(36).padStart(6, '0')}${randomBytes(6).toString('hex')}`
  /** What Stripe does later (a debit settling, a refund, a check, a delivery): waits until the test lets time pass (`settle`). */
  const later = (work: () => void) => {
    queue.push(work)
  }

  function signedDelivery(event: Json, signing: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event)
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: signing.secret ?? webhookSecret, timestamp: signing.timestamp ?? seconds() })
    return { payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' } }
  }

  /** Stripe retries a failed delivery with backoff; the fake tries three times. */
  function deliver(event: Json, attempt = 1): void {
    if (!target || paused) return
    const send = target
    const done = (async () => {
      const status = await send(signedDelivery(event)).catch(() => 0)
      if ((status < 200 || status >= 300) && attempt < 3) later(() => deliver(event, attempt + 1))
    })()
    pending.add(done)
    void done.finally(() => pending.delete(done))
  }

  function emit(type: string, object: Json, account?: string): void {
    const event: Json = {
      id: newId('evt'),
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
    events.unshift(event)
    later(() => deliver(event))
  }

  // Payment intents ------------------------------------------------------

  function intentView(intent: Json, expand: string[]): Json {
    const chargeId = intent.latest_charge as string | null
    return { ...intent, latest_charge: expand.includes('latest_charge') && chargeId ? charges.get(chargeId) : chargeId }
  }

  function succeed(intent: Json): void {
    const charge: Json = {
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      paid: true,
      refunded: false,
      status: 'succeeded',
      payment_intent: intent.id,
      transfer_group: intent.transfer_group,
      metadata: intent.metadata,
      created: seconds(),
    }
    charges.set(charge.id as string, charge)
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: charge.id, last_payment_error: null, next_action: null })
    emit('charge.succeeded', charge)
    emit('payment_intent.succeeded', intent)
  }

  function fail(intent: Json, error: { code: string; decline_code?: string; message: string }): void {
    Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { type: 'card_error', ...error }, next_action: null })
    emit('payment_intent.payment_failed', intent)
  }

  const cardDeclines: Record<string, { code: string; decline_code?: string; message: string }> = {
    pm_card_chargeDeclined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
    pm_card_chargeDeclinedInsufficientFunds: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.' },
  }

  function confirmIntent(intent: Json, params: FormObject): Json {
    const method = (intent.payment_method_types as string[])[0]
    const status = intent.status as string
    if (status !== 'requires_payment_method' && status !== 'requires_confirmation') {
      throw invalidRequest(`This PaymentIntent's status is ${status}, so it cannot be confirmed.`, { code: 'payment_intent_unexpected_state' })
    }
    if (method === 'card') {
      const paymentMethod = text(params.payment_method)
      if (!paymentMethod) throw invalidRequest('A payment method is required.', { code: 'parameter_missing', param: 'payment_method' })
      const decline = cardDeclines[paymentMethod]
      if (decline) fail(intent, decline)
      else if (paymentMethod === 'pm_card_visa' || paymentMethod === 'pm_card_mastercard') succeed(intent)
      else throw invalidRequest(`No such PaymentMethod: '${paymentMethod}'`, { code: 'resource_missing', param: 'payment_method' })
    } else if (method === 'sepa_debit') {
      const iban = text(record(record(params.payment_method_data).sepa_debit).iban)?.replaceAll(' ', '')
      if (!iban) throw invalidRequest('An IBAN is required.', { code: 'parameter_missing', param: 'payment_method_data[sepa_debit][iban]' })
      Object.assign(intent, { status: 'processing', last_payment_error: null })
      emit('payment_intent.processing', intent)
      // Stripe's test IBAN ending 3001 fails after processing; the others succeed.
      later(() => {
        if (intent.status !== 'processing') return
        if (iban.endsWith('3001')) fail(intent, { code: 'payment_intent_payment_attempt_failed', decline_code: 'insufficient_funds', message: 'The debit was returned.' })
        else succeed(intent)
      })
    } else {
      const returnUrl = text(params.return_url)
      if (!returnUrl) throw invalidRequest('A return_url is required for p24.', { code: 'parameter_missing', param: 'return_url' })
      Object.assign(intent, {
        status: 'requires_action',
        last_payment_error: null,
        next_action: { type: 'redirect_to_url', redirect_to_url: { url: `${url}/p24/authorize/${intent.id as string}`, return_url: returnUrl } },
      })
      emit('payment_intent.requires_action', intent)
    }
    return intent
  }

  // Connect --------------------------------------------------------------

  const accountOf = (id: string, param = 'account') => {
    const account = accounts.get(id)
    if (!account) throw missing('account', id, param)
    return account
  }

  /** What Stripe still asks of the account, and whether it pays out, after any change. */
  function refreshRequirements(account: Json): void {
    const individual = record(account.individual as FormObject)
    const verification = individual.verification as unknown as Json
    const document = verification.document as Json
    const due: string[] = profileRequirements(account)
    if (!document.front || document.details_code) due.push('individual.verification.document')
    if (account.country === 'US' && !individual.ssn_last_4_provided && !individual.id_number_provided) due.push('individual.ssn_last_4')
    const banks = (account.external_accounts as Json).data as Json[]
    if (banks.length === 0) due.push('external_account')
    account.requirements = { currently_due: due, past_due: [], eventually_due: due }
    account.payouts_enabled = due.length === 0 && verification.status === 'verified'
    emit('account.updated', account, account.id as string)
  }

  /** What Stripe asks of an individual before payouts: who they are, where they live, what they sell, the terms, and whatever else it asked (`requireMore`). */
  function profileRequirements(account: Json): string[] {
    const individual = account.individual as Json
    const address = record(individual.address as FormObject)
    const dob = record(individual.dob as FormObject)
    const business = record(account.business_profile as FormObject)
    const tos = record(account.tos_acceptance as FormObject)
    const due: string[] = []
    if (!individual.first_name) due.push('individual.first_name')
    if (!individual.last_name) due.push('individual.last_name')
    for (const part of ['day', 'month', 'year']) if (!dob[part]) due.push(`individual.dob.${part}`)
    for (const part of ['line1', 'city', 'postal_code']) if (!address[part]) due.push(`individual.address.${part}`)
    if (!business.mcc) due.push('business_profile.mcc')
    if (!business.url && !business.product_description) due.push('business_profile.url')
    if (!tos.date) due.push('tos_acceptance.date')
    if (!tos.ip) due.push('tos_acceptance.ip')
    return [...due, ...((account.extra_requirements as string[] | undefined) ?? [])]
  }

  /** Stripe's checks of what it is given: a real date of birth, a US ZIP code, a web page's address. */
  function checkProfile(account: Json, individual: FormObject, business: FormObject): void {
    const dob = record(individual.dob)
    if (Object.keys(dob).length > 0) {
      const [day, month, year] = [Number(text(dob.day)), Number(text(dob.month)), Number(text(dob.year))]
      if (!(day >= 1 && day <= 31 && month >= 1 && month <= 12 && year >= 1900)) throw invalidRequest('Invalid date of birth.', { param: 'individual[dob][day]' })
    }
    const postalCode = text(record(individual.address).postal_code)
    if (postalCode && account.country === 'US' && !/^\d{5}(-\d{4})?$/.test(postalCode)) {
      throw invalidRequest('Invalid US postal code', { code: 'postal_code_invalid', param: 'individual[address][postal_code]' })
    }
    const site = text(business.url)
    if (site && !/^https?:\/\/[^\s/]+\.[^\s]+$/.test(site)) throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: 'business_profile[url]' })
  }

  function updateAccount(account: Json, params: FormObject): void {
    const individual = record(params.individual)
    const business = record(params.business_profile)
    checkProfile(account, individual, business)
    const stored = account.individual as Json
    for (const field of ['first_name', 'last_name', 'email', 'phone'] as const) if (text(individual[field]) !== undefined) stored[field] = text(individual[field])
    for (const field of ['dob', 'address'] as const) if (individual[field] !== undefined) stored[field] = record(individual[field])
    if (params.business_profile !== undefined) account.business_profile = { ...record(account.business_profile as FormObject), ...business }
    if (params.tos_acceptance !== undefined) {
      const tos = record(params.tos_acceptance)
      const agreement = (account.tos_acceptance as Json | undefined)?.service_agreement ?? 'full'
      if (text(tos.service_agreement) !== undefined && text(tos.service_agreement) !== agreement) {
        throw invalidRequest('The service agreement cannot be changed once accepted.', { param: 'tos_acceptance[service_agreement]' })
      }
      account.tos_acceptance = { service_agreement: agreement, date: Number(text(tos.date)), ip: text(tos.ip) ?? null, user_agent: text(tos.user_agent) ?? null }
    }
    const verification = stored.verification as Json
    for (const field of ['document', 'additional_document'] as const) {
      const given = record(record(individual.verification)[field])
      for (const side of ['front', 'back'] as const) {
        const fileId = text(given[side])
        if (!fileId) continue
        const file = files.get(fileId)
        if (!file || file.account !== account.id) throw invalidRequest(`No such file upload: '${fileId}'`, { param: `individual[verification][${field}][${side}]` })
        Object.assign(verification[field] as Json, { [side]: fileId, details_code: null, details: null })
        verification.status = 'pending'
        const rejection = documentRejection
        later(() => {
          if ((verification[field] as Json)[side] !== fileId) return
          if (rejection) Object.assign(verification[field] as Json, { details_code: rejection, details: 'The document could not be read.' })
          verification.status = rejection ? 'unverified' : 'verified'
          refreshRequirements(account)
        })
      }
    }
    // Stripe merges metadata keys; an empty value removes one.
    for (const [name, value] of Object.entries(record(params.metadata))) {
      const metadata = account.metadata as Record<string, unknown>
      if (value === '') delete metadata[name]
      else metadata[name] = value
    }
    if (text(individual.ssn_last_4)) stored.ssn_last_4_provided = true
    if (text(individual.id_number)) stored.id_number_provided = true
    refreshRequirements(account)
  }

  function addBankAccount(account: Json, params: FormObject): Json {
    const given = params.external_account
    const bank: Json = { id: newId('ba'), object: 'bank_account', account: account.id, status: 'new', default_for_currency: false }
    if (typeof given === 'string') {
      if (!given.startsWith('btok_')) throw invalidRequest(`No such token: '${given}'`, { code: 'resource_missing', param: 'external_account' })
      Object.assign(bank, { country: 'US', currency: 'usd', last4: /\d{4}$/.test(given) ? given.slice(-4) : '6789' })
    } else {
      const fields = record(given)
      const number = text(fields.account_number)
      if (text(fields.object) !== 'bank_account' || !number || !text(fields.country) || !text(fields.currency)) {
        throw invalidRequest('Missing required param: external_account[account_number].', { code: 'parameter_missing', param: 'external_account' })
      }
      // As Stripe: an account number that is not an IBAN needs its bank's code (routing number, sort code, BSB, …).
      if (!/^[A-Z]{2}\d{2}/.test(number) && !text(fields.routing_number)) {
        throw invalidRequest('Missing required param: external_account[routing_number].', { code: 'parameter_missing', param: 'external_account[routing_number]' })
      }
      Object.assign(bank, { country: fields.country, currency: text(fields.currency)?.toLowerCase(), last4: number.slice(-4), ...(text(fields.routing_number) ? { routing_number: text(fields.routing_number) } : {}) })
    }
    const banks = (account.external_accounts as Json).data as Json[]
    if (params.default_for_currency === 'true' || !banks.some((other) => other.currency === bank.currency)) {
      for (const other of banks) if (other.currency === bank.currency) other.default_for_currency = false
      bank.default_for_currency = true
    }
    banks.unshift(bank)
    refreshRequirements(account)
    return bank
  }

  function balanceOf(accountId: string): Json {
    const totals = new Map<string, number>()
    for (const transfer of transfers.values()) {
      if (transfer.destination === accountId) totals.set(transfer.currency as string, (totals.get(transfer.currency as string) ?? 0) + (transfer.amount as number))
    }
    for (const payout of payouts.values()) {
      if (payout.account === accountId && payout.status !== 'failed') totals.set(payout.currency as string, (totals.get(payout.currency as string) ?? 0) - (payout.amount as number))
    }
    return { object: 'balance', available: [...totals].map(([currency, amount]) => ({ amount, currency })), pending: [], livemode: false }
  }

  function createTransfer(params: FormObject): Json {
    const amount = Number(params.amount)
    const currency = text(params.currency)
    const destination = text(params.destination) ?? ''
    if (!Number.isSafeInteger(amount) || amount <= 0 || !currency) throw invalidRequest('Invalid amount or currency.', { param: 'amount' })
    accountOf(destination, 'destination')
    const sourceId = text(params.source_transaction)
    if (sourceId) {
      const charge = charges.get(sourceId)
      if (!charge || charge.status !== 'succeeded') throw missing('charge', sourceId, 'source_transaction')
      const transferred = [...transfers.values()].filter((transfer) => transfer.source_transaction === sourceId).reduce((sum, transfer) => sum + (transfer.amount as number), 0)
      if (amount > (charge.amount as number) - (charge.amount_refunded as number) - transferred) {
        throw invalidRequest('The transfer amount exceeds what is left of the source transaction.', { code: 'charge_exceeds_source_limit', param: 'amount' })
      }
      if (charge.currency !== currency) throw invalidRequest('The currency must be the source transaction’s.', { param: 'currency' })
    }
    const transfer: Json = {
      id: newId('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      currency,
      destination,
      source_transaction: sourceId ?? null,
      transfer_group: text(params.transfer_group) ?? null,
      metadata: record(params.metadata),
      created: seconds(),
    }
    transfers.set(transfer.id as string, transfer)
    emit('transfer.created', transfer)
    return transfer
  }

  function createRefund(params: FormObject): Json {
    const intentId = text(params.payment_intent) ?? ''
    const intent = intents.get(intentId)
    if (!intent) throw missing('payment_intent', intentId, 'payment_intent')
    if (intent.status !== 'succeeded') {
      throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, { code: 'payment_intent_unexpected_state' })
    }
    const charge = charges.get(intent.latest_charge as string) as Json
    const left = (charge.amount as number) - (charge.amount_refunded as number)
    const amount = params.amount === undefined ? left : Number(params.amount)
    if (!Number.isSafeInteger(amount) || amount <= 0) throw invalidRequest('Invalid positive integer', { param: 'amount' })
    if (amount > left) throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, { code: 'amount_too_large', param: 'amount' })
    // Reserved at once, as Stripe does: two refunds cannot together exceed the charge.
    charge.amount_refunded = (charge.amount_refunded as number) + amount
    const refund: Json = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intentId,
      status: 'pending',
      failure_reason: null,
      metadata: record(params.metadata),
      created: seconds(),
    }
    refunds.set(refund.id as string, refund)
    emit('refund.created', refund)
    later(() => {
      refund.status = 'succeeded'
      emit('refund.updated', refund)
    })
    return refund
  }

  // Routing --------------------------------------------------------------

  function authorised(headers: IncomingHttpHeaders, method: string, path: string, params: FormObject): boolean {
    const bearer = headers.authorization
    if (bearer === `Bearer ${secretKey}`) return true
    // Stripe.js confirms with the publishable key and the intent's client secret.
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path)
    return method === 'POST' && bearer === `Bearer ${publishableKey}` && !!confirm && intents.get(confirm[1] as string)?.client_secret === params.client_secret
  }

  function route(method: string, path: string, params: FormObject, account: string | undefined, body: Buffer, contentType: string): { status?: number; body: unknown; raw?: Buffer } {
    const expand = list(params.expand)
    const segments = path.split('/').filter(Boolean).slice(1)
    const [resource, id, action, subId] = segments
    if (account) accountOf(account)
    const routeKey = `${method} ${resource}${id ? '/:id' : ''}${action && resource !== 'identity' ? `/${action}` : ''}${subId ? '/:sub' : ''}`
    const allowed = allowedParams[routeKey]
    const unknown = allowed ? Object.keys(params).filter((name) => !allowed.includes(name)) : []
    if (unknown.length > 0) throw invalidRequest(`Received unknown parameter: ${unknown[0] as string}`, { code: 'parameter_unknown', param: unknown[0] as string })
    if (resource === 'identity') return identityRoute(method, id ?? '', action, params, expand)
    switch (routeKey) {
      case 'POST payment_intents': {
        const amount = Number(params.amount)
        const currency = text(params.currency)?.toLowerCase()
        const types = list(params.allowed_payment_method_types)
        if (!Number.isSafeInteger(amount) || amount < 50) throw invalidRequest('Amount must be at least €0.50 eur', { code: 'amount_too_small', param: 'amount' })
        if (!currency) throw invalidRequest('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' })
        if (types.length !== 1 || !['card', 'sepa_debit', 'p24'].includes(types[0] as string)) throw invalidRequest('Invalid payment method types', { param: 'allowed_payment_method_types' })
        if (types[0] === 'sepa_debit' && currency !== 'eur') throw invalidRequest('sepa_debit takes eur only', { param: 'currency' })
        if (types[0] === 'p24' && !['eur', 'pln'].includes(currency)) throw invalidRequest('p24 takes eur and pln only', { param: 'currency' })
        const intentId = newId('pi')
        const intent: Json = {
          id: intentId,
          object: 'payment_intent',
          amount,
          amount_received: 0,
          currency,
          status: 'requires_payment_method',
          payment_method_types: types,
          transfer_group: text(params.transfer_group) ?? null,
          metadata: record(params.metadata),
          client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
          last_payment_error: null,
          next_action: null,
          latest_charge: null,
          created: seconds(),
        }
        intents.set(intentId, intent)
        emit('payment_intent.created', intent)
        return { body: intentView(intent, expand) }
      }
      case 'GET payment_intents/:id': {
        const intent = intents.get(id as string)
        if (!intent) throw missing('payment_intent', id as string)
        return { body: intentView(intent, expand) }
      }
      case 'POST payment_intents/:id/confirm': {
        const intent = intents.get(id as string)
        if (!intent) throw missing('payment_intent', id as string)
        return { body: intentView(confirmIntent(intent, params), expand) }
      }
      case 'POST payment_intents/:id/cancel': {
        const intent = intents.get(id as string)
        if (!intent) throw missing('payment_intent', id as string)
        if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status as string)) {
          throw invalidRequest(`You cannot cancel this PaymentIntent because it has a status of ${intent.status as string}.`, { code: 'payment_intent_unexpected_state' })
        }
        Object.assign(intent, { status: 'canceled', next_action: null })
        emit('payment_intent.canceled', intent)
        return { body: intentView(intent, expand) }
      }
      case 'GET charges': {
        const group = text(params.transfer_group)
        const found = [...charges.values()].filter((charge) => !group || charge.transfer_group === group).reverse()
        return { body: listPage(found, params, '/v1/charges') }
      }
      case 'POST refunds':
        return { body: createRefund(params) }
      case 'GET account':
        return { body: { id: 'acct_platform', object: 'account', country: platformCountry, type: 'standard' } }
      case 'POST accounts': {
        const country = text(params.country)
        if (!country || !/^[A-Z]{2}$/.test(country)) throw invalidRequest('Country is required.', { param: 'country' })
        const agreement = text(record(params.tos_acceptance).service_agreement) ?? 'full'
        if (agreement !== 'full' && agreement !== 'recipient') throw invalidRequest('Invalid service agreement.', { param: 'tos_acceptance[service_agreement]' })
        // Cross-border payouts work only under the recipient agreement, and it cannot take payments.
        if (agreement === 'full' && payoutRegion(country) !== payoutRegion(platformCountry)) {
          throw invalidRequest(`Connected accounts in ${country} need the recipient service agreement on a platform in ${platformCountry}.`, { param: 'tos_acceptance[service_agreement]' })
        }
        if (agreement === 'recipient' && record(record(params.capabilities).card_payments).requested === 'true') {
          throw invalidRequest('Accounts under the recipient service agreement cannot request card_payments.', { param: 'capabilities[card_payments]' })
        }
        const accountId = newId('acct')
        const created: Json = {
          id: accountId,
          object: 'account',
          country,
          email: text(params.email) ?? null,
          business_type: text(params.business_type) ?? null,
          metadata: record(params.metadata),
          controller: record(params.controller),
          tos_acceptance: { service_agreement: agreement },
          payouts_enabled: false,
          individual: { verification: { status: 'unverified', document: { front: null, back: null, details_code: null }, additional_document: { front: null, back: null, details_code: null } } },
          external_accounts: { object: 'list', data: [], has_more: false, url: `/v1/accounts/${accountId}/external_accounts` },
          created: seconds(),
        }
        accounts.set(accountId, created)
        refreshRequirements(created)
        return { body: created }
      }
      case 'GET accounts/:id':
        return { body: accountOf(id as string, 'id') }
      case 'POST accounts/:id': {
        const found = accountOf(id as string, 'id')
        updateAccount(found, params)
        return { body: found }
      }
      case 'POST accounts/:id/external_accounts':
        return { body: addBankAccount(accountOf(id as string, 'id'), params) }
      case 'GET accounts/:id/external_accounts': {
        const banks = ((accountOf(id as string, 'id').external_accounts as Json).data as Json[])
        return { body: listPage(banks, params, `/v1/accounts/${id as string}/external_accounts`) }
      }
      case 'DELETE accounts/:id/external_accounts/:sub': {
        const found = accountOf(id as string, 'id')
        const banks = (found.external_accounts as Json).data as Json[]
        const bank = banks.find((candidate) => candidate.id === subId)
        if (!bank) throw missing('external account', subId as string)
        if (bank.default_for_currency) throw invalidRequest('You cannot delete the default bank account for your default currency.', { code: 'bank_account_exists' })
        banks.splice(banks.indexOf(bank), 1)
        return { body: { id: subId, object: 'bank_account', deleted: true } }
      }
      case 'POST transfers':
        return { body: createTransfer(params) }
      case 'GET transfers': {
        const destination = text(params.destination)
        const found = [...transfers.values()].filter((transfer) => !destination || transfer.destination === destination).reverse()
        return { body: listPage(found, params, '/v1/transfers') }
      }
      case 'GET balance':
        if (!account) throw invalidRequest('Pactum reads balances of connected accounts only', { param: 'Stripe-Account' })
        return { body: balanceOf(account) }
      case 'GET payouts': {
        const found = [...payouts.values()]
          .filter((payout) => payout.account === account)
          .reverse()
          .map((payout) => {
            const bank = ((accountOf(payout.account as string).external_accounts as Json).data as Json[]).find((candidate) => candidate.id === payout.destination)
            return expand.includes('data.destination') && bank ? { ...payout, destination: bank } : payout
          })
        return { body: listPage(found, params, '/v1/payouts') }
      }
      case 'POST files': {
        const parts = parseMultipart(body, contentType)
        const purpose = parts.find((part) => part.name === 'purpose')?.data.toString('utf8')
        const file = parts.find((part) => part.name === 'file')
        if (!purpose || !['identity_document', 'additional_verification'].includes(purpose)) throw invalidRequest('Invalid purpose', { param: 'purpose' })
        if (!file || file.data.byteLength === 0) throw invalidRequest('A file is required.', { param: 'file' })
        if (file.data.byteLength > 10_000_000) throw invalidRequest('The file is larger than 10 MB.', { param: 'file' })
        const type = file.contentType === 'application/pdf' ? 'pdf' : file.contentType === 'image/png' ? 'png' : file.contentType === 'image/jpeg' ? 'jpg' : undefined
        if (!type) throw invalidRequest('Identity documents must be pdf, png or jpeg.', { param: 'file' })
        return { body: storeFile(purpose, file.fileName ?? 'upload', type, file.data, account) }
      }
      case 'GET files/:id': {
        const file = files.get(id as string)
        if (!file || file.account !== account) throw missing('file', id as string)
        return { body: file.object }
      }
      case 'GET files/:id/contents': {
        const file = files.get(id as string)
        if (!file || file.account !== account) throw missing('file', id as string)
        return { body: null, raw: file.data }
      }
      case 'POST account_links': {
        const linked = accountOf(text(params.account) ?? '')
        if (text(params.type) !== 'account_onboarding') throw invalidRequest('Pactum links to onboarding only', { param: 'type' })
        for (const name of ['return_url', 'refresh_url']) {
          if (!/^https?:\/\//.test(text(params[name]) ?? '')) throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: name })
        }
        return { body: { object: 'account_link', url: `${url}/setup/e/${linked.id as string}/${randomBytes(8).toString('hex')}`, created: seconds(), expires_at: seconds() + 300 } }
      }
      case 'POST account_sessions': {
        const sessionAccount = text(params.account) ?? ''
        accountOf(sessionAccount)
        const sessionId = newId('accs')
        return { body: { object: 'account_session', account: sessionAccount, client_secret: `${sessionId}_secret_${randomBytes(12).toString('hex')}`, expires_at: seconds() + 3600, components: record(params.components) } }
      }
      case 'GET events': {
        const created = record(params.created)
        const gte = Number(text(created.gte) ?? 0)
        const types = list(params.types)
        const found = events.filter((event) => (event.created as number) >= gte && (types.length === 0 || types.includes(event.type as string)))
        return { body: listPage(found, params, '/v1/events') }
      }
      default:
        throw new StripeFakeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` })
    }
  }

  function storeFile(purpose: string, filename: string, type: string, data: Buffer, account: string | undefined): Json {
    const object: Json = { id: newId('file'), object: 'file', purpose, filename, type, size: data.byteLength, created: seconds() }
    files.set(object.id as string, { object, data, account })
    return object
  }

  function identityRoute(method: string, kind: string, action: string | undefined, params: FormObject, expand: string[]): { body: unknown } {
    if (kind !== 'verification_sessions' && kind !== 'verification_reports') throw new StripeFakeError(404, { type: 'invalid_request_error', message: 'Unrecognized request URL.' })
    if (kind === 'verification_reports') {
      const report = reports.get(action ?? '')
      if (!report) throw missing('verification report', action ?? '')
      return { body: report }
    }
    if (method === 'POST' && !action) {
      if (text(params.type) !== 'document') throw invalidRequest('Pactum asks for document checks', { param: 'type' })
      if (params.return_url !== undefined && !/^https?:\/\//.test(text(params.return_url) ?? '')) throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: 'return_url' })
      const sessionId = newId('vs')
      const session: Json = {
        id: sessionId,
        object: 'identity.verification_session',
        type: 'document',
        status: 'requires_input',
        client_secret: `${sessionId}_secret_${randomBytes(12).toString('hex')}`,
        url: `${url}/identity/${sessionId}`,
        return_url: text(params.return_url) ?? null,
        metadata: record(params.metadata),
        last_error: null,
        last_verification_report: null,
        created: seconds(),
      }
      sessions.set(sessionId, session)
      return { body: session }
    }
    const session = sessions.get(action ?? '')
    if (!session) throw missing('verification session', action ?? '')
    const reportId = session.last_verification_report as string | null
    return { body: expand.includes('last_verification_report') && reportId ? { ...session, last_verification_report: reports.get(reportId) } : session }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const method = req.method ?? 'GET'
      const target = new URL(req.url ?? '/', 'http://fake')
      const contentType = req.headers['content-type'] ?? ''
      const params = method === 'GET' || method === 'DELETE' ? parseForm(target.search.slice(1)) : contentType.startsWith('application/x-www-form-urlencoded') ? parseForm(body.toString('utf8')) : {}
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
      const outage = pendingFailures.indexOf(`${method} ${target.pathname}`)
      if (outage !== -1) {
        pendingFailures.splice(outage, 1)
        answer(500, { error: { type: 'api_error', message: 'An unknown error occurred (the fake’s outage).' } })
        return
      }
      // Stripe keys idempotency per account; the fingerprint covers the request's method, path and parameters (files by their bytes).
      const scope = key && method === 'POST' ? `${account ?? 'platform'}:${key}` : undefined
      const fingerprint = `${method} ${target.pathname} ${JSON.stringify(params)} ${createHash('sha256').update(body).digest('hex')}`
      const stored = scope ? idempotency.get(scope) : undefined
      if (stored) {
        // Multipart boundaries differ between attempts: a file upload is compared by its path and parameters only.
        const same = contentType.startsWith('multipart/') ? stored.fingerprint.split(' ').slice(0, 3).join(' ') === fingerprint.split(' ').slice(0, 3).join(' ') : stored.fingerprint === fingerprint
        if (!same) {
          answer(400, { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` } })
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
      if (scope) idempotency.set(scope, { fingerprint, status, body: payload })
      answer(status, payload, raw)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  url = `http://127.0.0.1:${port}`

  const fake: StripeFake = {
    url,
    secretKey,
    publishableKey,
    webhookSecret,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: url },
    requests,
    events,
    setWebhookTarget: (next) => {
      target = next
    },
    pauseDeliveries: (value) => {
      paused = value
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
    completeRedirect: (intentId, outcome) => {
      const intent = intents.get(intentId)
      if (!intent || intent.status !== 'requires_action') throw new Error(`${intentId} waits for no redirect`)
      if (outcome === 'succeeded') succeed(intent)
      else fail(intent, { code: 'payment_intent_authentication_failure', decline_code: 'p24_declined', message: 'The bank did not authorise the payment.' })
    },
    completeIdentity: (sessionId, outcome) => {
      const session = sessions.get(sessionId)
      if (!session) throw new Error(`no session ${sessionId}`)
      session.status = 'processing'
      later(() => {
        if (outcome === 'failed') {
          Object.assign(session, { status: 'requires_input', last_error: { code: 'document_unverified_other', reason: 'The document could not be verified.' } })
          return
        }
        const file = storeFile('identity_document', 'passport.png', 'png', Buffer.from('identity-session-document'), undefined)
        const report: Json = { id: newId('vr'), object: 'identity.verification_report', document: { status: 'verified', files: [file.id] } }
        reports.set(report.id as string, report)
        Object.assign(session, { status: 'verified', url: null, last_error: null, last_verification_report: report.id })
        emit('identity.verification_session.verified', session)
      })
    },
    payOut: (accountId) => {
      const account = accountOf(accountId)
      const bank = ((account.external_accounts as Json).data as Json[]).find((candidate) => candidate.default_for_currency)
      if (!bank || !account.payouts_enabled) return []
      const made: Json[] = []
      for (const entry of (balanceOf(accountId).available as Array<{ amount: number; currency: string }>)) {
        if (entry.amount <= 0) continue
        const payout: Json = { id: newId('po'), object: 'payout', account: accountId, amount: entry.amount, currency: entry.currency, status: 'in_transit', destination: bank.id, arrival_date: seconds() + 86_400, failure_message: null, created: seconds() }
        payouts.set(payout.id as string, payout)
        emit('payout.created', payout, accountId)
        made.push(payout)
      }
      return made
    },
    requireMore: (accountId, requirements) => {
      const account = accountOf(accountId)
      account.extra_requirements = requirements
      refreshRequirements(account)
    },
    completeOnboarding: (accountId) => {
      const account = accountOf(accountId)
      account.extra_requirements = []
      refreshRequirements(account)
    },
    rejectDocuments: (code) => {
      documentRejection = code
    },
    failNext: (method, path) => {
      pendingFailures.push(`${method} ${path}`)
    },
    signedDelivery,
    settle: async () => {
      // One at a time, in the order they happened (Stripe does not promise an order: the out-of-order test sends its own),
      // until nothing is left: an outcome emits events, whose deliveries may be retried.
      while (queue.length > 0 || pending.size > 0) {
        queue.shift()?.()
        await Promise.allSettled([...pending])
      }
    },
    close: async () => {
      await fake.settle()
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
  return fake
}
