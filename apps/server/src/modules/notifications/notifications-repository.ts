import type { NotifyTemplate, Party, ReturnReason } from '@pactum/domain/transactions/kernel'

/**
 * One state-change e-mail as the engine enqueues it, in the state change's
 * own database transaction (EffectScheduler.notify), and as the
 * send-notification job (send-notification.ts) reads it back.
 */
export interface NotificationJob {
  transactionId: string
  template: NotifyTemplate
  to: Party
  /** Unique per e-mail: the state change's audit event, the template and the recipient. */
  key: string
  /** A payment sent straight back (`payment_returned`): how much, and why. */
  returned?: { amount: number; reason: ReturnReason }
}
