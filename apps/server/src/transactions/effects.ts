import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

/**
 * Where the effects that outlive the database commit go: timers and provider
 * calls. Both are enqueued inside the caller's database transaction (a
 * rollback drops them), so a crash can neither lose nor double them.
 */
export interface EffectScheduler {
  scheduleTimer(trx: Kysely<Database>, timer: { transactionId: string; kind: 'tracking_deadline' | 'complaint_window'; at: Date }): Promise<void>
  /** Sends the outbox row `outboxId` to the provider after the commit. */
  dispatchOutbox(trx: Kysely<Database>, outboxId: string): Promise<void>
}
