import type { Role, Transaction } from '@pactum/contracts/transactions'
import { highValueRequiresVerification } from '@pactum/domain/high-value'
import { ApiError } from '../../lib/api/api-error.ts'
import { routeTo } from '../../lib/named-routes.ts'

/** Where a person verifies their identity: its section of the personal details page. */
export const verifyIdentityPath = `${routeTo('personalDetails')}#identity-document`

/**
 * A high-value sale of our own clients that can still be paid: the server
 * refuses the payment until both parties have verified their identity
 * (DESIGN §2). Once a payment is on its way it has passed that check.
 */
export function awaitsIdentityVerification(
  tx: Pick<Transaction, 'status' | 'high_value' | 'client_id' | 'is_payment_in_progress'>,
): boolean {
  return tx.status === 'joined' && !tx.is_payment_in_progress && tx.high_value && highValueRequiresVerification(tx.client_id)
}

/** The parties a 409 identity_verification_required names as not yet verified (`details.unverified`). */
export function unverifiedRoles(error: unknown): Role[] {
  if (!(error instanceof ApiError) || error.code !== 'identity_verification_required') return []
  const { unverified } = error.details
  return Array.isArray(unverified) ? unverified.filter((role): role is Role => role === 'buyer' || role === 'seller') : []
}
