import type { TFunction } from '../../i18n/translator.ts'
import { ApiError } from './api-error.ts'
import { pageLoadErrorCodes } from './page-load-errors.ts'

/**
 * The error codes the transaction screens can receive, each with its own
 * translated sentence (`apiErrors.<code>`). Anything else gets the generic one:
 * clients act on `code`, never on the server's English `error` text.
 */
export const translatedErrorCodes = [
  ...pageLoadErrorCodes,
  'not_buyer',
  'not_seller',
  'cannot_join_own_transaction',
  'join_code_not_found',
  'already_joined',
  'listing_closed',
  'claim_secret_not_found',
  'already_claimed',
  'claim_link_mismatch',
  'claim_link_expired',
  'client_exists',
  'difference_already_explained',
  'already_cancelled',
  'already_paid',
  'payment_method_already_set',
  'tracking_already_added',
  'tracking_code_in_use',
  'tracking_details_deadline_expired',
  'delivery_already_set',
  'unconfirmed_delivery',
  'already_complained',
  'empty_complaint_description',
  'complaint_period_expired',
  'funds_already_released',
  'remainder_too_low',
  'deposit_not_paid',
  'deposit_already_accepted',
  'deposit_payment_in_review',
  'price_already_set',
  'remainder_required',
  'remainder_already_skipped',
  'remainder_already_paid',
  'handover_already_confirmed',
  'not_accepted',
  'not_paid',
  'payment_in_progress',
  'tracking_not_added',
  'not_complained',
  'deposit_not_accepted',
  'price_not_set',
  'price_too_low',
  'price_too_high',
  'negative_price',
  'unsupported_currency',
  'invalid_payment_method',
  'payment_method_not_allowed',
  'unsupported_combination',
  'incorrect_charge',
  'incorrect_calc_version',
  'invalid_state',
  'active_country_not_set',
  'tos_not_accepted',
  'identity_verification_required',
  'email_already_confirmed',
  'email_confirmation_unavailable',
  'email_not_confirmed',
  'account_has_open_transactions',
  'account_has_balance',
  'email_change_unavailable',
  'incorrect_password',
  'passkeys_unavailable',
  'too_many_passkeys',
  'incorrect_code',
  'totp_already_enabled',
  'totp_not_pending',
  'second_factor_unavailable',
  'passkey_not_verified',
  'password_change_unavailable',
  'sessions_unavailable',
  'idempotency_key_reused',
  'too_many_invitations',
  'too_many_invitations_to_recipient',
  'invitations_stopped_by_recipient',
  // A complaint's case (issue 32).
  'split_not_price',
  'cannot_answer_own_offer',
  'offer_not_open',
  'case_already_escalated',
  'receipt_confirmation_requested_recently',
  // Card disputes and fraud warnings (decision 109).
  'chargeback_open',
  'fraud_warning_open',
  'no_open_chargeback',
  'no_fraud_warning',
  'no_chargeback_loss',
  'recovery_too_high',
  // The payment provider's own answers (sandbox and Stripe use the same codes).
  'card_declined',
  'insufficient_funds',
  'invalid_card',
  'expired_card',
  'invalid_iban',
  'payment_failed',
] as const

export type TranslatedErrorCode = (typeof translatedErrorCodes)[number]

const known = new Set<string>(translatedErrorCodes)

export function errorCodeOf(error: unknown): string {
  if (error instanceof ApiError) return error.code
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code
  return 'unknown'
}

/**
 * The sentence to show for a failed call, in the interface language. A
 * limit whose window closes in more than a minute (creates are counted per
 * hour) says how many minutes, from the server's `retry_after`, rather than
 * "wait a minute".
 */
export function errorMessage(t: TFunction, error: unknown): string {
  const code = errorCodeOf(error)
  if (code === 'rate_limited' && error instanceof ApiError) {
    const retryAfter = error.details.retry_after
    if (typeof retryAfter === 'number' && retryAfter > 60) return t('apiErrors.rateLimitedMinutes', { count: Math.ceil(retryAfter / 60) })
  }
  return known.has(code) ? t(`apiErrors.${code}`) : t('apiErrors.generic')
}
