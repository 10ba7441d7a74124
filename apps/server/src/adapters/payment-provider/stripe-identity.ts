import type Stripe from 'stripe'
import type { IdentityVerification, VerificationSession, VerificationSessionStatus } from './identity-port.ts'
import { callStripe } from './stripe-errors.ts'

/**
 * Identity on Stripe (identity-port.ts): a `document` VerificationSession
 * per attempt, on the platform. Its document reaches the seller's connected
 * account through `attachVerifiedSession` (stripe-connected-accounts.ts).
 */
export class StripeIdentity implements IdentityVerification {
  readonly #stripe: Stripe
  /** Pactum's own address (PUBLIC_URL): Stripe sends people back to absolute URLs only. */
  readonly #publicUrl: string

  constructor(options: { stripe: Stripe; publicUrl: string }) {
    this.#stripe = options.stripe
    this.#publicUrl = options.publicUrl
  }

  async createVerificationSession(input: { userId: string; returnUrl: string; idempotencyKey: string }): Promise<VerificationSession> {
    const session = await callStripe(() =>
      this.#stripe.identity.verificationSessions.create(
        { type: 'document', return_url: new URL(input.returnUrl, this.#publicUrl).toString(), metadata: { user_id: input.userId } },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
    return toVerificationSession(session)
  }

  async retrieveVerificationSession(id: string, _returnUrl: string): Promise<VerificationSession> {
    // Stripe keeps the return URL given at creation; the hosted page's URL is only there while input is required.
    return toVerificationSession(await callStripe(() => this.#stripe.identity.verificationSessions.retrieve(id)))
  }
}

const sessionStatuses: Record<string, VerificationSessionStatus> = {
  requires_input: 'requires_input',
  processing: 'processing',
  verified: 'verified',
  canceled: 'canceled',
}

function toVerificationSession(session: Stripe.Identity.VerificationSession): VerificationSession {
  return {
    id: session.id,
    clientSecret: session.client_secret ?? '',
    status: sessionStatuses[session.status] ?? 'requires_input',
    url: session.url ?? '',
    lastError: session.last_error?.code ?? session.last_error?.reason ?? null,
  }
}
