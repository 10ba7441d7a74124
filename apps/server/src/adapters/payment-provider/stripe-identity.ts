import type Stripe from 'stripe'
import type { IdentityVerification, RelatedPerson, VerificationSession, VerificationSessionStatus } from './identity-port.ts'
import { callStripe } from './stripe-errors.ts'

/**
 * Identity on Stripe (identity-port.ts): a `document` VerificationSession
 * per attempt, on the platform. Made with `related_person` (the seller's
 * connected account and its individual's Person), Stripe attaches what it
 * collected to that Person once verified, fulfilling the account's
 * `individual.verification.document` (changelog 2025-06-30.basil). Pactum
 * never reads the document images: Stripe serves them to restricted keys
 * only, for 48 hours.
 */
export class StripeIdentity implements IdentityVerification {
  readonly #stripe: Stripe
  /** Pactum's own address (PUBLIC_URL): Stripe sends people back to absolute URLs only. */
  readonly #publicUrl: string

  constructor(options: { stripe: Stripe; publicUrl: string }) {
    this.#stripe = options.stripe
    this.#publicUrl = options.publicUrl
  }

  async createVerificationSession(input: {
    userId: string
    returnUrl: string
    idempotencyKey: string
    relatedPerson?: RelatedPerson
  }): Promise<VerificationSession> {
    const { relatedPerson } = input
    const session = await callStripe(() =>
      this.#stripe.identity.verificationSessions.create(
        {
          type: 'document',
          return_url: new URL(input.returnUrl, this.#publicUrl).toString(),
          metadata: { user_id: input.userId },
          ...(relatedPerson ? { related_person: { account: relatedPerson.accountId, person: relatedPerson.personId } } : {}),
        },
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
    // Optional in the SDK (`related_person?:`): absent on a session made for no account.
    relatedPerson: session.related_person ? { accountId: session.related_person.account, personId: session.related_person.person } : null,
  }
}
