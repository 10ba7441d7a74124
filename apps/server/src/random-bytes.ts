import { randomFillSync } from 'node:crypto'

/** Drawn this many at a time: some 250 join codes' worth. */
const batchSize = 4096

const batch = new Uint8Array(batchSize)
let used = batchSize

/**
 * Cryptographically random bytes, handed out from a batch drawn ahead, as
 * Node's own randomUUID does: a `randomBytes(16)` for each join code was
 * 5 % of a create's JavaScript (issue 13), most of it the call's own
 * overhead rather than the 16 bytes. Each byte is handed out once, as a
 * copy the caller owns; a request for more than a batch is drawn on its own.
 */
export function randomBytesFromBatch(length: number): Uint8Array {
  if (length > batchSize) return randomFillSync(new Uint8Array(length))
  if (used + length > batchSize) {
    randomFillSync(batch)
    used = 0
  }
  const bytes = batch.slice(used, used + length)
  used += length
  return bytes
}
