import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What the public verification page is read from, by the sale's code: the
 * escrow's amounts and step times, the parties' first names and addresses
 * (masked before they leave the server) and the client's name. Nothing
 * else is selected, so nothing else can leak from here.
 */
export async function findByVerifyCode(db: Kysely<Database>, code: string) {
  return db
    .selectFrom('transactions as t')
    .leftJoin('users as buyer', 'buyer.id', 't.buyer_id')
    .leftJoin('users as seller', 'seller.id', 't.seller_id')
    .leftJoin('clients as client', 'client.id', 't.client_id')
    .select([
      't.type',
      't.status',
      't.currency',
      't.price',
      't.charge',
      't.amount_held',
      't.amount_released',
      't.amount_refunded',
      't.created',
      't.paid',
      't.deposit_paid',
      't.funds_released',
      't.cancelled_with_payment',
      't.cancelled_with_deposit',
      't.payment_refunded',
      't.deposit_refunded',
      't.client_id',
      'client.name as client_name',
      'buyer.first_name as buyer_first_name',
      'buyer.email as buyer_email',
      'seller.first_name as seller_first_name',
      'seller.email as seller_email',
    ])
    .where('t.verify_code', '=', code)
    .executeTakeFirst()
}

export type VerifiedRow = NonNullable<Awaited<ReturnType<typeof findByVerifyCode>>>
