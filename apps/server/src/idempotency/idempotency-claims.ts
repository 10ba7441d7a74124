import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { AppError } from '../errors.ts'

/**
 * `Idempotency-Key` claims (DESIGN §5: a replay returns the stored result).
 *
 * A request claims its key for `claimLeaseSeconds`. The work it does writes
 * the transaction it changed onto the claim in the work's own database
 * transaction (`recordCommittedWork`), so that whatever happens to the
 * process afterwards, the claim says whether the work committed. A retry
 * then gets the stored answer; or, when the process died before answering,
 * once the lease has run out, the result of the work that committed, or the
 * work done (once) if it never committed. Keys are kept for a day.
 */

export interface IdempotencyClaim {
  userId: string
  key: string
  /** Which holder of the key this is; a takeover after a lapsed lease counts one up. */
  attempt: number
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'answered'; statusCode: number; body: unknown }
  | { kind: 'committed'; claim: IdempotencyClaim; transactionId: string }
  | { kind: 'in_progress'; retryAfterSeconds: number }
  | { kind: 'reused' }

/** Longer than any request takes; a crashed request's key is free again after it. */
export const claimLeaseSeconds = 60
export const keyRetentionSeconds = 24 * 3600

interface ClaimRequest {
  userId: string
  key: string
  route: string
  requestHash: string
}

export async function claimKey(db: Kysely<Database>, request: ClaimRequest, now: Date): Promise<ClaimOutcome> {
  const lockedUntil = new Date(now.getTime() + claimLeaseSeconds * 1000)
  // A key older than a day is forgotten, even before the purge gets to it.
  await db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', request.userId)
    .where('key', '=', request.key)
    .where('created_at', '<', new Date(now.getTime() - keyRetentionSeconds * 1000))
    .execute()
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      user_id: request.userId,
      key: request.key,
      route: request.route,
      request_hash: request.requestHash,
      created_at: now,
      locked_until: lockedUntil,
      response_body: null,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
    .returning('attempt')
    .executeTakeFirst()
  if (inserted) return { kind: 'claimed', claim: { userId: request.userId, key: request.key, attempt: inserted.attempt } }

  const stored = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', request.userId)
    .where('key', '=', request.key)
    .executeTakeFirst()
  // Purged between the two statements: claim it afresh.
  if (!stored) return claimKey(db, request, now)
  if (stored.request_hash !== request.requestHash) return { kind: 'reused' }
  if (stored.status_code !== null) return { kind: 'answered', statusCode: stored.status_code, body: stored.response_body }
  if (stored.locked_until && stored.locked_until > now) {
    return { kind: 'in_progress', retryAfterSeconds: Math.max(1, Math.ceil((stored.locked_until.getTime() - now.getTime()) / 1000)) }
  }
  // The holder died (or answered 5xx) without storing an answer: take the key
  // over. The update waits for a holder whose work is still committing, and
  // then sees what it wrote.
  const takenOver = await db
    .updateTable('idempotency_keys')
    .set((eb) => ({ attempt: eb('attempt', '+', 1), locked_until: lockedUntil }))
    .where('user_id', '=', request.userId)
    .where('key', '=', request.key)
    .where('status_code', 'is', null)
    .where('attempt', '=', stored.attempt)
    .returning(['attempt', 'transaction_id'])
    .executeTakeFirst()
  if (!takenOver) return claimKey(db, request, now)
  const claim = { userId: request.userId, key: request.key, attempt: takenOver.attempt }
  return takenOver.transaction_id ? { kind: 'committed', claim, transactionId: takenOver.transaction_id } : { kind: 'claimed', claim }
}

/**
 * Writes, in the work's own database transaction, that the work of this
 * claim changed `transactionId`. Refuses (rolling the work back) when the
 * claim was taken over meanwhile: the request that holds it now does the work.
 */
export async function recordCommittedWork(trx: Kysely<Database>, claim: IdempotencyClaim, transactionId: string): Promise<void> {
  const recorded = await trx
    .updateTable('idempotency_keys')
    .set({ transaction_id: transactionId })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('attempt', '=', claim.attempt)
    .where('status_code', 'is', null)
    .executeTakeFirst()
  if (recorded.numUpdatedRows === 0n) {
    throw new AppError('idempotency_request_in_progress', 'A later request with this Idempotency-Key has taken over', {
      headers: { 'retry-after': '1' },
    })
  }
}

/** Keeps the answer for replays and lets go of the key. */
export async function storeAnswer(db: Kysely<Database>, claim: IdempotencyClaim, statusCode: number, body: string | null): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response_body: body, locked_until: null })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('attempt', '=', claim.attempt)
    .execute()
}

/**
 * After a server error: the key is free at once for a retry, which then
 * learns whether the work committed before the error.
 */
export async function releaseClaim(db: Kysely<Database>, claim: IdempotencyClaim, now: Date): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ locked_until: now })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('attempt', '=', claim.attempt)
    .execute()
}

export async function purgeIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - keyRetentionSeconds * 1000))
    .execute()
}
