import { randomBytes } from 'node:crypto'

let lastMs = -1
let sequence = 0

/**
 * UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit
 * sequence (RFC 9562 §6.2 method 1) so that ids made in the same
 * millisecond by this process still sort in creation order, then
 * randomness. Ids sort by creation time, so "newest first" keyset
 * pagination needs only the id.
 */
export function uuidV7(now: Date): string {
  let ms = now.getTime()
  if (ms <= lastMs) {
    sequence += 1
    if (sequence > 0xfff) {
      // More than 4096 ids in one millisecond: borrow the next millisecond.
      lastMs += 1
      sequence = 0
    }
    ms = lastMs
  } else {
    lastMs = ms
    sequence = 0
  }
  const bytes = randomBytes(16)
  const time = BigInt(ms)
  for (let i = 0; i < 6; i++) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = 0x70 | (sequence >> 8)
  bytes[7] = sequence & 0xff
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
