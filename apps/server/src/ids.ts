import { randomUUID } from 'node:crypto'

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
  // The last 62 random bits and the variant come from randomUUID, which
  // draws from a cached batch of entropy: a randomBytes(16) per id was 3 %
  // of a create's time (issue 13).
  const time = ms.toString(16).padStart(12, '0')
  const versionAndSequence = (0x7000 | sequence).toString(16)
  return `${time.slice(0, 8)}-${time.slice(8)}-${versionAndSequence}-${randomUUID().slice(19)}`
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
