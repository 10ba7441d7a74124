import { defaultApiBaseUrl } from '../api/api-client.ts'

/**
 * The browser's side of the embedded payment provider (DESIGN §1, §5): what
 * Stripe.js does against Stripe, the app does against `/sandbox/v1`. The
 * provider is called directly, without our bearer token, as Stripe.js would be.
 */

export type PaymentDetails = { card_number: string } | { iban: string } | { return_url: string }

export type ConfirmOutcome = { status: 'succeeded' } | { status: 'processing' } | { status: 'requires_action'; redirectTo: string }

/** A refusal by the provider: `card_declined`, `insufficient_funds`, `invalid_card`, or `payment_failed`. */
export class PaymentError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.name = 'PaymentError'
    this.code = code
  }
}

/** The provider lives beside the API: `/api/v1` → `/sandbox/v1` on the same origin. */
export function sandboxBaseUrl(apiBaseUrl: string = defaultApiBaseUrl): string {
  const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin
  const api = new URL(apiBaseUrl, origin)
  const base = `${api.origin}/sandbox/v1`
  return api.origin === origin ? '/sandbox/v1' : base
}

interface ConfirmResponse {
  status?: string
  next_action?: { redirect_to_url?: string | { url?: string } }
  last_payment_error?: { code?: string; reason?: string; message?: string } | null
  code?: string
  error?: string | { code?: string; message?: string }
}

/**
 * The provider's refusal in our vocabulary. Stripe reports insufficient funds
 * as `card_declined` with a decline code; the sandbox passes that as `reason`.
 */
export function paymentErrorCode(error: { code?: string; reason?: string }): string {
  const reason = error.reason ?? error.code
  switch (reason) {
    case 'insufficient_funds':
      return 'insufficient_funds'
    case 'incorrect_number':
    case 'invalid_number':
    case 'invalid_card':
      return 'invalid_card'
    case 'expired_card':
    case 'invalid_iban':
      return reason
    case 'card_declined':
    case 'incorrect_cvc':
    case 'lost_card':
    case 'stolen_card':
      return 'card_declined'
    default:
      return error.code === 'card_declined' ? 'card_declined' : 'payment_failed'
  }
}

function redirectUrl(body: ConfirmResponse): string | undefined {
  const target = body.next_action?.redirect_to_url
  return typeof target === 'string' ? target : target?.url
}

export async function confirmSandboxPayment(
  paymentIntentId: string,
  clientSecret: string,
  details: PaymentDetails,
  { fetch: doFetch = (input, init) => fetch(input, init) }: { fetch?: typeof fetch } = {},
): Promise<ConfirmOutcome> {
  let response: Response
  try {
    response = await doFetch(`${sandboxBaseUrl()}/payment_intents/${encodeURIComponent(paymentIntentId)}/confirm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ client_secret: clientSecret, ...details }),
    })
  } catch (cause) {
    throw new PaymentError('network_error', String(cause))
  }
  const body = ((await response.json().catch(() => ({}))) ?? {}) as ConfirmResponse
  const nestedCode = typeof body.error === 'object' ? body.error?.code : undefined
  if (!response.ok) {
    const raw = body.code ?? nestedCode ?? 'payment_failed'
    // Our API's own codes (not_found, invalid_state, rate_limited…) pass through; provider codes are mapped.
    const code = ['card_declined', 'insufficient_funds', 'incorrect_number', 'expired_card', 'invalid_iban', 'invalid_card'].includes(raw)
      ? paymentErrorCode({ code: raw })
      : raw
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? `HTTP ${response.status}`)
    throw new PaymentError(code, message)
  }
  // A refused card answers 200 with the intent back in `requires_payment_method`, ready for another card.
  if (body.last_payment_error && body.status !== 'succeeded' && body.status !== 'processing') {
    throw new PaymentError(paymentErrorCode(body.last_payment_error), body.last_payment_error.message ?? 'declined')
  }
  if (body.status === 'succeeded') return { status: 'succeeded' }
  if (body.status === 'processing') return { status: 'processing' }
  const url = redirectUrl(body)
  if (body.status === 'requires_action' && url) return { status: 'requires_action', redirectTo: url }
  throw new PaymentError(body.code ?? nestedCode ?? 'payment_failed', `unexpected status ${body.status ?? 'none'}`)
}
