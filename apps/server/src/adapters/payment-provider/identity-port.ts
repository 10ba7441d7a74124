/**
 * The payment provider's identity port: Stripe Identity's verification
 * sessions, where a user shows a document on the provider's hosted page.
 * A verified session's document then verifies the seller's connected
 * account (`attachVerifiedSession`, connected-accounts-port.ts). Two
 * adapters: `sandbox-identity.ts` (its hosted page in
 * sandbox-identity-routes.ts) and `stripe-identity.ts`, chosen in
 * `adapters/providers.ts`.
 */
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

export interface IdentityVerification {
  /** A new session, or the same one again for the same idempotency key. */
  createVerificationSession(input: { userId: string; returnUrl: string; idempotencyKey: string }): Promise<VerificationSession>
  retrieveVerificationSession(id: string, returnUrl: string): Promise<VerificationSession>
}
