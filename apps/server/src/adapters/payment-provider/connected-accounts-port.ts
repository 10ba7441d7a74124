import type { Transfer } from './payments-port.ts'

/**
 * The payment provider's connected-accounts port: the seller's account at
 * the provider (Stripe Connect), shaped after Stripe's Accounts, Files,
 * External Accounts, Balance and Payouts. Everything that belongs to that
 * account goes here: its creation, what it knows of the seller (profile,
 * identity documents, tax identifiers), the bank account payouts go to, its
 * balance, the transfers it received and its payouts. Two adapters:
 * `sandbox-connected-accounts.ts` and `stripe-connected-accounts.ts`,
 * chosen in `adapters/providers.ts`. Calls that change the account carry an
 * idempotency key, as payments-port.ts says; the provider's checks follow
 * asynchronously (`account.updated`).
 */
export interface ConnectedAccount {
  id: string
  email: string
  country: string
}

/** A transfer as listed from a connected account, with when it was made. */
export interface TransferRecord extends Transfer {
  created: Date
}

export interface Money {
  amount: number
  currency: string
}

/** One entry per currency the account holds (none for an empty one). */
export interface Balance {
  /**
   * May be below zero: a refund or dispute after the money was paid out
   * leaves the account owing it, which the platform carries until the
   * provider takes it from the account's next payouts.
   */
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
  IdentityDocumentKind | TaxIdentifierKind | PersonalRequirement | 'external_account' | 'tos_acceptance' | 'provider_onboarding'

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

export interface NewConnectedAccountInput {
  userId: string
  email: string
  /** ISO 3166-1 alpha-2, lower case. */
  country: string
  idempotencyKey: string
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

/** Stripe's payout statuses: `pending` until submitted to the bank, then `in_transit`, then `paid`, `failed` or `canceled`. */
export type PayoutStatus = 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled'

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
  /** The provider's failure code (`account_closed`, `no_account`, …), when it failed. */
  failureCode?: string | null
}

export interface ConnectedAccounts {
  createConnectedAccount(input: NewConnectedAccountInput): Promise<ConnectedAccount>
  /** The user's connected account, if one was created; never creates one. */
  findConnectedAccount(userId: string): Promise<ConnectedAccount | null>
  /** Whose connected account this is (the user id it was created for), or null for one Pactum did not create. */
  findAccountOwner(accountId: string): Promise<string | null>
  getBalance(accountId: string): Promise<Balance>
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
  /**
   * The Person the account's identity documents are about (Stripe: the
   * individual's `account.individual.id`): an Identity session made for it
   * (identity-port.ts, `relatedPerson`) verifies the account's identity
   * document once verified.
   */
  personOf(accountId: string): Promise<string>
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
