import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { Role } from '@pactum/contracts/transactions'

type Reader = Pick<AnyTransaction, 'type' | 'status' | 'listing_id' | 'role'>

/**
 * The states in which the sale waits for one party, and for whom (the
 * state machines' way forward; optional steps, a complaint or an early
 * release, do not count). A status is named from the reader's side:
 * "Paid: ship the item" to the seller who must, "Paid, waiting for
 * shipping" to the buyer who waits (issue 33 item 1).
 */
const waitsFor: Readonly<Record<AnyTransaction['type'], Partial<Record<AnyTransaction['status'], Role>>>> = {
  online: { joined: 'buyer', paid: 'seller', tracked: 'buyer', complained: 'seller' },
  f2f: {
    joined: 'buyer',
    deposit_paid: 'seller',
    deposit_accepted: 'seller',
    priced: 'buyer',
    remainder_paid: 'seller',
    remainder_skipped: 'seller',
    complained: 'seller',
  },
}

/** The key of the step the reader has to take now, or null when the sale is not waiting for them. */
export function yourMoveKey(transaction: Reader): string | null {
  if (transaction.role === null) return null
  // A purchase from a listing waits in `created` for the seller's answer.
  if (transaction.status === 'created') {
    return transaction.listing_id && transaction.role === 'seller' ? 'transactionStatusNames.yourMove.accept_purchase' : null
  }
  if (waitsFor[transaction.type][transaction.status] !== transaction.role) return null
  return `transactionStatusNames.yourMove.${transaction.type}.${transaction.status}`
}
