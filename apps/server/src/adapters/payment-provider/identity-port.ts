/**
 * The payment provider's identity port: Stripe Identity's verification
 * sessions, where a user shows a document on the provider's hosted page.
 * A session made for the Person of the user's connected account
 * (`relatedPerson`) verifies that account's identity document once the
 * session is verified: the provider attaches it itself, and no file passes
 * through Pactum. Two adapters: `sandbox-identity.ts` (its hosted page in
 * sandbox-identity-routes.ts) and `stripe-identity.ts`, chosen in
 * `adapters/providers.ts`.
 */
export type VerificationSessionStatus = 'requires_input' | 'processing' | 'verified' | 'canceled'

/** The connected account, and its Person (Stripe: `account.individual.id`), a session verifies. */
export interface RelatedPerson {
  accountId: string
  personId: string
}

/** A Stripe Identity verification session. */
export interface VerificationSession {
  id: string
  clientSecret: string
  status: VerificationSessionStatus
  /** The hosted page the user verifies on. */
  url: string
  /** Why the last attempt failed (requires_input after processing); null otherwise. */
  lastError: string | null
  /** Whose account's document the session verifies; null for a session made for no account. */
  relatedPerson: RelatedPerson | null
}

export interface IdentityVerification {
  /** A new session, or the same one again for the same idempotency key. */
  createVerificationSession(input: {
    userId: string
    returnUrl: string
    idempotencyKey: string
    /** Must be the account's own Person (`ConnectedAccounts.personOf`); refused otherwise (`invalid_request`, or `not_found`). */
    relatedPerson?: RelatedPerson
  }): Promise<VerificationSession>
  retrieveVerificationSession(id: string, returnUrl: string): Promise<VerificationSession>
}
