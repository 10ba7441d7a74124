/**
 * The payment provider, shaped after Stripe (PaymentIntents, Refunds,
 * Connect accounts and Transfers) so that the Stripe adapter is a thin
 * translation. Two adapters: `sandbox.ts` (default, no network) and
 * `stripe.ts`, chosen in `adapters/providers.ts`.
 *
 * Every call that moves money carries an idempotency key derived from
 * (transaction id, action): the same key with the same parameters gives the
 * first answer again, the same key with other parameters is refused.
 * Results arrive asynchronously as webhooks (see payments/payment-event.ts);
 * a call's answer only says what the provider has accepted so far.
 */
export type PaymentMethodType = 'card' | 'sepa' | 'p24'

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_action'
  | 'processing'
  | 'succeeded'
  | 'canceled'

export interface PaymentError {
  /** Stripe's error code: `card_declined`, `incorrect_number`, `invalid_iban`, … */
  code: string
  /** The precise reason (Stripe's decline_code where there is one): `insufficient_funds`, … */
  reason: string
  message: string
}

export interface PaymentIntent {
  id: string
  clientSecret: string
  status: PaymentIntentStatus
  /** Minor units. */
  amount: number
  currency: string
  paymentMethod: PaymentMethodType
  transactionId: string
  metadata: Record<string, string>
  amountRefunded: number
  /** Why the last confirmation failed (the intent then waits for another payment method). */
  lastPaymentError: PaymentError | null
  /** P24: where to send the buyer to authorise. */
  nextAction: { type: 'redirect_to_url'; url: string; returnUrl: string } | null
}

export interface CreatePaymentIntentInput {
  amount: number
  currency: string
  paymentMethod: PaymentMethodType
  transactionId: string
  idempotencyKey: string
  metadata?: Record<string, string>
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed'

export interface Refund {
  id: string
  paymentIntentId: string
  amount: number
  currency: string
  status: RefundStatus
  failureReason: string | null
}

export interface ConnectedAccount {
  id: string
  email: string
  country: string
}

export interface Transfer {
  id: string
  amount: number
  currency: string
  destinationAccount: string
  transactionId: string
}

/** A transfer as listed from a connected account, with when it was made. */
export interface TransferRecord extends Transfer {
  created: Date
}

export interface Money {
  amount: number
  currency: string
}

export interface Balance {
  available: Money[]
  pending: Money[]
}

export type IdentityDocumentKind = 'identity_document' | 'additional_identity_document'
export type DocumentSide = 'front' | 'back'

export interface AccountDocumentSide {
  status: 'not_uploaded' | 'pending' | 'verified' | 'rejected'
  rejectionReason: string | null
}

/**
 * The seller as Pactum keeps them, forwarded to their connected account
 * (Stripe's `individual`, `business_profile` and `tos_acceptance`): the
 * provider asks for these before it pays out, and Pactum's own screens
 * collect them.
 */
export interface AccountProfile {
  firstName: string
  lastName: string
  email: string
  /** E.164, with its dial code. */
  phone: string | null
  dob: { day: number; month: number; year: number } | null
  address: { line1: string; line2: string | null; city: string; state: string | null; postalCode: string | null } | null
  /** A web page about what the seller sells, where they gave one. */
  businessUrl: string | null
  /** When, from where and with what browser the seller accepted the terms, which include the provider's. */
  tosAcceptance: { date: Date; ip: string; userAgent: string | null } | null
}

/** The profile parts the payout requirements screen lists as personal (spec §3 Payout requirements). */
export type PersonalRequirement = 'name' | 'dob' | 'address' | 'phone'

/**
 * Everything the provider can ask for: what Pactum's screens collect, and
 * `provider_onboarding` for the rest (Stripe asks for more in some
 * countries and cases), collected on the provider's own onboarding page.
 */
export type AccountRequirement =
  | IdentityDocumentKind
  | TaxIdentifierKind
  | PersonalRequirement
  | 'external_account'
  | 'tos_acceptance'
  | 'provider_onboarding'

/**
 * A connected account's verification, as Stripe's `individual.verification`
 * and `requirements.currently_due` tell it, in our vocabulary.
 */
export interface AccountVerification {
  documents: Record<IdentityDocumentKind, Record<DocumentSide, AccountDocumentSide>>
  /** What the provider still asks for before it pays out (Stripe: `individual.ssn_last_4`, `individual.id_number`, …). */
  currentlyDue: AccountRequirement[]
  payoutsEnabled: boolean
}

export interface UploadIdentityDocumentInput {
  accountId: string
  document: IdentityDocumentKind
  side: DocumentSide
  /** The name the user's file had; only the sandbox's test rules read it (docs/sandbox.md). */
  fileName: string
  /** Checked by content before this call: application/pdf, image/png or image/jpeg. */
  contentType: string
  bytes: Uint8Array
  idempotencyKey: string
}

/** A US individual's tax identifiers, as Stripe's `individual.ssn_last_4` and `individual.id_number`. */
export type TaxIdentifierKind = 'ssn_last_4' | 'id_number'

export interface TaxIdentifiersInput {
  accountId: string
  /** Four digits. */
  ssnLast4?: string
  /** The full nine-digit SSN, when the provider asks for it. */
  idNumber?: string
  idempotencyKey: string
}

export interface ExternalBankAccountInput {
  accountId: string
  country: string
  currency: string
  /** The full account number or IBAN, as Stripe receives it; the provider keeps only last4. */
  accountNumber: string
  /** Sort code, ABA routing number, BSB, `transit-institution` or bank code (Stripe's `routing_number`); absent for IBAN accounts. */
  routingNumber?: string | undefined
  last4: string
  idempotencyKey: string
}

export type PayoutStatus = 'in_transit' | 'paid' | 'failed'

/** Money paid from a connected account's balance to its bank account. */
export interface Payout {
  id: string
  amount: number
  currency: string
  status: PayoutStatus
  bankLast4: string
  created: Date
  arrivalDate: Date
  failureMessage: string | null
}

export type VerificationSessionStatus = 'requires_input' | 'processing' | 'verified' | 'canceled'

/** A Stripe Identity verification session. */
export interface VerificationSession {
  id: string
  clientSecret: string
  status: VerificationSessionStatus
  /** The hosted page the user verifies on. */
  url: string
  /** Why the last attempt failed (requires_input after processing); null otherwise. */
  lastError: string | null
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe'
  /** For the browser (Stripe.js, or the sandbox's confirm call). */
  readonly publishableKey: string
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent>
  retrievePaymentIntent(id: string): Promise<PaymentIntent>
  /** Before a new intent replaces it (another payment method): an open intent must not be paid as well. */
  cancelPaymentIntent(input: { paymentIntentId: string; idempotencyKey: string }): Promise<PaymentIntent>
  /** Accepted as pending; `refund_succeeded` / `refund_failed` follow. */
  refund(input: { paymentIntentId: string; amount: number; idempotencyKey: string }): Promise<Refund>
  createConnectedAccount(input: {
    userId: string
    email: string
    /** ISO 3166-1 alpha-2, lower case. */
    country: string
    idempotencyKey: string
  }): Promise<ConnectedAccount>
  /** Credits a connected account's balance; `transfer_paid` follows. */
  transfer(input: {
    amount: number
    currency: string
    destinationAccount: string
    transactionId: string
    idempotencyKey: string
  }): Promise<Transfer>
  getBalance(accountId: string): Promise<Balance>
  /** The user's connected account, if one was created; never creates one. */
  findConnectedAccount(userId: string): Promise<ConnectedAccount | null>
  /** The transfers credited to a connected account, newest first. */
  listTransfers(accountId: string): Promise<TransferRecord[]>

  /** Files API upload + attaching it to the account's individual verification; the check follows asynchronously (`account.updated`). */
  uploadIdentityDocument(input: UploadIdentityDocumentInput): Promise<{ fileId: string }>
  getAccountVerification(accountId: string): Promise<AccountVerification>
  /** Hands a US individual's tax identifiers to the account; the check follows asynchronously (`account.updated`). */
  setTaxIdentifiers(input: TaxIdentifiersInput): Promise<void>
  /** Sets (replaces) the account's bank account for payouts. */
  setExternalBankAccount(input: ExternalBankAccountInput): Promise<void>
  /** Attaches a bank-account token (Stripe `btok_…`, e.g. from Plaid's processor integration) as the account's payout bank account, replacing any other. */
  attachBankAccountToken(input: { accountId: string; token: string; idempotencyKey: string }): Promise<{ last4: string }>
  /** Payouts to the bank, newest first. They run on the provider's schedule (`payout.created`, `payout.paid` / `payout.failed`). */
  listPayouts(accountId: string): Promise<Payout[]>
  /** Stripe Identity: a new session, or the same one again for the same idempotency key. */
  createVerificationSession(input: { userId: string; returnUrl: string; idempotencyKey: string }): Promise<VerificationSession>
  retrieveVerificationSession(id: string, returnUrl: string): Promise<VerificationSession>
  /** After a verified Identity session: its document becomes the account's verified identity document (the Stripe adapter copies the session's file). */
  attachVerifiedSession(input: { accountId: string; sessionId: string; idempotencyKey: string }): Promise<void>
  /** For the provider's embedded account components. */
  createAccountSession(accountId: string): Promise<{ clientSecret: string }>
  /** Replaces what the account knows of the seller; the provider checks it asynchronously (`account.updated`). */
  updateAccountProfile(input: { accountId: string; profile: AccountProfile; idempotencyKey: string }): Promise<void>
  /**
   * The provider's own onboarding page, for what `provider_onboarding`
   * stands for: the seller goes there and comes back to `returnUrl`, or to
   * `refreshUrl` when the link expired. Refused (`invalid_state`) when the
   * provider asks nothing that Pactum's screens do not collect.
   */
  createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>
}

export type PaymentProviderErrorCode =
  | 'idempotency_key_reused'
  | 'not_found'
  | 'invalid_request'
  | 'invalid_state'
  | 'amount_too_large'

/** A refusal by the provider (a bug or a race on our side, never the buyer's card: see PaymentError). */
export class PaymentProviderError extends Error {
  readonly code: PaymentProviderErrorCode
  /** The request parameter at fault, where the provider names one (Stripe's `param`). */
  readonly param: string | undefined
  constructor(code: PaymentProviderErrorCode, message: string, options: { param?: string } = {}) {
    super(message)
    this.name = 'PaymentProviderError'
    this.code = code
    this.param = options.param
  }
}
