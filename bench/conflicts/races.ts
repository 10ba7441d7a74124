import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../../apps/server/src/db/schema.ts'
import type { Answer, ApiClient, Caller, Phase } from './client.ts'

/*
 * The races of `npm run bench:conflicts`: for each kind, how a sale is
 * brought (through the API, as clients do) to a state where actions
 * conflict, and the requests that then race over its money.
 */

export interface Tokens {
  buyer: string
  seller: string
  admin: string
}

/** A setup step was refused: the race could not start (reported, never counted as a race answer). */
export class SetupError extends Error {}

const card = '4242424242424242'
const sepaSucceeds = 'DE89370400440532013000'
const sepaFails = 'DE35370400440532013002'

/** One sale of the run: its parties, its id once created, and how it calls the API. */
export class Sale {
  id = ''
  /** Requests a race planned but could not send (confirming a payment that was never opened). */
  notSent = 0
  /** When the race's first request went out. */
  raceStartedAt: Date | null = null

  readonly kind: RaceKind
  readonly index: number
  readonly tokens: Tokens
  readonly api: ApiClient
  readonly db: Kysely<Database>

  constructor(kind: RaceKind, index: number, tokens: Tokens, api: ApiClient, db: Kysely<Database>) {
    this.kind = kind
    this.index = index
    this.tokens = tokens
    this.api = api
    this.db = db
  }

  #context(phase: Phase) {
    return { race: this.kind.name, saleId: this.id, phase, tokens: this.tokens }
  }

  /** A setup step that must succeed; answers its body. */
  async step(who: Caller, method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<Record<string, unknown>> {
    const answer = await this.api.call(this.#context('setup'), who, method, path, { ...(body ? { body } : {}), label: `setup ${path.split('?')[0]!.split('/').pop()}` })
    if (answer.status < 200 || answer.status >= 300) {
      throw new SetupError(`${method} ${answer.route} answered ${answer.status || answer.networkError} ${answer.code ?? ''}`)
    }
    return answer.body as Record<string, unknown>
  }

  /** One request of the race. */
  race(who: Caller, method: 'POST', path: string, options: { body?: object; idempotencyKey?: string | undefined; label: string }): Promise<Answer> {
    return this.api.call(this.#context('race'), who, method, path, {
      ...(options.body ? { body: options.body } : {}),
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      label: options.label,
    })
  }

  /** Waits (during setup) until the transaction reaches one of `statuses`. */
  async waitFor(statuses: string[], seconds = 30): Promise<Record<string, unknown>> {
    const until = Date.now() + seconds * 1000
    for (;;) {
      const body = await this.step('buyer', 'GET', `/api/v1/transactions/${this.id}`)
      if (statuses.includes(body.status as string)) return body
      if (Date.now() > until) throw new SetupError(`waited ${seconds} s for ${statuses.join('/')}, still ${String(body.status)}`)
      await sleep(250)
    }
  }
}

/** A request of the race, or a chain of them (a payment: open, confirm at the provider, report). */
interface Lane {
  calls: number
  run(): Promise<unknown>
}

export interface RaceKind {
  name: string
  /** What races, for the printed line. */
  summary: string
  type: 'online' | 'f2f'
  /** Where a sale of this kind may end up once every job has run. */
  ends: readonly string[]
  /** Brings a new sale to the start of the race. */
  setup(sale: Sale): Promise<Prepared>
  lanes(sale: Sale, requests: number, prepared: Prepared): Lane[]
}

/** What a race needs from its setup. */
export interface Prepared {
  /** The complaint deadline, for races fired at it (together with the window's timer). */
  deadline?: Date
  /** A payment opened before the race. */
  intent?: Intent
  /** Totals the seller had quoted before the race (set_price bodies). */
  totals?: object[]
}

interface Intent {
  id: string
  secret: string
}

/** A single request that the race repeats, with its share of the mix. */
interface Single {
  who: Caller
  path: string
  query?: string
  body?: object
  label: string
  weight: number
}

/**
 * Fills the race up to `total` requests with the singles, in proportion to
 * their weights. Of every three of one kind, one goes without an
 * Idempotency-Key, one with a key it shares with the others of its kind
 * (a client's retry: the same body, a replay or "in progress"), one with a
 * key of its own.
 */
function fill(sale: Sale, total: number, singles: Single[]): Lane[] {
  const deck = singles.flatMap((single) => Array.from({ length: single.weight }, () => single))
  const counts = new Map<string, number>()
  const lanes: Lane[] = []
  for (let index = 0; lanes.length < total; index++) {
    const single = deck[index % deck.length]!
    const occurrence = counts.get(single.label) ?? 0
    counts.set(single.label, occurrence + 1)
    const key = occurrence % 3 === 0 ? undefined : occurrence % 3 === 1 ? `${sale.id}-${single.label.replace(/[^A-Za-z0-9]+/g, '-')}` : randomUUID()
    const path = `${single.path}${single.query ?? ''}`
    lanes.push({
      calls: 1,
      run: () => sale.race(single.who, 'POST', path, { ...(single.body ? { body: single.body } : {}), idempotencyKey: key, label: single.label }),
    })
  }
  return lanes
}

type PaymentSource = { card_number: string } | { iban: string }

/**
 * The buyer's payment as a browser makes it: open it (unless it was opened
 * before the race), confirm it at the provider, then report it `confirms`
 * times while the provider's webhook for it is delivered `webhooks` times
 * more (redeliveries of the sandbox's own newest event for it). A SEPA
 * debit settles a second later: its reports and redeliveries are spread
 * over that second and a little beyond (a page reloaded, a retry), so that
 * they race the settlement too.
 */
function paymentLane(
  sale: Sale,
  options: { payPath: string; confirmPath: string; intent: Intent | undefined; source: PaymentSource; confirms: number; webhooks: number },
): Lane {
  const calls = (options.intent ? 0 : 1) + 1 + options.confirms + options.webhooks
  const spreadMs = 'iban' in options.source ? 2500 : 0
  const later = async (index: number, of: number) => {
    if (spreadMs > 0) await sleep((spreadMs * (index + 1)) / (of + 1))
  }
  return {
    calls,
    run: async () => {
      let intent = options.intent
      if (!intent) {
        const opened = await sale.race('buyer', 'POST', options.payPath, { label: 'buyer opens the payment' })
        const body = opened.body as { payment_intent_id?: string; client_secret?: string } | undefined
        if (opened.status !== 200 || !body?.payment_intent_id || !body.client_secret) {
          sale.notSent += calls - 1
          return
        }
        intent = { id: body.payment_intent_id, secret: body.client_secret }
      }
      const paidAtProvider = await sale.api.call(
        { race: sale.kind.name, saleId: sale.id, phase: 'race', tokens: sale.tokens },
        null,
        'POST',
        `/sandbox/v1/payment_intents/${intent.id}/confirm`,
        { body: { client_secret: intent.secret, ...options.source }, label: 'browser confirms at the provider' },
      )
      if (paidAtProvider.status !== 200) {
        sale.notSent += options.confirms + options.webhooks
        return
      }
      const paymentIntentId = intent.id
      await Promise.all([
        ...Array.from({ length: options.confirms }, async (_, index) => {
          await later(index, options.confirms)
          await sale.race('buyer', 'POST', options.confirmPath, {
            body: { payment_intent_id: paymentIntentId },
            idempotencyKey: index % 3 === 1 ? `${sale.id}-confirm` : index % 3 === 2 ? randomUUID() : undefined,
            label: 'buyer confirm_payment',
          })
        }),
        ...Array.from({ length: options.webhooks }, async (_, index) => {
          await later(index, options.webhooks)
          const event = await latestIntentEvent(sale.db, paymentIntentId)
          if (!event) {
            sale.notSent += 1
            return
          }
          await sale.api.redeliverWebhook({ race: sale.kind.name, saleId: sale.id, phase: 'race' }, event, `webhook ${String(event.type)} redelivered`)
        }),
      ])
    },
  }
}

/** The newest event the sandbox emitted about the payment (succeeded, processing or failed). */
async function latestIntentEvent(db: Kysely<Database>, paymentIntentId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await db
    .selectFrom('sandbox_webhook_deliveries')
    .select(['payload', 'type'])
    .where('type', 'like', 'payment_intent.%')
    .where('type', '<>', 'payment_intent.created')
    .orderBy('created_at', 'desc')
    .execute()
  const row = rows.find((candidate) => (candidate.payload as { data: { object: { id: string } } }).data.object.id === paymentIntentId)
  return row?.payload as Record<string, unknown> | undefined
}

/** Card, SEPA that goes through, or SEPA the bank refuses, in turn. */
function methodFor(index: number): { method: 'card' | 'sepa'; source: PaymentSource } {
  switch (index % 3) {
    case 0:
      return { method: 'card', source: { card_number: card } }
    case 1:
      return { method: 'sepa', source: { iban: sepaSucceeds } }
    default:
      return { method: 'sepa', source: { iban: sepaFails } }
  }
}

/** The buyer changes their mind about the method while paying. */
function otherMethod(sale: Sale): 'card' | 'sepa' {
  return methodFor(sale.index).method === 'card' ? 'sepa' : 'card'
}

// ---------------------------------------------------------------------------
// Online sales

const online = (id: string, action = '') => `/api/v1/transactions/${id}${action ? `/${action}` : ''}`

async function createOnline(sale: Sale, method: 'card' | 'sepa' = 'card'): Promise<void> {
  const quote = await sale.step('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=card')
  const created = await sale.step('seller', 'POST', '/api/v1/me/transactions', {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: `Bench bicycle ${sale.index}`,
    payment_method: 'card',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  })
  sale.id = created.id as string
  await sale.step('buyer', 'PUT', `/api/v1/transactions?join_code=${String(created.join_code)}`)
  if (method === 'sepa') await sale.step('buyer', 'POST', online(sale.id, 'set_payment_method'), { payment_method: 'sepa' })
}

async function openOnline(sale: Sale): Promise<Intent> {
  const opened = await sale.step('buyer', 'POST', online(sale.id, 'pay'))
  return { id: opened.payment_intent_id as string, secret: opened.client_secret as string }
}

async function paidOnline(sale: Sale): Promise<void> {
  await createOnline(sale)
  const intent = await openOnline(sale)
  await sale.step(null, 'POST', `/sandbox/v1/payment_intents/${intent.id}/confirm`, { client_secret: intent.secret, card_number: card })
  const paid = await sale.step('buyer', 'POST', online(sale.id, 'confirm_payment'), { payment_intent_id: intent.id })
  if (paid.status !== 'paid') throw new SetupError(`confirm_payment left the sale ${String(paid.status)}`)
}

async function deliveredOnline(sale: Sale): Promise<Date> {
  await paidOnline(sale)
  await sale.step('seller', 'POST', online(sale.id, 'track'), { carrier: 'dhl', tracking_code: `BENCH${sale.id.replaceAll('-', '').slice(-16).toUpperCase()}` })
  await sale.step('buyer', 'POST', online(sale.id, 'confirm_delivery'))
  const delivered = await sale.waitFor(['delivered'])
  return new Date(delivered.complaint_period_deadline as string)
}

const admin = (id: string, action: string) => `/api/v1/admin/transactions/${id}/${action}`

const onlineJoined: RaceKind = {
  name: 'online joined',
  summary: 'pay + confirm_payment ×3 + webhook ×2 vs cancel by either party vs a change of method',
  type: 'online',
  ends: ['paid', 'cancelled', 'joined', 'payment_refunded'],
  async setup(sale) {
    await createOnline(sale, methodFor(sale.index).method)
    // Half the races open the payment themselves, half find it open.
    return sale.index % 2 === 0 ? { intent: await openOnline(sale) } : {}
  },
  lanes(sale, requests, { intent }) {
    const payment = paymentLane(sale, { payPath: online(sale.id, 'pay'), confirmPath: online(sale.id, 'confirm_payment'), intent, source: methodFor(sale.index).source, confirms: 3, webhooks: 2 })
    return [
      payment,
      ...fill(sale, requests - payment.calls, [
        { who: 'seller', path: online(sale.id, 'cancel'), label: 'seller cancel', weight: 2 },
        { who: 'buyer', path: online(sale.id, 'cancel'), label: 'buyer cancel', weight: 1 },
        { who: 'buyer', path: online(sale.id, 'pay'), label: 'buyer pay', weight: 2 },
        { who: 'buyer', path: online(sale.id, 'set_payment_method'), body: { payment_method: otherMethod(sale) }, label: 'buyer set_payment_method', weight: 1 },
      ]),
    ]
  },
}

const onlinePaid: RaceKind = {
  name: 'online paid',
  summary: 'seller cancel (refund) vs track vs submit_order_issue vs confirm_delivery vs admin release',
  type: 'online',
  ends: ['payment_refunded', 'funds_released'],
  async setup(sale) {
    await paidOnline(sale)
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: online(sale.id, 'cancel'), label: 'seller cancel', weight: 3 },
      { who: 'seller', path: online(sale.id, 'track'), body: { carrier: 'dhl', tracking_code: `RACE${sale.id.replaceAll('-', '').slice(-16).toUpperCase()}` }, label: 'seller track', weight: 3 },
      { who: 'buyer', path: online(sale.id, 'submit_order_issue'), body: { description: 'Is it the blue one?' }, label: 'buyer submit_order_issue', weight: 2 },
      { who: 'buyer', path: online(sale.id, 'cancel'), label: 'buyer cancel', weight: 1 },
      { who: 'buyer', path: online(sale.id, 'confirm_delivery'), label: 'buyer confirm_delivery', weight: 1 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=seller', body: { reason: 'bench' }, label: 'admin release to seller', weight: 1 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 1 },
    ])
  },
}

const onlineDelivered: RaceKind = {
  name: 'online delivered',
  summary: 'complain vs end_complaint_period vs the window timer vs admin confirm_delivery/release, at the deadline',
  type: 'online',
  ends: ['complained', 'funds_released', 'payment_refunded'],
  async setup(sale) {
    return { deadline: await deliveredOnline(sale) }
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'buyer', path: online(sale.id, 'complain_with_description'), body: { description: 'Scratched frame' }, label: 'buyer complain', weight: 4 },
      { who: 'buyer', path: online(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 2 },
      { who: 'admin', path: admin(sale.id, 'confirm_delivery'), body: { reason: 'bench' }, label: 'admin confirm_delivery', weight: 2 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=seller', body: { reason: 'bench' }, label: 'admin release to seller', weight: 1 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 1 },
    ])
  },
}

const onlineComplained: RaceKind = {
  name: 'online complained',
  summary: 'seller accept_complaint vs admin release ?to=seller vs ?to=buyer',
  type: 'online',
  ends: ['payment_refunded', 'funds_released'],
  async setup(sale) {
    await deliveredOnline(sale)
    await sale.step('buyer', 'POST', online(sale.id, 'complain_with_description'), { description: 'Not as described' })
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: online(sale.id, 'accept_complaint'), label: 'seller accept_complaint', weight: 3 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=seller', body: { reason: 'bench' }, label: 'admin release to seller', weight: 3 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 3 },
      { who: 'buyer', path: online(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 1 },
      { who: 'seller', path: online(sale.id, 'cancel'), label: 'seller cancel', weight: 1 },
    ])
  },
}

// ---------------------------------------------------------------------------
// Face-to-face sales

const p2p = (id: string, action = '') => `/api/v1/p2p/transactions/${id}${action ? `/${action}` : ''}`
const cancelBy = (who: 'buyer' | 'seller'): Single['body'] => ({ description: who === 'seller' ? 'cancelled by creator' : 'cancelled by buyer' })

async function createF2f(sale: Sale, method: 'card' | 'sepa' = 'card'): Promise<void> {
  const quote = await sale.step('seller', 'GET', '/api/v1/p2p/charge?price=5000&currency=eur&payment_method=card')
  const created = await sale.step('seller', 'POST', '/api/v1/p2p/me/transactions', {
    role: 'seller',
    currency: 'eur',
    description: `Bench camera ${sale.index}`,
    deposit_price: 5_000,
    deposit_charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  })
  sale.id = created.id as string
  await sale.step('buyer', 'POST', `/api/v1/p2p/transactions_by_join_code/${String(created.join_code)}/join`)
  if (method === 'sepa') await sale.step('buyer', 'POST', p2p(sale.id, 'set_deposit_payment_method'), { payment_method: 'sepa' })
}

async function openF2f(sale: Sale, part: 'deposit' | 'remainder'): Promise<Intent> {
  const opened = await sale.step('buyer', 'POST', p2p(sale.id, `pay_${part}`))
  return { id: opened.payment_intent_id as string, secret: opened.client_secret as string }
}

async function payF2f(sale: Sale, part: 'deposit' | 'remainder', source: PaymentSource = { card_number: card }): Promise<void> {
  const intent = await openF2f(sale, part)
  await sale.step(null, 'POST', `/sandbox/v1/payment_intents/${intent.id}/confirm`, { client_secret: intent.secret, ...source })
  await sale.step('buyer', 'POST', p2p(sale.id, 'confirm_payment'), { payment_intent_id: intent.id })
  await sale.waitFor([part === 'deposit' ? 'deposit_paid' : 'remainder_paid'])
}

async function quoteTotal(sale: Sale, total: number): Promise<object> {
  const quote = await sale.step('seller', 'GET', `${p2p(sale.id, 'charge')}?price=${total}`)
  return { price: total, charge: quote.charge, charge_calculator_version: quote.charge_calculator_version }
}

async function depositAccepted(sale: Sale, method: 'card' | 'sepa' = 'card'): Promise<void> {
  await createF2f(sale, method)
  await payF2f(sale, 'deposit', method === 'card' ? { card_number: card } : { iban: sepaSucceeds })
  await sale.step('seller', 'POST', p2p(sale.id, 'accept_deposit'))
}

/** Remainder paid by card on even sales, skipped on odd ones. */
async function remainderSettled(sale: Sale): Promise<void> {
  await depositAccepted(sale)
  if (sale.index % 2 === 0) {
    await sale.step('seller', 'POST', p2p(sale.id, 'set_price'), await quoteTotal(sale, 20_000))
    await payF2f(sale, 'remainder')
  } else {
    await sale.step('seller', 'POST', p2p(sale.id, 'skip_remainder'))
  }
}

async function handoverConfirmed(sale: Sale): Promise<Date> {
  await remainderSettled(sale)
  const confirmed = await sale.step('seller', 'POST', p2p(sale.id, 'confirm_handover'))
  return new Date(confirmed.complaint_period_deadline as string)
}

const f2fJoined: RaceKind = {
  name: 'f2f joined',
  summary: 'pay_deposit + confirm_payment ×3 + webhook ×2 vs cancel_with_description by either party vs a change of method',
  type: 'f2f',
  ends: ['deposit_paid', 'cancelled', 'joined', 'deposit_refunded'],
  async setup(sale) {
    await createF2f(sale, methodFor(sale.index).method)
    return sale.index % 2 === 0 ? { intent: await openF2f(sale, 'deposit') } : {}
  },
  lanes(sale, requests, { intent }) {
    const payment = paymentLane(sale, { payPath: p2p(sale.id, 'pay_deposit'), confirmPath: p2p(sale.id, 'confirm_payment'), intent, source: methodFor(sale.index).source, confirms: 3, webhooks: 2 })
    return [
      payment,
      ...fill(sale, requests - payment.calls, [
        { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
        { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
        { who: 'buyer', path: p2p(sale.id, 'pay_deposit'), label: 'buyer pay_deposit', weight: 2 },
        { who: 'buyer', path: p2p(sale.id, 'set_deposit_payment_method'), body: { payment_method: otherMethod(sale) }, label: 'buyer set_deposit_payment_method', weight: 1 },
      ]),
    ]
  },
}

const f2fDepositPaid: RaceKind = {
  name: 'f2f deposit paid',
  summary: 'accept_deposit ×k vs cancel_with_description by either party vs admin refund',
  type: 'f2f',
  ends: ['deposit_accepted', 'deposit_refunded', 'payment_refunded'],
  async setup(sale) {
    await createF2f(sale)
    await payF2f(sale, 'deposit')
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'accept_deposit'), label: 'seller accept_deposit', weight: 4 },
      { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
      { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 1 },
    ])
  },
}

const f2fDepositAccepted: RaceKind = {
  name: 'f2f deposit accepted',
  summary: 'set_price (two totals) vs skip_remainder vs cancel by either party',
  type: 'f2f',
  ends: ['priced', 'remainder_skipped', 'deposit_refunded'],
  async setup(sale) {
    await depositAccepted(sale)
    // Quoted before the race, as the seller's form does.
    return { totals: [await quoteTotal(sale, 20_000), await quoteTotal(sale, 25_000)] }
  },
  lanes(sale, requests, { totals = [] }) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'set_price'), body: totals[0]!, label: 'seller set_price 200.00', weight: 2 },
      { who: 'seller', path: p2p(sale.id, 'set_price'), body: totals[1]!, label: 'seller set_price 250.00', weight: 2 },
      { who: 'seller', path: p2p(sale.id, 'skip_remainder'), label: 'seller skip_remainder', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
      { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
    ])
  },
}

const f2fPriced: RaceKind = {
  name: 'f2f priced',
  summary: 'pay_remainder + confirm_payment ×3 + webhook ×2 vs skip_remainder vs cancel',
  type: 'f2f',
  ends: ['remainder_paid', 'remainder_skipped', 'deposit_refunded', 'priced'],
  async setup(sale) {
    await depositAccepted(sale, methodFor(sale.index).method)
    await sale.step('seller', 'POST', p2p(sale.id, 'set_price'), await quoteTotal(sale, 20_000))
    return sale.index % 2 === 0 ? { intent: await openF2f(sale, 'remainder') } : {}
  },
  lanes(sale, requests, { intent }) {
    const payment = paymentLane(sale, { payPath: p2p(sale.id, 'pay_remainder'), confirmPath: p2p(sale.id, 'confirm_payment'), intent, source: methodFor(sale.index).source, confirms: 3, webhooks: 2 })
    return [
      payment,
      ...fill(sale, requests - payment.calls, [
        { who: 'seller', path: p2p(sale.id, 'skip_remainder'), label: 'seller skip_remainder', weight: 3 },
        { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
        { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
        { who: 'buyer', path: p2p(sale.id, 'pay_remainder'), label: 'buyer pay_remainder', weight: 1 },
      ]),
    ]
  },
}

const f2fHandover: RaceKind = {
  name: 'f2f handover',
  summary: 'confirm_handover by both parties ×k vs complain vs end_complaint_period vs admin refund',
  type: 'f2f',
  ends: ['funds_released', 'complained', 'payment_refunded'],
  async setup(sale) {
    await remainderSettled(sale)
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'confirm_handover'), label: 'seller confirm_handover', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'confirm_handover'), label: 'buyer confirm_handover', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'complain'), body: { description: 'Lens is foggy' }, label: 'buyer complain', weight: 1 },
      { who: 'buyer', path: p2p(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 1 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 1 },
    ])
  },
}

const f2fWindow: RaceKind = {
  name: 'f2f complaint window',
  summary: 'complain vs end_complaint_period vs the window timer vs admin release, at the deadline',
  type: 'f2f',
  ends: ['complained', 'funds_released', 'payment_refunded'],
  async setup(sale) {
    return { deadline: await handoverConfirmed(sale) }
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'buyer', path: p2p(sale.id, 'complain'), body: { description: 'Shutter sticks' }, label: 'buyer complain', weight: 4 },
      { who: 'buyer', path: p2p(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 2 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=seller', body: { reason: 'bench' }, label: 'admin release to seller', weight: 1 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 1 },
      { who: 'seller', path: p2p(sale.id, 'accept_complaint'), label: 'seller accept_complaint', weight: 1 },
    ])
  },
}

const f2fComplained: RaceKind = {
  name: 'f2f complained',
  summary: 'seller accept_complaint vs admin release ?to=seller vs ?to=buyer',
  type: 'f2f',
  ends: ['payment_refunded', 'funds_released'],
  async setup(sale) {
    await handoverConfirmed(sale)
    await sale.step('buyer', 'POST', p2p(sale.id, 'complain'), { description: 'Not the model shown' })
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'accept_complaint'), label: 'seller accept_complaint', weight: 3 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=seller', body: { reason: 'bench' }, label: 'admin release to seller', weight: 3 },
      { who: 'admin', path: admin(sale.id, 'release_funds'), query: '?to=buyer', body: { reason: 'bench' }, label: 'admin release to buyer', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 1 },
      { who: 'seller', path: p2p(sale.id, 'confirm_handover'), label: 'seller confirm_handover', weight: 1 },
    ])
  },
}

export const raceKinds: readonly RaceKind[] = [
  onlineJoined,
  onlinePaid,
  onlineDelivered,
  onlineComplained,
  f2fJoined,
  f2fDepositPaid,
  f2fDepositAccepted,
  f2fPriced,
  f2fHandover,
  f2fWindow,
  f2fComplained,
]
