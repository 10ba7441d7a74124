import { createHash } from 'node:crypto'
import { normaliseEmail } from './email-address.ts'

/**
 * A fixed namespace so that the ids are Pactum's own and cannot be confused
 * with the hash of the bare address elsewhere. Never change it: it is part of
 * every user's `sub`.
 */
const namespace = 'pactum:embedded-sign-in:account:v1:'

/**
 * The account id (the token's `sub`) of an e-mail address: deterministic so
 * that the command line can mint a token for an address without the database,
 * and the API finds the same user as after a browser sign-in. UUID-shaped
 * (version 8, "custom") from SHA-256 of the normalised address.
 */
export function accountIdForEmail(email: string): string {
  const bytes = createHash('sha256')
    .update(namespace + normaliseEmail(email))
    .digest()
    .subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x80
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
