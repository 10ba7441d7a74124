import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Stripe's webhook signature scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>">`. Several v1 entries may be present (during a secret
 * rotation); one matching is enough. The timestamp bounds replays.
 */
export const signatureToleranceSeconds = 300

export function signWebhook(rawBody: string | Buffer, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmac(rawBody, secret, timestamp)}`
}

/** The sandbox provider's delivery of `event` to Pactum's webhook route, signed with `secret` at `at`: what `app.inject` takes. */
export function sandboxDelivery(event: unknown, secret: string, at: Date) {
  const payload = JSON.stringify(event)
  const signature = signWebhook(payload, secret, Math.floor(at.getTime() / 1000))
  return {
    method: 'POST' as const,
    url: '/webhooks/sandbox',
    headers: { 'content-type': 'application/json', 'pactum-signature': signature, 'user-agent': 'Pactum-Sandbox/1.0' },
    payload,
  }
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' }

export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = signatureToleranceSeconds,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' }
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value)
  }
  if (timestamp === undefined || signatures.length === 0) return { ok: false, reason: 'malformed' }
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' }
  const expected = Buffer.from(hmac(rawBody, secret, timestamp), 'hex')
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected))
  return matches ? { ok: true } : { ok: false, reason: 'mismatch' }
}

function hmac(rawBody: string | Buffer, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')
}
