import type { TransactionFilter } from '@pactum/contracts/transactions'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../db/schema.ts'
import { AppError } from '../http/app-error.ts'
import { uuidPattern } from '../ids.ts'
import type { TransactionRow } from './transaction-view.ts'

/**
 * Reads a transaction the user takes part in. Anyone else, and a malformed
 * id, get the same 404 as a missing one: existence is never revealed.
 */
export async function findForParty(db: Kysely<Database>, id: string, userId: string): Promise<TransactionRow> {
  if (!uuidPattern.test(id)) throw notFound()
  const row = await db
    .selectFrom('transactions')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId), eb('creator_id', '=', userId)]))
    .executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/** The same, locked for the rest of the database transaction (state changes serialise on it). */
export async function lockForParty(trx: Kysely<Database>, id: string, userId: string): Promise<TransactionRow> {
  if (!uuidPattern.test(id)) throw notFound()
  const row = await trx
    .selectFrom('transactions')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId), eb('creator_id', '=', userId)]))
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/** For the system (timers, webhooks) and admins: no party check. */
export async function lockById(trx: Kysely<Database>, id: string): Promise<TransactionRow | undefined> {
  if (!uuidPattern.test(id)) return undefined
  return trx.selectFrom('transactions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

export function notFound(): AppError {
  return new AppError('not_found', 'No such transaction')
}

const terminal = ['rejected', 'cancelled', 'funds_released', 'payment_refunded']
const cancelledStatuses = ['rejected', 'cancelled', 'cancelled_with_payment', 'payment_refunded']

/**
 * Statuses in which the buyer or the seller must act next (the "needs my
 * input" filter); the others of a non-terminal transaction are "waiting".
 */
export const buyerMustAct = ['joined', 'tracked', 'delivered']
export const sellerMustAct = ['paid', 'complained']

/** Newest first, keyset-paginated on the time-ordered id. */
export async function listForUser(
  db: Kysely<Database>,
  query: { userId: string; limit: number; afterId?: string | undefined; filter?: TransactionFilter | undefined; search?: string | undefined },
): Promise<TransactionRow[]> {
  const { userId } = query
  let select = db
    .selectFrom('transactions')
    .selectAll()
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId), eb('creator_id', '=', userId)]))
  if (query.afterId) select = select.where('id', '<', query.afterId)
  switch (query.filter) {
    case 'active':
      select = select.where('status', 'not in', [...terminal, 'cancelled_with_payment'])
      break
    case 'completed':
      select = select.where('status', '=', 'funds_released')
      break
    case 'cancelled':
      select = select.where('status', 'in', cancelledStatuses)
      break
    case 'inputRequired':
      select = select.where((eb) =>
        eb.or([
          eb.and([eb('buyer_id', '=', userId), eb('status', 'in', buyerMustAct), eb('is_payment_in_progress', '=', false)]),
          eb.and([eb('seller_id', '=', userId), eb('status', 'in', sellerMustAct)]),
        ]),
      )
      break
    case 'waiting':
      select = select.where((eb) =>
        eb.and([
          eb('status', 'not in', [...terminal, 'cancelled_with_payment']),
          eb.not(
            eb.or([
              eb.and([eb('buyer_id', '=', userId), eb('status', 'in', buyerMustAct), eb('is_payment_in_progress', '=', false)]),
              eb.and([eb('seller_id', '=', userId), eb('status', 'in', sellerMustAct)]),
            ]),
          ),
        ]),
      )
      break
    default:
      break
  }
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
    select = select.where((eb) =>
      eb.or([
        eb('description', 'ilike', pattern),
        eb(sql`id::text`, 'ilike', pattern),
        eb('join_code', 'ilike', pattern),
      ]),
    )
  }
  return select.orderBy('id', 'desc').limit(query.limit).execute()
}
