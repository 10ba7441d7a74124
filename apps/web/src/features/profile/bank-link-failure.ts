import { ApiError } from '../../lib/api/api-error.ts'

/**
 * What is known of a bank link that did not work, said before the spec's
 * "something went wrong, contact support" (issue 33 item 4): where it
 * stopped, and the provider's reason when the server passed one on.
 */
export type BankLinkFailure =
  /** Pactum could not start a link (the link token). */
  | 'not_started'
  /** The provider's link screen did not load, or ended with its own error (already shown to the person in it). */
  | 'screen_failed'
  /** The bank refused the link (the provider's institution error). */
  | 'bank_refused'
  /** The link was unknown, used or expired by the time it was exchanged. */
  | 'link_expired'
  /** The account chosen cannot receive payouts. */
  | 'account_unusable'
  | 'unknown'

interface FieldProblem {
  field?: unknown
  problem?: unknown
}

/** Reads POST /me/plaid/link's refusal (`validation_failed` naming the field and the provider's reason). */
export function failureOfExchange(error: unknown): BankLinkFailure {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return 'unknown'
  const fields = Array.isArray(error.details.fields) ? (error.details.fields as FieldProblem[]) : []
  if (fields.some((entry) => entry.problem === 'institution_error')) return 'bank_refused'
  if (fields.some((entry) => entry.problem === 'invalid_public_token')) return 'link_expired'
  if (fields.some((entry) => entry.field === 'body.account_id')) return 'account_unusable'
  return 'unknown'
}
