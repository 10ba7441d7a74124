import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { NotificationJob } from '../notifications/send-notification.ts'

/**
 * Where the effects that outlive the database commit go: timers, provider
 * calls and e-mails. All are enqueued inside the caller's database
 * transaction (a rollback drops them), so a crash can neither lose nor
 * double them.
 */
export interface EffectScheduler {
  scheduleTimer(trx: Kysely<Database>, timer: { transactionId: string; kind: 'tracking_deadline' | 'complaint_window'; at: Date }): Promise<void>
  /** Sends the outbox row `outboxId` to the provider after the commit. */
  dispatchOutbox(trx: Kysely<Database>, outboxId: string): Promise<void>
  /** E-mails one party about the state change after the commit; `key` makes the sending idempotent. */
  notify(trx: Kysely<Database>, notification: NotificationJob): Promise<void>
}
