import { createHash, randomUUID } from 'node:crypto'

/**
 * The id of one e-mail, the Message-ID's local part: derived from the
 * message's `key` when it has one (stable across retries), fresh otherwise.
 * UUID-shaped either way, so ids look alike wherever they are stored.
 */
export function mailIdFor(key: string | undefined): string {
  if (key === undefined) return randomUUID()
  const hex = createHash('sha256').update(`pactum-mail:${key}`).digest('hex')
  // RFC 9562 version 8 (custom) with the variant bits set: a valid UUID that says it is not random.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
