import type { TimerKind } from '@pactum/domain/transactions/kernel'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import type { NotificationJob } from '../../notifications/notifications-repository.ts'

/**
 * Where the effects that outlive the database commit go: timers, provider
 * calls and e-mails. All are enqueued inside the caller's database
 * transaction (a rollback drops them), so a crash can neither lose nor
 * double them.
 */
export interface EffectScheduler {
  scheduleTimer(trx: Kysely<Database>, timer: { transactionId: string; kind: TimerKind; at: Date }): Promise<void>
  /** Sends the outbox row `outboxId` to the provider after the commit. */
  dispatchOutbox(trx: Kysely<Database>, outboxId: string): Promise<void>
  /**
   * E-mails the parties about the state change after the commit; each
   * `key` makes its sending idempotent. All of one state change's e-mails
   * come in one call, enqueued in one statement.
   */
  notify(trx: Kysely<Database>, notifications: NotificationJob[]): Promise<void>
  /** Sends the transaction's pending partner webhooks after the commit (partner-webhooks/webhook-delivery.ts). */
  deliverWebhooks(trx: Kysely<Database>, transactionId: string): Promise<void>
}
