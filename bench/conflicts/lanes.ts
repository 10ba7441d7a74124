import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../../apps/server/src/db/schema.ts'
import type { Caller } from './client.ts'
import type { Intent, Lane, Sale } from './sale.ts'

/*
 * How the races of `npm run bench:conflicts` fill their requests: single
 * requests in proportion, with and without Idempotency-Keys; the buyer's
 * payment as a chain (open, confirm at the provider, report, webhooks
 * redelivered); and the payment methods the sales take in turn.
 */

export const card = '4242424242424242'
export const sepaSucceeds = 'DE89370400440532013000'
const sepaFails = 'DE35370400440532013002'

/** A single request that the race repeats, with its share of the mix. */
export interface Single {
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
export function fill(sale: Sale, total: number, singles: Single[]): Lane[] {
  const deck = singles.flatMap((single) => Array.from({ length: single.weight }, () => single))
  const counts = new Map<string, number>()
  const lanes: Lane[] = []
  for (let index = 0; lanes.length < total; index++) {
    const single = deck[index % deck.length]!
    const occurrence = counts.get(single.label) ?? 0
    counts.set(single.label, occurrence + 1)
    const key =
      occurrence % 3 === 0 ? undefined : occurrence % 3 === 1 ? `${sale.id}-${single.label.replace(/[^A-Za-z0-9]+/g, '-')}` : randomUUID()
    const path = `${single.path}${single.query ?? ''}`
    lanes.push({
      calls: 1,
      run: () =>
        sale.race(single.who, 'POST', path, { ...(single.body ? { body: single.body } : {}), idempotencyKey: key, label: single.label }),
    })
  }
  return lanes
}

export type PaymentSource = { card_number: string } | { iban: string }

/**
 * The buyer's payment as a browser makes it: open it (unless it was opened
 * before the race), confirm it at the provider, then report it `confirms`
 * times while the provider's webhook for it is delivered `webhooks` times
 * more (redeliveries of the sandbox's own newest event for it). A SEPA
 * debit settles a second later: its reports and redeliveries are spread
 * over that second and a little beyond (a page reloaded, a retry), so that
 * they race the settlement too.
 */
export function paymentLane(
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
          await sale.api.redeliverWebhook(
            { race: sale.kind.name, saleId: sale.id, phase: 'race' },
            event,
            `webhook ${String(event.type)} redelivered`,
          )
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
export function methodFor(index: number): { method: 'card' | 'sepa'; source: PaymentSource } {
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
export function otherMethod(sale: Sale): 'card' | 'sepa' {
  return methodFor(sale.index).method === 'card' ? 'sepa' : 'card'
}

/** The admin's actions on a sale, of either kind. */
export const admin = (id: string, action: string) => `/api/v1/admin/transactions/${id}/${action}`
