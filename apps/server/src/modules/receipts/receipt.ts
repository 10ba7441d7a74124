import { isEscrowAccount } from '@pactum/domain/ledger-rules'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { ledgerEntriesOf } from '../admin/admin-repository.ts'
import { type DocumentTransaction, documentTransaction } from '../transactions/document-facts.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'

/**
 * Everything a receipt says (issue 33), as plain data read from the ledger
 * and the transaction row: the renderer (receipt-pdf.ts) only lays it out.
 * Each hold is a payment received; each entry that takes money out of
 * escrow (release, refund, split, a payment sent straight back, a
 * correction) is a movement with what went to whom. Both parties and the
 * admins get the same receipt: it names the parties by e-mail address, as
 * the case file does (decision 097).
 */
export type HoldPart = 'payment' | 'deposit' | 'remainder'
export type MovementKind = 'release' | 'refund' | 'split' | 'refund_unheld' | 'reversal'

export interface Receipt {
  generatedAt: Date
  transaction: DocumentTransaction
  payments: Array<{
    part: HoldPart
    at: Date
    amount: number
    /** The buyer's fee inside `amount`. */
    fee: number
    paymentMethod: string | null
    /** The provider's payment (a Stripe PaymentIntent id). */
    paymentReference: string | null
    ledgerEntryId: string
  }>
  movements: Array<{
    kind: MovementKind
    at: Date
    toBuyer: number
    toSeller: number
    /** What Pactum kept: the fees. */
    feesKept: number
    ledgerEntryId: string
  }>
}

/** The receipt's file name, for the download and the e-mail attachment alike. */
export function receiptFileName(transactionId: string): string {
  return `pactum-receipt-${transactionId.slice(-12)}.pdf`
}

/** The buyer has paid: the online payment, or a face-to-face sale's deposit. */
export function isPaid(row: TransactionRow): boolean {
  return (row.type === 'f2f' ? row.deposit_paid : row.paid) !== null
}

export function notPaid(row: TransactionRow): AppError {
  return new AppError('not_paid', 'The buyer has not paid yet: there is nothing to give a receipt for', {
    details: { status: row.status },
  })
}

/** The receipt of `row` as it stands at `now`; `notPaid()` before the buyer has paid. */
export async function buildReceipt(db: Kysely<Database>, row: TransactionRow, now: Date): Promise<Receipt> {
  if (!isPaid(row)) throw notPaid(row)
  const [entries, transaction] = await Promise.all([ledgerEntriesOf(db, row.id), documentTransaction(db, row)])
  const sumOf = (postings: Array<{ account: string; amount: number }>, test: (account: string) => boolean) =>
    postings.filter((posting) => test(posting.account)).reduce((sum, posting) => sum + posting.amount, 0)
  const named = (name: string) => (account: string) => account === name || account.startsWith(`${name}:`)

  const payments: Receipt['payments'] = []
  const movements: Receipt['movements'] = []
  for (const entry of entries) {
    if (entry.kind === 'hold') {
      const part = toPart(entry.part)
      payments.push({
        part,
        at: entry.created_at,
        amount: sumOf(entry.postings, isEscrowAccount),
        fee: part === 'remainder' ? (row.remainder_charge ?? 0) : row.charge,
        paymentMethod: row.payment_method,
        paymentReference: part === 'remainder' ? row.remainder_payment_intent_id : row.payment_intent_id,
        ledgerEntryId: entry.id,
      })
    } else {
      movements.push({
        kind: entry.kind as MovementKind,
        at: entry.created_at,
        toBuyer: sumOf(entry.postings, named('buyer_refund')),
        toSeller: sumOf(entry.postings, named('seller')),
        feesKept: sumOf(entry.postings, named('revenue')),
        ledgerEntryId: entry.id,
      })
    }
  }

  return {
    generatedAt: now,
    transaction,
    payments,
    movements,
  }
}

function toPart(part: string): HoldPart {
  return part === 'deposit' || part === 'remainder' ? part : 'payment'
}
