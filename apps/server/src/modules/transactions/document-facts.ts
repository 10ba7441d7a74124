import type { CurrencyCode } from '@pactum/domain/currencies'
import { disputed as f2fDisputed } from '@pactum/domain/transactions/f2f-rules'
import { disputed as onlineDisputed } from '@pactum/domain/transactions/online-rules'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { emailsOf } from '../admin/admin-repository.ts'
import { type TransactionRow, toState } from './engine/transaction-state.ts'

/**
 * What every document about one transaction (the case file, the receipt)
 * says of it first: the sale, its price and fees as the domain counts them,
 * and the parties by e-mail (each party sees the other's on the status
 * page, decision 088).
 */
export interface DocumentTransaction {
  id: string
  kind: TransactionKind
  status: string
  description: string
  currency: CurrencyCode
  price: number
  buyerFee: number
  sellerFee: number
  /** E-mail addresses; null while nobody holds the role. */
  buyer: string | null
  seller: string | null
}

export async function documentTransaction(db: Kysely<Database>, row: TransactionRow): Promise<DocumentTransaction> {
  const emails = await emailsOf(db, [row.buyer_id, row.seller_id])
  const state = toState(row)
  const money = state.kind === 'online' ? onlineDisputed(state) : f2fDisputed(state)
  const emailOf = (id: string | null) => (id ? (emails.get(id) ?? null) : null)
  return {
    id: row.id,
    kind: state.kind,
    status: row.status,
    description: row.description,
    currency: state.currency,
    price: money.price,
    buyerFee: money.buyerFee,
    sellerFee: money.sellerFee,
    buyer: emailOf(row.buyer_id),
    seller: emailOf(row.seller_id),
  }
}
