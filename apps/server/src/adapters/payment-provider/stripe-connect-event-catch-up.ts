import type { FastifyBaseLogger } from 'fastify'
import { type Kysely, sql } from 'kysely'
import type Stripe from 'stripe'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import { receiveProviderEvent } from '../../modules/payments/receive-provider-event.ts'
import { providerEventSchema } from '../../modules/payments/reduce-provider-event.ts'
import { payoutEventTypes } from '../../modules/payouts/reduce-payout-event.ts'

/**
 * The connected accounts' events Pactum records: payouts (acted on,
 * modules/payouts) and the account and its bank accounts (recorded only:
 * the payout requirements read the account live). Stripe sends them to the
 * Connect endpoint only, with `account` set.
 */
export const stripeConnectEventTypes = [
  ...payoutEventTypes,
  'account.updated',
  'account.external_account.created',
  'account.external_account.updated',
  'account.external_account.deleted',
] as const

const cursorName = 'connect'
/** Stripe retries a failed delivery for three days: a first run looks that far back. */
const firstLookBackSeconds = 3 * 86_400
const overlapSeconds = 300
/**
 * How long after a transfer an account may still see its payout: Stripe's
 * automatic payouts wait `delay_days` (2 to 7 days in most countries, up to
 * 14 for an account's first payout) before paying a balance out.
 */
const payoutWindowDays = 14

/**
 * Recovers Connect events Stripe never delivered. Stripe lists a connected
 * account's events only per account (`events.list` with the
 * `Stripe-Account` header), so listing every seller's every few minutes
 * would cost one call per seller. The pass lists only the accounts a payout
 * can be expected on: those Pactum transferred money to in the last 14
 * days, and those with a payout not yet paid, failed or cancelled, or a
 * failed one in that window (its bank account being replaced). Each event
 * goes through the same intake as the webhook, which records it once per
 * event id. Run by the platform catch-up's job, after its own pass.
 */
export class StripeConnectEventCatchUp {
  readonly #options: { stripe: Stripe; db: Kysely<Database>; clock: Clock; handlers: EventHandlers; log: FastifyBaseLogger }

  constructor(options: { stripe: Stripe; db: Kysely<Database>; clock: Clock; handlers: EventHandlers; log: FastifyBaseLogger }) {
    this.#options = options
  }

  /** One pass over the accounts in play; answers how many events were new to Pactum. */
  async run(): Promise<number> {
    const { stripe, db, clock, handlers, log } = this.#options
    const startedAt = clock.now()
    const cursor = await db.selectFrom('stripe_event_cursor').select('listed_until').where('name', '=', cursorName).executeTakeFirst()
    const since = cursor
      ? Math.floor(cursor.listed_until.getTime() / 1000) - overlapSeconds
      : Math.floor(startedAt.getTime() / 1000) - firstLookBackSeconds
    let received = 0
    for (const account of await this.#accountsInPlay(startedAt)) {
      const events: Stripe.Event[] = []
      for await (const event of stripe.events.list(
        { created: { gte: since }, types: [...stripeConnectEventTypes], limit: 100 },
        { stripeAccount: account },
      )) {
        events.push(event)
      }
      events.reverse()
      for (const event of events) {
        // Listed on the account, the event is the account's even if a version of the API left `account` out.
        const parsed = providerEventSchema.safeParse({ ...JSON.parse(JSON.stringify(event)), account: event.account ?? account })
        if (!parsed.success) {
          log.warn({ eventId: event.id, type: event.type }, 'stripe connect catch-up: not a provider event')
          continue
        }
        const outcome = await receiveProviderEvent({ db, clock, handlers }, 'stripe', parsed.data)
        if (outcome !== 'duplicate') received += 1
      }
    }
    await db
      .insertInto('stripe_event_cursor')
      .values({ name: cursorName, listed_until: startedAt, updated_at: clock.now() })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ listed_until: startedAt, updated_at: clock.now() }))
      .execute()
    if (received > 0) log.warn({ received }, 'stripe connect catch-up recovered events the webhook had not delivered')
    return received
  }

  async #accountsInPlay(now: Date): Promise<string[]> {
    const { db } = this.#options
    const windowStart = new Date(now.getTime() - payoutWindowDays * 86_400_000)
    const paidTo = await db
      .selectFrom('outbox')
      .innerJoin('transactions', 'transactions.id', 'outbox.transaction_id')
      // The account table keys users as text (0034), the transactions as uuid.
      .innerJoin('stripe_connected_accounts', (join) =>
        join.on(sql`stripe_connected_accounts.user_id`, '=', sql`transactions.seller_id::text`),
      )
      .select('stripe_connected_accounts.account_id')
      .where('outbox.action', '=', 'transfer')
      .where('outbox.sent_at', '>=', windowStart)
      .distinct()
      .execute()
    const followed = await db
      .selectFrom('seller_payouts')
      .select('account_id')
      .where('provider', '=', 'stripe')
      .where((eb) =>
        eb.or([eb('status', 'in', ['pending', 'in_transit']), eb.and([eb('status', '=', 'failed'), eb('failed_at', '>=', windowStart)])]),
      )
      .distinct()
      .execute()
    return [...new Set([...paidTo, ...followed].map((row) => row.account_id))].sort()
  }
}
