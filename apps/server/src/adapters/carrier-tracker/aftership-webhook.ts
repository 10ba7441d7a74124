import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { aftershipTrackingSchema } from './aftership-api.ts'

/**
 * AfterShip's webhook: a POST whose header `aftership-hmac-sha256` is the
 * base64 HMAC-SHA256 of the raw body with the account's webhook secret
 * (no timestamp in the scheme: replays are harmless because events are
 * recorded once by id). The body is `{ event, event_id, ts, msg }`, `msg`
 * being the tracking as the API returns it.
 */
export const aftershipSignatureHeader = 'aftership-hmac-sha256'

export function signAftershipWebhook(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64')
}

/** Constant-time over the decoded bytes; a missing or malformed header is simply not a match. */
export function verifyAftershipSignature(header: string | undefined, rawBody: Buffer, secret: string): boolean {
  if (!header || !/^[A-Za-z0-9+/]{43}=$/.test(header.trim())) return false
  const given = Buffer.from(header.trim(), 'base64')
  const expected = Buffer.from(signAftershipWebhook(rawBody, secret), 'base64')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export const aftershipWebhookSchema = z.looseObject({
  event: z.string(),
  event_id: z.string().nullish(),
  ts: z.number().nullish(),
  msg: aftershipTrackingSchema,
})
