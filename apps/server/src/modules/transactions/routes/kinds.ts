import { f2fTransactionSchema } from '@pactum/contracts/f2f-transactions'
import { transactionSchema } from '@pactum/contracts/transactions'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import { toF2fTransactionView, toTransactionView } from '../transaction-view.ts'

/**
 * What differs between the two kinds' routes: the path prefix (`/p2p` for
 * face-to-face), the OpenAPI tag, and the transaction's shape and view.
 * Everything else is registered once for both.
 */
export const kindRoutes = {
  online: { prefix: '', tag: 'transactions', schema: transactionSchema, view: toTransactionView },
  f2f: { prefix: '/p2p', tag: 'face-to-face', schema: f2fTransactionSchema, view: toF2fTransactionView },
} as const satisfies Record<TransactionKind, unknown>

export const transactionKinds = ['online', 'f2f'] as const satisfies readonly TransactionKind[]
