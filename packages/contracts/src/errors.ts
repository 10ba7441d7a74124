import { z } from 'zod'

/**
 * The error vocabulary of the API (DESIGN §5). Clients act on `code`; the
 * human-readable `error` text may change. Codes follow the anchor product's
 * public API so that partners recognise them.
 */
export const errorStatus = {
  validation_failed: 400,
  invalid_after_id: 400,
  invalid_limit: 400,
  price_too_low: 400,
  price_too_high: 400,
  negative_price: 400,
  unsupported_currency: 400,
  invalid_payment_method: 400,
  unsupported_combination: 400,
  empty_complaint_description: 400,
  remainder_too_low: 400,
  /** A settlement offer or decision whose two parts are not whole, not positive or zero, or do not add up to the price in dispute. */
  split_not_price: 400,
  /** More than the lost dispute cost, or than the seller was paid for the sale. */
  recovery_too_high: 400,
  /** The authenticator's answer did not verify (wrong challenge, origin or signature, or it timed out). */
  passkey_not_verified: 400,
  /** The authenticator app's code is not the one of now, or was used already (issue 30). */
  incorrect_code: 400,
  unauthenticated: 401,
  invalid_api_key: 401,
  forbidden: 403,
  /** The current password given to change it is wrong (not 401: the access token is fine). */
  incorrect_password: 403,
  not_buyer: 403,
  not_seller: 403,
  not_admin: 403,
  /** The address was proved by someone before this sign-in did: confirm it first (issue 30). */
  email_not_confirmed: 403,
  cannot_join_own_transaction: 403,
  /** Accepting or declining one's own settlement offer: the other party answers it. */
  cannot_answer_own_offer: 403,
  payment_method_not_allowed: 403,
  not_found: 404,
  join_code_not_found: 404,
  claim_secret_not_found: 404,
  invalid_state: 409,
  already_joined: 409,
  /** A listing closed by its seller, sold (single use), or held by a purchase waiting for the seller. */
  listing_closed: 409,
  already_claimed: 409,
  claim_link_mismatch: 409,
  already_cancelled: 409,
  already_paid: 409,
  payment_method_already_set: 409,
  tracking_already_added: 409,
  /** The carrier and tracking code are on another buyer's sale already: one parcel cannot reach two buyers. */
  tracking_code_in_use: 409,
  tracking_details_deadline_expired: 409,
  delivery_already_set: 409,
  unconfirmed_delivery: 409,
  already_complained: 409,
  complaint_period_expired: 409,
  funds_already_released: 409,
  deposit_not_paid: 409,
  deposit_already_accepted: 409,
  deposit_payment_in_review: 409,
  price_already_set: 409,
  remainder_required: 409,
  remainder_already_skipped: 409,
  remainder_already_paid: 409,
  handover_already_confirmed: 409,
  not_accepted: 409,
  // Beyond DESIGN §5's list: wrong-state reasons it has no code for (docs/decisions/011-wrong-state-refusals.md).
  not_paid: 409,
  payment_in_progress: 409,
  tracking_not_added: 409,
  not_complained: 409,
  deposit_not_accepted: 409,
  price_not_set: 409,
  /** The offer answered is not the open one: it was replaced by a newer offer, answered, or the case ended. */
  offer_not_open: 409,
  case_already_escalated: 409,
  /** Held money is in a card dispute: the sale waits for the bank's decision (docs/decisions/109). */
  chargeback_open: 409,
  /** An early fraud warning holds the release until an admin clears it. */
  fraud_warning_open: 409,
  no_open_chargeback: 409,
  no_fraud_warning: 409,
  /** A recovery from the seller is only for a dispute lost on money already released. */
  no_chargeback_loss: 409,
  incorrect_charge: 409,
  incorrect_calc_version: 409,
  active_country_not_set: 409,
  tos_not_accepted: 409,
  /** The payment provider asks nothing that only its own onboarding page collects. */
  onboarding_not_required: 409,
  identity_verification_required: 409,
  email_already_registered: 409,
  /** A partner client with that id exists already (admin console). */
  client_exists: 409,
  /** A reconciliation difference an admin explained already: the first reason stands (decision 107). */
  difference_already_explained: 409,
  email_already_confirmed: 409,
  /** Closing an account while one of its sales still holds money or can still move (issue 30). */
  account_has_open_transactions: 409,
  /** Closing an account whose seller balance at the payment provider is not paid out yet. */
  account_has_balance: 409,
  /** The address lives with an external sign-in provider: change it there. */
  email_change_unavailable: 409,
  /** Passkeys belong to the embedded sign-in; an external issuer offers its own. */
  passkeys_unavailable: 409,
  /** Ten passkeys already: remove one first. */
  too_many_passkeys: 409,
  /** An authenticator app is set up already: remove it first (with the password) to set up another. */
  totp_already_enabled: 409,
  /** Confirming an authenticator app that was not being set up (none started, or it is confirmed already). */
  totp_not_pending: 409,
  /** Second factors belong to the embedded sign-in; an external issuer offers its own. */
  second_factor_unavailable: 409,
  email_confirmation_unavailable: 409,
  /** The password lives with an external sign-in provider: change it there. */
  password_change_unavailable: 409,
  /** The sessions live with an external sign-in provider: it lists and ends them. */
  sessions_unavailable: 409,
  idempotency_request_in_progress: 409,
  /** The invited address asked for no more invitations (the link in every invitation e-mail). */
  invitations_stopped_by_recipient: 409,
  /** A guest invitation's link past its validity (the creator can send a new one). */
  claim_link_expired: 410,
  file_too_large: 413,
  unsupported_file_type: 415,
  unsupported_media_type: 415,
  /** A request body sent compressed (Content-Encoding other than identity): bodies are read only as sent. */
  unsupported_content_encoding: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  /** The sender (a user or a partner client) has sent as many invitations as its hour or day allows. */
  too_many_invitations: 429,
  /** The address has been sent as many invitations as a day allows, by all senders together. */
  too_many_invitations_to_recipient: 429,
  /** The seller asked the buyer to confirm receipt less than a day ago: the reminder e-mails the buyer. */
  receipt_confirmation_requested_recently: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof errorStatus

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]

export const errorBodySchema = z
  .object({
    code: z.enum(errorCodes),
    error: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Error' })

export type ErrorBody = z.infer<typeof errorBodySchema>
