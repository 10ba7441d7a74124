import type { OptionalEmailCategory } from '@pactum/contracts/notification-preferences'
import type { ColumnType, Generated } from 'kysely'

/** Table types for Kysely. Migrations in ./migrations are the source of truth. */
export interface UsersTable {
  id: Generated<string>
  issuer: string
  subject: string
  email: string
  first_name: ColumnType<string, string | undefined, string>
  last_name: ColumnType<string, string | undefined, string>
  roles: ColumnType<string[], string[] | undefined, string[]>
  locale: string | null
  created_at: ColumnType<Date, Date | undefined, never>
  updated_at: ColumnType<Date, Date | undefined, Date>
  /** 0042: when a token first proved the address (users.ts). */
  email_verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** 0042: when the person closed the account (close-account.ts). */
  closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  // 0012-onboarding: active country, terms acceptance, payout profile.
  country_code: ColumnType<string | null, string | null | undefined, string | null>
  tos_accepted_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  tos_version_accepted: ColumnType<string | null, string | null | undefined, string | null>
  /** Where the terms were accepted from (Stripe's `tos_acceptance.ip` and `user_agent`). */
  tos_accepted_ip: ColumnType<string | null, string | null | undefined, string | null>
  tos_accepted_user_agent: ColumnType<string | null, string | null | undefined, string | null>
  /** A `date` column: read it with to_char(dob, 'YYYY-MM-DD'), write 'YYYY-MM-DD'. */
  dob: ColumnType<unknown, string | null | undefined, string | null>
  phone: ColumnType<string | null, string | null | undefined, string | null>
  phone_country_code: ColumnType<string | null, string | null | undefined, string | null>
  address_line1: ColumnType<string | null, string | null | undefined, string | null>
  address_line2: ColumnType<string | null, string | null | undefined, string | null>
  address_city: ColumnType<string | null, string | null | undefined, string | null>
  address_state: ColumnType<string | null, string | null | undefined, string | null>
  address_postal_code: ColumnType<string | null, string | null | undefined, string | null>
  business_type: ColumnType<'individual' | 'company', 'individual' | 'company' | undefined, 'individual' | 'company'>
  notification_language: ColumnType<string | null, string | null | undefined, string | null>
  business_url: ColumnType<string | null, string | null | undefined, string | null>
  /** When a US seller gave the last four digits of their SSN (to the provider; the digits are not kept here). */
  ssn_last_4_provided_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** The user's latest identity verification session at the payment provider (stripe_identity). */
  verification_session_id: ColumnType<string | null, string | null | undefined, string | null>
  /** 0027: when the user finished or skipped the guided tour (shown once). */
  tour_seen_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

/** Accounts of the embedded sign-in provider (credentials live only here). */
export interface AccountsTable {
  id: string
  email: string
  password_hash: string
  first_name: string
  last_name: string
  locale: string | null
  created_at: ColumnType<Date, Date | undefined, never>
  /** When the person opened the confirmation link e-mailed to them (0017); null until then. */
  email_verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

/** Links that confirm an account's e-mail address (0017): the token's SHA-256 only. */
export interface EmailVerificationTokensTable {
  token_hash: string
  account_id: string
  email: string
  created_at: ColumnType<Date, Date | undefined, never>
  expires_at: Date
  used_at: Date | null
  /** 0042: `confirm` the account's address, or `change` to this new one. */
  purpose: ColumnType<'confirm' | 'change', 'confirm' | 'change' | undefined, never>
}

/** oidc-provider's storage: sessions, grants, codes, tokens, interactions. */
export interface OidcPayloadsTable {
  model: string
  id: string
  payload: ColumnType<Record<string, unknown>, string, string>
  grant_id: string | null
  user_code: string | null
  uid: string | null
  expires_at: Date | null
  consumed_at: Date | null
}

/** Long-lived secrets generated on first start (signing keys, cookie keys). */
export interface ServerSecretsTable {
  name: string
  value: ColumnType<unknown, string, string>
  created_at: ColumnType<Date, Date | undefined, never>
}

/** Recent sign-in attempts of the embedded provider (throttle per account). */
export interface SignInAttemptsTable {
  id: Generated<string>
  account_key: string
  attempted_at: Date
  /** The client address (IPv6: its /64) the attempt came from (0046); null on rows from before. */
  client_key: ColumnType<string | null, string | null | undefined, string | null>
  /** The signed device cookie's id when the browser had signed in to this account before (0046). */
  device_key: ColumnType<string | null, string | null | undefined, string | null>
}

/** An account whose sign-in failed many times lately, and whether its owner was told (0046). */
export interface SignInBurstsTable {
  account_key: string
  started_at: Date
  last_failure_at: Date
  failures: number
  alerted_at: Date | null
}

/** E-mailed password reset links: the SHA-256 of the token, used once (0046). */
export interface PasswordResetTokensTable {
  token_hash: string
  account_id: string
  email: string
  created_at: Date
  expires_at: Date
  used_at: Date | null
}

/** Registrations waiting for their e-mailed link (0047): no account exists until it is opened. */
export interface PendingRegistrationsTable {
  token_hash: string
  email: string
  first_name: string
  last_name: string
  password_hash: string
  locale: string | null
  interaction_uid: string
  created_at: Date
  expires_at: Date
}

/** One row per e-mail a registration sent (link or owner's notice), by the address's SHA-256 (0047). */
export interface RegistrationEmailsTable {
  address_hash: string
  sent_at: Date
}

type Timestamp = Date | null

export interface TransactionsTable {
  id: string
  type: string
  status: string
  /** Null when a partner client invited both parties (guest transactions). */
  creator_id: string | null
  creator_role: string
  buyer_id: string | null
  seller_id: string | null
  price: number
  charge: number
  charge_seller: ColumnType<number, number | undefined, number>
  charge_buyer_client: ColumnType<number, number | undefined, number>
  charge_seller_client: ColumnType<number, number | undefined, number>
  charge_calculator_version: number
  quantity: ColumnType<number, number | undefined, number>
  currency: string
  payment_method: string | null
  description: string
  join_code: string | null
  /** The code its counterparty joined with, once `join_code` is cleared: their replayed join finds it (0040). */
  joined_with_code: ColumnType<string | null, string | null | undefined, string | null>
  client_id: string | null
  /** The listing this sale was bought from; null for one offered by join code. */
  listing_id: ColumnType<string | null, string | null | undefined, string | null>
  high_value: boolean
  is_payment_in_progress: ColumnType<boolean, boolean | undefined, boolean>
  payment_intent_id: string | null
  tracking_carrier: string | null
  tracking_code: string | null
  complaint_description: string | null
  /** 0049: the case a complaint opened: its reason, the seller's response window, when it went to an admin, and every offer. */
  complaint_reason: ColumnType<string | null, string | null | undefined, string | null>
  case_response_deadline: ColumnType<Date | null, Date | null | undefined, Date | null>
  case_escalated_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  settlement_offers: ColumnType<StoredSettlementOffer[], string | undefined, string>
  order_issue_description: string | null
  complaint_period_deadline: Timestamp
  tracking_deadline: Timestamp
  /** The carrier's first "in transit" report (online); a history step, not a state. */
  in_transit: Timestamp
  /** 0051: when the seller last asked the buyer to confirm receipt (online; one reminder a day). */
  receipt_confirmation_requested_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  amount_held: ColumnType<number, number | undefined, number>
  amount_released: ColumnType<number, number | undefined, number>
  amount_refunded: ColumnType<number, number | undefined, number>
  /** Payments sent straight back without being held, each recorded once (0045). */
  returned_payment_intent_ids: ColumnType<string[], string[] | undefined, string[]>
  /** 0057: the card dispute (chargeback.ts), as JSON: amounts in minor units, times as ISO strings. */
  chargeback: ColumnType<StoredChargeback | null, string | null | undefined, string | null>
  /** 0057: the provider's early fraud warning and its clearing. */
  fraud_warning: ColumnType<StoredFraudWarning | null, string | null | undefined, string | null>
  created: Date
  joined: Timestamp
  paid: Timestamp
  tracked: Timestamp
  delivered: Timestamp
  complained: Timestamp
  complaint_period_ended: Timestamp
  funds_released: Timestamp
  cancelled: Timestamp
  rejected: Timestamp
  cancelled_with_payment: Timestamp
  payment_refunded: Timestamp
  total_price: number | null
  remainder_charge: number | null
  remainder_charge_seller: number | null
  remainder_charge_calculator_version: number | null
  remainder_payment_intent_id: string | null
  seller_confirms_handover: ColumnType<boolean, boolean | undefined, boolean>
  cancellation_description: string | null
  deposit_paid: Timestamp
  deposit_accepted: Timestamp
  priced: Timestamp
  remainder_paid: Timestamp
  remainder_skipped: Timestamp
  seller_handover_confirmed: Timestamp
  buyer_handover_confirmed: Timestamp
  cancelled_with_deposit: Timestamp
  deposit_refunded: Timestamp
  updated_at: ColumnType<Date, Date | undefined, Date>
  /** 0062: the code of the public verification page, `/verify/<code>` (22 URL-safe base64 characters, 128 random bits; unique). */
  verify_code: ColumnType<string, string | undefined, never>
}

export interface ListingsTable {
  id: string
  seller_id: string
  listing_type: string
  type: string
  /** For a face-to-face listing, the deposit. */
  price: number
  currency: string
  description: string
  status: ColumnType<string, string | undefined, string>
  client_id: string | null
  created_at: Date
  updated_at: Date
  /** 0053: the short code a buyer can type (10 characters, no hyphen; unique). */
  code: string
}

export interface RateLimitsTable {
  key: string
  count: number
  window_ends_at: Date
}

/** An address that asked for no more invitations, as a keyed hash (invitation-stops.ts). */
export interface StoppedInvitationAddressesTable {
  address_hash: string
  stopped_at: Date
}

export interface ClientsTable {
  id: string
  name: string
  show_seller_confirm_handover: ColumnType<boolean, boolean | undefined, boolean>
  // 0027-partner-clients-and-tour: the look and rules the web app applies.
  background_color: ColumnType<string, string | undefined, string>
  text_color: ColumnType<string, string | undefined, string>
  url: ColumnType<string, string | undefined, string>
  /** Allowed web routes (`/path` or `/path/*`); empty allows every route. */
  routes: ColumnType<string[], string[] | undefined, string[]>
  mobile_navbar_hidden: ColumnType<boolean, boolean | undefined, boolean>
  updated_at: ColumnType<Date, Date | undefined, Date>
  /** SHA-256 of the partner's API key (guest transactions); null: the client has none. */
  api_key_hash: ColumnType<string | null, string | null | undefined, string | null>
  // 0031-client-management
  /** The clients file's entry last applied (canonical JSON); null: the file does not name the client. */
  seeded_settings: ColumnType<string | null, string | null | undefined, string | null>
  api_key_issued_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** 0064: where Pactum writes to the partner about its integration (a disabled webhook endpoint); null: nowhere but support. */
  contact_email: ColumnType<string | null, string | null | undefined, string | null>
}

export interface ClientChangesTable {
  id: Generated<number>
  client_id: string
  action: 'created' | 'updated' | 'seeded_from_file' | 'api_key_issued' | 'api_key_revoked'
  actor_kind: 'admin' | 'operator' | 'configuration'
  actor_user_id: string | null
  settings: ColumnType<Record<string, unknown> | null, string | null, string | null>
  created_at: Date
}

export interface GuestInvitationsTable {
  id: string
  transaction_id: string
  role: 'buyer' | 'seller'
  email: string
  language: string
  /** SHA-256 of the claim link's secret; the secret itself is never stored. */
  secret_hash: string
  claimed_by: string | null
  claimed_at: Date | null
  created_at: Date
  /** The last time the link went out; it expires `guestInvitationValidityDays` later. */
  sent_at: Date
  /** How many e-mails went out, the first included (re-sends are capped). */
  send_count: Generated<number>
}

export interface LedgerEntriesTable {
  id: string
  transaction_id: string
  kind: string
  /** Which payment a hold came from (`payment`, `deposit`, `remainder`). */
  part: ColumnType<string, string | undefined, string>
  reason: string
  created_at: Date
}

export interface LedgerPostingsTable {
  id: Generated<number>
  entry_id: string
  account: string
  amount: number
  currency: string
}

export interface OutboxTable {
  id: string
  transaction_id: string
  action: string
  idempotency_key: string
  payload: ColumnType<Record<string, unknown>, string, string>
  status: ColumnType<string, string | undefined, string>
  attempts: ColumnType<number, number | undefined, number>
  last_error: string | null
  provider_reference: string | null
  created_at: Date
  sent_at: Date | null
}

export interface IdempotencyKeysTable {
  user_id: string
  key: string
  route: string
  request_hash: string
  status_code: number | null
  response_body: ColumnType<unknown, string | null, string | null>
  created_at: Date
  /** Counts the takeovers of a claim whose holder did not answer in time. */
  attempt: Generated<number>
  /** Until when the current attempt holds the key; null once answered. */
  locked_until: Date | null
  /** The transaction the work changed, written in the work's own database transaction. */
  transaction_id: string | null
}

export interface TransactionEventsTable {
  id: Generated<number>
  transaction_id: string
  event: string
  actor_kind: string
  actor_user_id: string | null
  reason: string | null
  from_status: string
  to_status: string
  created_at: Date
}

/** A provider webhook as received (DESIGN §2: de-duplicated by event id). */
export interface ProviderEventsTable {
  id: Generated<string>
  provider: string
  event_id: string
  type: string
  created: Date
  payload: ColumnType<unknown, string, string>
  domain_event: ColumnType<unknown, string | null, string | null>
  received_at: Date
  processed_at: Date | null
}

/** Which Stripe connected account is a user's (adapters/payment-provider/stripe*.ts only). */
/** The profile last forwarded again by the payout requirements, per connected account (0041). */
export interface AccountProfileRepairsTable {
  account_id: string
  profile_fingerprint: string
  answered_at: Date
}

export interface StripeConnectedAccountsTable {
  user_id: string
  account_id: string
  email: string
  country: string
  created_at: Generated<Date>
}

/** Up to when the catch-up job has read Stripe's event list. */
export interface StripeEventCursorTable {
  name: string
  listed_until: Date
  updated_at: Date
}

/** Sandbox payment provider state (adapters/payment-provider/sandbox*.ts only). */
export interface SandboxPaymentIntentsTable {
  id: string
  client_secret: string
  amount: number
  currency: string
  payment_method: string
  status: string
  transaction_id: string
  metadata: ColumnType<Record<string, string>, string, string>
  last_payment_error: ColumnType<Record<string, string> | null, string | null, string | null>
  next_action: ColumnType<Record<string, unknown> | null, string | null, string | null>
  /** What a processing (SEPA) payment will turn into: `succeed` or `fail`. */
  pending_outcome: string | null
  amount_refunded: ColumnType<number, number | undefined, number>
  /** 0056: when it reached the sandbox's balance (its balance transaction's time). */
  succeeded_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  created_at: Date
  updated_at: Date
}

export interface SandboxRefundsTable {
  id: string
  payment_intent_id: string
  amount: number
  currency: string
  status: string
  failure_reason: string | null
  created_at: Date
  updated_at: Date
}

export interface SandboxAccountsTable {
  id: string
  user_id: string
  email: string
  country: string
  /** The sandbox asks for a proof of address after an identity document whose name says `address_no_match`. */
  additional_document_required: Generated<boolean>
  /** US accounts: where the check of the SSN's last four stands, and what it will find (never the digits). */
  ssn_last_4_status: Generated<'not_provided' | 'pending' | 'verified' | 'unmatched'>
  ssn_last_4_outcome: 'verified' | 'unmatched' | null
  /** US accounts whose last four did not match: the full number's check. */
  id_number_status: Generated<'not_provided' | 'pending' | 'verified' | 'rejected'>
  id_number_outcome: 'verified' | 'rejected' | null
  /** What Pactum forwarded (port AccountProfile, as JSON); null until the first forward. */
  profile: ColumnType<unknown, string | null | undefined, string | null>
  created_at: Date
}

export interface SandboxTransfersTable {
  id: string
  destination_account: string
  amount: number
  currency: string
  transaction_id: string
  created_at: Date
}

export interface SandboxIdempotencyKeysTable {
  key: string
  operation: string
  request_hash: string
  response: ColumnType<unknown, string | null, string | null>
  created_at: Date
}

export interface SandboxWebhookDeliveriesTable {
  event_id: string
  type: string
  payload: ColumnType<Record<string, unknown>, string, string>
  created_at: Date
  attempts: ColumnType<number, number | undefined, number>
  last_status: number | null
  delivered_at: Date | null
}

/** Shipments registered with the carrier tracker. */
export interface TrackingRegistrationsTable {
  id: Generated<string>
  provider: string
  carrier: string
  tracking_code: string
  transaction_id: string
  status: string
  created_at: Date
  updated_at: Date
  /** The aggregator's id for the tracking, once it accepted the registration (0033). */
  remote_id: string | null
  /** When the aggregator accepted the registration; null while the job is still trying. */
  remote_registered_at: Date | null
  /** When the aggregator was last asked about the parcel (the fallback for a missed webhook). */
  polled_at: Date | null
  /** 0054: why the aggregator will not follow the parcel (`missing_required_fields`); null while it does or may. */
  refusal: ColumnType<string | null, string | null | undefined, string | null>
  /** 0054: the fields the courier asks for that Pactum could not give. */
  refusal_fields: ColumnType<string[] | null, string[] | null | undefined, string[] | null>
}

/** 0054: a bank link's Item at the provider (Plaid), kept until it is removed there. */
export interface BankLinkItemsTable {
  id: string
  user_id: string
  provider: string
  item_id: string
  /** The provider's access token: a secret, needed only to remove the Item; null once removed. Never logged or returned. */
  access_token: string | null
  /** The payout account the Item backed (the row may be gone since). */
  bank_account_id: string
  linked_at: Date
  removal_requested_at: Date | null
  removed_at: Date | null
}

export interface CarrierEventsTable {
  event_id: string
  registration_id: string
  type: string
  occurred_at: Date
  received_at: Date
  processed_at: Date | null
}

/** The buyer's address collected at checkout (one per transaction). */
export interface ShippingDetailsTable {
  transaction_id: string
  buyer_id: string
  name: string
  line1: string
  line2: string | null
  city: string
  postal_code: string
  country_code: string
  state: string | null
  created_at: Date
  updated_at: Date
}

/** Messages sent through the contact form (0012-onboarding). */
export interface ContactMessagesTable {
  id: Generated<string>
  user_id: string
  name: string | null
  email: string
  subject: string
  message: string
  created_at: Date
  /** When the e-mail to support went out (0016); null until the job has sent it. */
  sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  mail_id: ColumnType<string | null, string | null | undefined, string | null>
}

/** 0043: WebAuthn credentials of embedded sign-in accounts (modules/sign-in/oidc/passkeys.ts). */
export interface PasskeysTable {
  id: string
  account_id: string
  public_key: string
  counter: number
  /** JSON array of the authenticator's transports, as it reported them. */
  transports: string
  device_type: string
  backed_up: boolean
  name: string
  created_at: Date
  last_used_at: Date | null
}

/** 0043: the challenge of a passkey ceremony, used once. */
export interface WebauthnChallengesTable {
  id: string
  purpose: 'register' | 'authenticate'
  account_id: string | null
  interaction_uid: string | null
  challenge: string
  expires_at: Date
  used_at: Date | null
}

/** A card dispute as `transactions.chargeback` keeps it (0057). */
export interface StoredChargeback {
  id: string
  payment_intent_id: string
  status: 'needs_response' | 'under_review' | 'won' | 'lost'
  amount: number
  reason: string
  evidence_due_by: string | null
  opened_at: string
  closed_at: string | null
  froze: boolean
  fee: { amount: number; currency: string } | null
  evidence_submitted_at: string | null
  recovered: number
}

/** An early fraud warning as `transactions.fraud_warning` keeps it (0057). */
export interface StoredFraudWarning {
  id: string
  payment_intent_id: string
  fraud_type: string
  received_at: string
  cleared_at: string | null
}

/** 0057: the sandbox provider's disputes. */
export interface SandboxDisputesTable {
  id: string
  payment_intent_id: string
  amount: number
  currency: string
  status: string
  reason: string
  evidence: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>
  evidence_due_by: Date
  fee_amount: number
  fee_returned: ColumnType<boolean, boolean | undefined, boolean>
  created_at: Date
  updated_at: Date
}

/** 0057: money taken back from a sandbox transfer (Stripe's transfer reversal). */
export interface SandboxTransferReversalsTable {
  id: string
  transfer_id: string
  amount: number
  created_at: Date
}

/** A settlement offer as `transactions.settlement_offers` keeps it (JSON: amounts in minor units, times as ISO strings). */
export interface StoredSettlementOffer {
  id: string
  by: 'buyer' | 'seller'
  refund_to_buyer: number
  release_to_seller: number
  note: string
  made_at: string
  outcome: 'open' | 'accepted' | 'declined' | 'replaced' | 'lapsed'
  answered_at: string | null
}

/** 0048: an account's authenticator app (modules/sign-in/oidc/totp.ts); unconfirmed while being set up. */
export interface TotpFactorsTable {
  account_id: string
  /** Base32, as the app was given it. */
  secret: string
  confirmed_at: Date | null
  /** The 30-second step of the last code accepted: a code works once. */
  last_used_step: number | null
  created_at: Date
}

/** 0048: a sign-in that passed the password and waits for the second factor (modules/sign-in/oidc/second-factor.ts). */
export interface SecondFactorStepsTable {
  interaction_uid: string
  account_id: string
  failures: ColumnType<number, number | undefined, number>
  expires_at: Date
}

/** 0056: a UTC day compared with the payment provider's balance (modules/reconciliation/). */
export interface ReconciliationDaysTable {
  /** YYYY-MM-DD. */
  day: ColumnType<string, string, string>
  provider: string
  reconciled_at: Date
  totals: ColumnType<unknown, string, string>
}

/** 0056: one difference a day's reconciliation found, open until an admin explains it. */
export interface ReconciliationDifferencesTable {
  id: string
  day: ColumnType<string, string, string>
  kind: string
  movement: string
  provider_id: string
  transaction_id: string | null
  ledger_amount: number | null
  ledger_currency: string | null
  provider_amount: number | null
  provider_currency: string | null
  status: ColumnType<'open' | 'explained', 'open' | 'explained' | undefined, 'open' | 'explained'>
  reason: string | null
  explained_by: string | null
  explained_at: Date | null
  found_at: Date
}

/** 0059: an admin's decision, with its reason, on something other than a transaction (admin-repository.ts `adminActions`). */
export interface AdminDecisionsTable {
  /** From `transaction_events`' sequence: the audit log pages both on one id. */
  id: Generated<number>
  decision: 'explain_difference'
  admin_user_id: string
  reason: string
  reconciliation_difference_id: string
  from_status: string
  to_status: string
  created_at: Date
}

/** 0058: a seller's payout to their bank, followed from the provider's Connect events (modules/payouts/). */
export interface SellerPayoutsTable {
  id: string
  provider: string
  payout_id: string
  account_id: string
  amount: number
  currency: string
  status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled'
  arrival_date: Date | null
  failure_code: string | null
  failure_message: string | null
  automatic: boolean
  payout_created: Date
  last_event_id: string
  last_event_at: Date
  failed_at: Date | null
  failure_mailed_at: Date | null
  bank_account_replaced_at: Date | null
  created_at: Date
  updated_at: Date
}

// 0061-partner-webhooks (issue 35).
export interface PartnerEventsTable {
  id: string
  position: Generated<string>
  client_id: string
  transaction_id: string
  sequence: number
  type: string
  payload: ColumnType<Record<string, unknown>, string, string>
  created_at: Date
}

export interface WebhookEndpointsTable {
  id: string
  client_id: string
  url: string
  event_types: ColumnType<string[], string[] | undefined, string[]>
  secret: string
  previous_secret: string | null
  previous_secret_until: Date | null
  disabled_at: Date | null
  disabled_reason: string | null
  created_at: Date
}

export interface WebhookDeliveriesTable {
  event_id: string
  endpoint_id: string
  transaction_id: string
  sequence: number
  status: 'pending' | 'delivered' | 'failed'
  attempts: ColumnType<number, number | undefined, number>
  next_attempt_at: Date
  lease_until: Date | null
  delivered_at: Date | null
  created_at: Date
}

export interface WebhookAttemptsTable {
  id: Generated<string>
  event_id: string
  endpoint_id: string
  attempted_at: Date
  duration_ms: number
  status_code: number | null
  error: string | null
  response_body: string | null
}

export interface Database {
  users: UsersTable
  accounts: AccountsTable
  passkeys: PasskeysTable
  webauthn_challenges: WebauthnChallengesTable
  totp_factors: TotpFactorsTable
  second_factor_steps: SecondFactorStepsTable
  oidc_payloads: OidcPayloadsTable
  server_secrets: ServerSecretsTable
  sign_in_attempts: SignInAttemptsTable
  sign_in_bursts: SignInBurstsTable
  password_reset_tokens: PasswordResetTokensTable
  pending_registrations: PendingRegistrationsTable
  registration_emails: RegistrationEmailsTable
  transactions: TransactionsTable
  listings: ListingsTable
  clients: ClientsTable
  client_changes: ClientChangesTable
  guest_invitations: GuestInvitationsTable
  rate_limits: RateLimitsTable
  stopped_invitation_addresses: StoppedInvitationAddressesTable
  ledger_entries: LedgerEntriesTable
  ledger_postings: LedgerPostingsTable
  outbox: OutboxTable
  reconciliation_days: ReconciliationDaysTable
  reconciliation_differences: ReconciliationDifferencesTable
  admin_decisions: AdminDecisionsTable
  seller_payouts: SellerPayoutsTable
  partner_events: PartnerEventsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  idempotency_keys: IdempotencyKeysTable
  transaction_events: TransactionEventsTable
  provider_events: ProviderEventsTable
  stripe_connected_accounts: StripeConnectedAccountsTable
  account_profile_repairs: AccountProfileRepairsTable
  stripe_event_cursor: StripeEventCursorTable
  sandbox_payment_intents: SandboxPaymentIntentsTable
  sandbox_refunds: SandboxRefundsTable
  sandbox_disputes: SandboxDisputesTable
  sandbox_transfer_reversals: SandboxTransferReversalsTable
  sandbox_accounts: SandboxAccountsTable
  sandbox_transfers: SandboxTransfersTable
  sandbox_idempotency_keys: SandboxIdempotencyKeysTable
  sandbox_webhook_deliveries: SandboxWebhookDeliveriesTable
  tracking_registrations: TrackingRegistrationsTable
  carrier_events: CarrierEventsTable
  shipping_details: ShippingDetailsTable
  contact_messages: ContactMessagesTable
  bank_accounts: BankAccountsTable
  bank_link_items: BankLinkItemsTable
  sandbox_bank_link_tokens: SandboxBankLinkTokensTable
  identity_document_uploads: IdentityDocumentUploadsTable
  sandbox_files: SandboxFilesTable
  sandbox_account_documents: SandboxAccountDocumentsTable
  sandbox_external_accounts: SandboxExternalAccountsTable
  sandbox_spent_bank_tokens: SandboxSpentBankTokensTable
  sandbox_payouts: SandboxPayoutsTable
  sandbox_verification_sessions: SandboxVerificationSessionsTable
  sandbox_account_sessions: SandboxAccountSessionsTable
  notifications: NotificationsTable
  notification_opt_outs: NotificationOptOutsTable
  email_verification_tokens: EmailVerificationTokensTable
  transaction_messages: TransactionMessagesTable
  transaction_message_reads: TransactionMessageReadsTable
}

/** The conversation of a transaction (0050): text, an attachment in the document store, or both. */
export interface TransactionMessagesTable {
  id: string
  transaction_id: string
  author_role: 'buyer' | 'seller' | 'admin'
  author_user_id: string
  text: string | null
  /** The document store's key (`messages/<transaction id>/<message id>`); the five attachment columns are all set or all null. */
  attachment_key: string | null
  attachment_name: string | null
  attachment_content_type: string | null
  attachment_size: number | null
  /** Hex SHA-256 of the bytes as stored. */
  attachment_sha256: string | null
  /** This message caused an e-mail to the other side (not one the reader had turned off): the 10-minute pause counts these. */
  notified: boolean
  created_at: Date
}

/** How far each user has read a conversation (0050): newer messages of others are unread. */
export interface TransactionMessageReadsTable {
  transaction_id: string
  user_id: string
  last_read_message_id: string
}

/** Every identity file a user uploaded (0014); the bytes went to the payment provider. */
export interface IdentityDocumentUploadsTable {
  id: string
  user_id: string
  document: 'identity_document' | 'additional_identity_document'
  side: 'front' | 'back'
  provider_file_id: string
  content_type: string
  size_bytes: number
  sha256: string
  created_at: Date
}

/** The sandbox provider's received files (0014); the bytes are in the document store, DATA_DIR/sandbox-files or S3. */
export interface SandboxFilesTable {
  id: string
  account_id: string
  purpose: string
  file_name: string
  content_type: string
  size_bytes: number
  sha256: string
  created_at: Date
  /** When the bytes were deleted from the document store, after the check and the retention period (0032). */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

export interface SandboxAccountDocumentsTable {
  account_id: string
  document: 'identity_document' | 'additional_identity_document'
  side: 'front' | 'back'
  file_id: string
  status: 'pending' | 'verified' | 'rejected'
  rejection_reason: string | null
  updated_at: Date
}

export interface SandboxExternalAccountsTable {
  account_id: string
  id: string
  country: string
  currency: string
  last4: string
  payout_failure_code: string | null
  updated_at: Date
}

/** Bank-account tokens (`btok_…`) the sandbox has attached: one use each, as at Stripe (0036). */
export interface SandboxSpentBankTokensTable {
  token_sha256: string
  account_id: string
  spent_at: Date
}

export interface SandboxPayoutsTable {
  id: string
  account_id: string
  amount: number
  currency: string
  status: 'in_transit' | 'paid' | 'failed'
  bank_last4: string
  arrival_date: Date
  failure_code: string | null
  failure_message: string | null
  created_at: Date
  updated_at: Date
}

export interface SandboxVerificationSessionsTable {
  id: string
  user_id: string
  client_secret: string
  status: 'requires_input' | 'processing' | 'verified' | 'canceled'
  last_error: string | null
  /** What the hosted page's tester chose; applied when the check finishes. */
  pending_outcome: 'verified' | 'unverified' | null
  /** The connected account, and its Person, the session verifies (Stripe's `related_person`, 0060); both or neither. */
  related_account_id: string | null
  related_person_id: string | null
  created_at: Date
  updated_at: Date
}

export interface SandboxAccountSessionsTable {
  id: string
  account_id: string
  client_secret: string
  expires_at: Date
}

/** Payout bank details, one per user (0013-bank-accounts). */
export interface BankAccountsTable {
  id: string
  user_id: string
  source: 'manual' | 'bank_link'
  scheme: string
  country: string
  currency: string
  account_holder_name: string
  /** The full number: secret, never returned or logged. Null for an account linked through Plaid (0036): the provider got a token, Pactum never saw the number. */
  account_number: string | null
  last4: string
  routing_number: string | null
  account_type: 'checking' | 'savings' | null
  bank_name: string | null
  /** SHA-256 of the bank link's public token and account id that stored it (0038); null for typed details. */
  link_fingerprint: ColumnType<string | null, string | null | undefined, string | null>
  created_at: Date
  updated_at: Date
}

/** The sandbox bank-link provider's tokens (0013-bank-accounts). */
export interface SandboxBankLinkTokensTable {
  token: string
  kind: 'link' | 'public'
  user_id: string
  link_token: string | null
  account_id: string | null
  outcome: 'success' | 'failure' | null
  created_at: Date
  expires_at: Date
  used_at: Date | null
}

/** The state-change e-mails, one row per notification claimed for sending (0015). */
export interface NotificationsTable {
  id: string
  transaction_id: string
  template: string
  recipient_role: 'buyer' | 'seller'
  recipient_user_id: string
  language: string
  key: string
  status: ColumnType<NotificationStatus, NotificationStatus | undefined, NotificationStatus>
  claimed_at: Date | null
  created_at: Date
  sent_at: Date | null
  mail_id: string | null
  /** The mail server's reply when it refused the e-mail for good (status `undeliverable`). */
  failure: ColumnType<string | null, string | null | undefined, string | null>
}

/**
 * `undeliverable`: the mail server refused it for good (a 5xx); it is not tried again.
 * `opted_out` (0052): the recipient turned that kind of e-mail off; nothing was sent, nor will be.
 */
export type NotificationStatus = 'pending' | 'sending' | 'sent' | 'undeliverable' | 'opted_out'

/** 0052: an optional kind of e-mail a person turned off (decision 101); no row means it is sent. */
export interface NotificationOptOutsTable {
  user_id: string
  category: OptionalEmailCategory
  opted_out_at: Date
}
