import type { TimerKind } from '@pactum/domain/transactions/kernel'
import type { TransactionEvent } from '@pactum/domain/transactions/transaction'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { CarrierEvent } from '../../adapters/carrier-tracker/port.ts'
import type { ConnectedAccounts } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { Payments, Refund } from '../../adapters/payment-provider/payments-port.ts'
import type { Database } from '../../db/schema.ts'
import { crashPoint } from '../../crash-points.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import { AppError } from '../../errors.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { NotificationJob } from '../notifications/notifications-repository.ts'
import { notificationQueue } from '../notifications/send-notification.ts'
import type { PaymentEvent } from '../payments/payment-event.ts'
import { sendOutboxRow } from '../notifications/outbox-dispatcher.ts'
import type { ProviderPace } from '../../adapters/payment-provider/provider-pace.ts'
import { enqueueStaffAlert } from '../notifications/staff-alerts.ts'
import { createWebhookQueue, enqueueWebhookDelivery } from '../partner-webhooks/webhook-delivery.ts'
import { actAsSystem } from './act-as-party.ts'
import { applyEvent, applyEvents, type TransactionDeps } from './engine/apply-event.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import type { EffectScheduler } from './engine/effects.ts'
import { lockById, lockManyById } from './transactions-repository.ts'
import type { Tracing } from '../../tracing/tracing.ts'

const timerQueue = 'transaction-timer'
const outboxQueue = 'outbox-send'

type TimerJob = { transactionId: string; kind: TimerKind }
/**
 * Timers fired in one database transaction, written with one statement of
 * each kind (applyEvents): one commit for many, yet row locks held only for
 * a few statements. On PostgreSQL, 100 to a group and 400 fetched at once
 * drained 2,210 releases a second with the timer worker alone, against 1,000
 * with 10 and 80 (decision 124); 200 and 800 drained 100,000 in 49 s where
 * 100 and 400 took 63 s, the other queues giving way (decision 125). PGlite
 * runs every statement on the server's one thread, where a request waits
 * for it: 50 and 100 kept its longest wait near 0.3 s (0.8 s at 200 and 800)
 * while still draining 1,000 a second.
 */
const timerBatches = {
  postgres: { fetched: 800, group: 200 },
  embedded: { fetched: 100, group: 50 },
}
type OutboxJob = { outboxId: string }

const timerEvents: Record<TimerJob['kind'], TransactionEvent> = {
  tracking_deadline: { type: 'tracking_deadline_elapsed' },
  complaint_window: { type: 'complaint_window_elapsed' },
  case_response: { type: 'case_response_elapsed' },
}

/** Timers, outbox sends and e-mails as jobs enqueued in the state change's own database transaction. */
export function jobEffectScheduler(jobs: JobQueue): EffectScheduler {
  return {
    scheduleTimer: async (trx, timer) => {
      await jobs.send<TimerJob>(timerQueue, { transactionId: timer.transactionId, kind: timer.kind }, { startAfter: timer.at, db: trx })
    },
    dispatchOutbox: async (trx, outboxId) => {
      await jobs.send<OutboxJob>(outboxQueue, { outboxId }, { db: trx })
    },
    notify: async (trx, notifications) => {
      await jobs.sendMany<NotificationJob>(
        notificationQueue,
        notifications.map((data) => ({ data })),
        { db: trx },
      )
    },
    deliverWebhooks: async (trx, transactionId) => {
      await enqueueWebhookDelivery(jobs, trx, transactionId)
    },
  }
}

/**
 * The same jobs, kept until `flush` enqueues them, one statement per queue,
 * for work that applies many events in one database transaction. `flush`
 * must run in that transaction, before it commits.
 */
export function bufferedJobEffects(jobs: JobQueue): { scheduler: EffectScheduler; flush(trx: Kysely<Database>): Promise<void> } {
  const timers: Array<{ data: TimerJob; startAfter: Date }> = []
  const outbox: Array<{ data: OutboxJob }> = []
  const notifications: Array<{ data: NotificationJob }> = []
  const webhooks = new Set<string>()
  return {
    scheduler: {
      scheduleTimer: async (_trx, timer) => {
        timers.push({ data: { transactionId: timer.transactionId, kind: timer.kind }, startAfter: timer.at })
      },
      dispatchOutbox: async (_trx, outboxId) => {
        outbox.push({ data: { outboxId } })
      },
      notify: async (_trx, list) => {
        notifications.push(...list.map((data) => ({ data })))
      },
      deliverWebhooks: async (_trx, transactionId) => {
        webhooks.add(transactionId)
      },
    },
    flush: async (trx) => {
      await jobs.sendMany(timerQueue, timers.splice(0), { db: trx })
      await jobs.sendMany(outboxQueue, outbox.splice(0), { db: trx })
      await jobs.sendMany(notificationQueue, notifications.splice(0), { db: trx })
      for (const transactionId of webhooks) await enqueueWebhookDelivery(jobs, trx, transactionId)
      webhooks.clear()
    },
  }
}

/**
 * Fires several due timers in one database transaction: their rows locked
 * in one statement, one commit, and the jobs they cause enqueued together,
 * instead of one of each per timer. Rows are locked in id order, so two
 * processes firing overlapping groups wait for each other instead of
 * deadlocking; each timer is still re-checked by the domain under the lock.
 */
export async function fireTimers(deps: TransactionDeps, jobs: JobQueue, timers: TimerJob[]): Promise<void> {
  const buffered = bufferedJobEffects(jobs)
  const groupDeps = { ...deps, effects: buffered.scheduler }
  const system = { actor: { kind: 'system' as const }, actorUserId: null }
  await deps.db.transaction().execute(async (trx) => {
    const rows = await lockManyById(
      trx,
      timers.map((timer) => timer.transactionId),
    )
    // Decided one by one (two timers of one transaction in the group: the
    // second sees what the first did), written with one statement of each kind.
    const items = timers.flatMap((timer) => {
      const row = rows.get(timer.transactionId)
      return row ? [{ row, event: timerEvents[timer.kind], context: system }] : []
    })
    await applyEvents(groupDeps, trx, items)
    await buffered.flush(trx)
  })
  crashPoint('timer.after-commit')
}

function timerBatchesOf(jobs: JobQueue): (typeof timerBatches)['postgres'] {
  return jobs.embedded ? timerBatches.embedded : timerBatches.postgres
}

export async function createTransactionQueues(jobs: JobQueue): Promise<void> {
  // Concurrency is also priority: jobs in flight share the database's
  // connections. Timers move money on a deadline (a release, a refund for
  // missed tracking), and those of a busy moment (every sale delivered
  // yesterday at noon) fall due together, so they get the most, and the other
  // queues give way while they have a backlog (urgent). The transfers and
  // e-mails they cause follow at a steadier pace.
  await jobs.createQueue(timerQueue, {
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    concurrency: timerBatchesOf(jobs).fetched,
    urgent: true,
  })
  // Enough at once that the provider's pace (ProviderPace), not this, limits how fast releases are paid:
  // a fetch of 20 calls spaced 1/90 s apart waits for its last call before the next fetch, and with one
  // fetch at a time the transfers went out at 59–74 a second against a pace of 90 (issue 36).
  await jobs.createQueue(outboxQueue, {
    retryLimit: 20,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    concurrency: 20,
    workers: 3,
  })
  // Partner webhooks are enqueued by the engine too (deliverWebhooks).
  await createWebhookQueue(jobs)
}

/**
 * The workers and event handlers that move transactions without a person:
 * timers (re-checked under the row lock by the domain: a complaint that
 * committed first wins), provider calls from the outbox, and provider and
 * carrier news.
 */
export async function startTransactionWorkers(options: {
  deps: TransactionDeps
  jobs: JobQueue
  events: EventHandlers
  payments: Payments
  connectedAccounts: ConnectedAccounts
  /** The outbox's pace of provider calls (PROVIDER_MAX_REQUESTS_PER_SECOND). */
  pace: ProviderPace
  /** Told of each outbox call that failed, by kind (the metrics' pactum_outbox_failed_total). */
  outboxFailed?: (kind: string) => void
  /** Spans around the outbox's provider calls (tracing/tracing.ts); none when left out. */
  tracing?: Tracing
  log: FastifyBaseLogger
}): Promise<void> {
  const { deps, jobs, events, payments, connectedAccounts, pace, outboxFailed, tracing, log } = options

  await jobs.work<TimerJob>(
    timerQueue,
    async (job) => {
      await actAsSystem(deps, job.transactionId, timerEvents[job.kind])
      crashPoint('timer.after-commit')
    },
    { groups: { size: timerBatchesOf(jobs).group, run: (timers) => fireTimers(deps, jobs, timers) } },
  )

  await jobs.work<OutboxJob>(outboxQueue, async (job) => {
    const sent = await sendOutboxRow(
      deps.db,
      { payments, connectedAccounts, pace, ...(outboxFailed ? { failed: outboxFailed } : {}), ...(tracing ? { tracing } : {}) },
      job.outboxId,
      deps.clock.now(),
    )
    // A card refund is settled when it is made: the answer says so, and the
    // transaction need not wait for the webhook (which then changes nothing).
    if (sent?.action === 'refund' && sent.refund.status !== 'pending') {
      await deps.db.transaction().execute(async (trx) => {
        await applyPaymentEvent(deps, jobs, trx, refundSettledEvent(sent.transactionId, sent.refund, payments.name, deps.clock.now()), log)
      })
    }
  })

  events.registerPaymentEventHandler(async (event, context) => {
    await applyPaymentEvent(deps, jobs, context.db, event, log)
  })
  events.registerCarrierEventHandler(async (event, context) => {
    await applyCarrierEvent(deps, context.db, event)
  })
}

async function applyPaymentEvent(
  deps: TransactionDeps,
  jobs: JobQueue,
  trx: Kysely<Database>,
  event: PaymentEvent,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!event.transactionId) {
    // A dispute or warning on a payment no sale names (one sent back and replaced): an operator looks.
    if (event.type === 'dispute_changed' || event.type === 'early_fraud_warning') {
      log.error({ paymentIntentId: event.paymentIntentId, event: event.type }, 'provider news on a payment no transaction names')
    }
    return
  }
  // A transfer's news changes nothing here (the release was booked when it was decided): no row to lock for it.
  if (event.type === 'transfer_paid') return
  const row = await lockById(trx, event.transactionId)
  if (!row) return
  const system = { actor: { kind: 'system' as const }, actorUserId: null }
  switch (event.type) {
    case 'payment_processing':
      if (event.paymentIntentId)
        await applyIgnoringRefusal(deps, trx, row, { type: 'payment_started', paymentIntentId: event.paymentIntentId }, system, log)
      return
    case 'payment_succeeded':
      // Money the transaction will not hold is sent back by the state machine's own refund.
      if (event.paymentIntentId)
        await applyEvent(
          deps,
          trx,
          row,
          { type: 'payment_succeeded', paymentIntentId: event.paymentIntentId, amount: event.amount },
          system,
        )
      return
    case 'payment_failed':
      if (event.paymentIntentId)
        await applyIgnoringRefusal(deps, trx, row, { type: 'payment_failed', paymentIntentId: event.paymentIntentId }, system, log)
      return
    case 'refund_succeeded':
      await applyIgnoringRefusal(
        deps,
        trx,
        row,
        { type: 'refund_succeeded', ...(event.paymentIntentId ? { paymentIntentId: event.paymentIntentId } : {}) },
        system,
        log,
      )
      return
    case 'refund_failed':
      log.error({ transactionId: row.id, reason: event.reason }, 'a refund failed at the provider: needs an operator')
      return
    case 'dispute_changed':
      if (event.dispute && event.paymentIntentId) {
        const { dispute } = event
        const updated = await applyIgnoringRefusal(
          deps,
          trx,
          row,
          {
            type: 'dispute_changed',
            dispute: {
              id: dispute.id,
              paymentIntentId: event.paymentIntentId,
              status: dispute.status,
              amount: event.amount,
              reason: dispute.reason,
              evidenceDueBy: dispute.evidenceDueBy === null ? null : new Date(dispute.evidenceDueBy),
              fee: dispute.fee,
            },
          },
          system,
          log,
        )
        // Staff hear of a dispute once, when the sale first records it (staff-alerts.ts).
        const recorded = updated?.chargeback
        if (recorded?.id === dispute.id && row.chargeback?.id !== dispute.id) {
          await enqueueStaffAlert(jobs, trx, {
            kind: 'chargeback_opened',
            key: `chargeback:${dispute.id}`,
            transactionId: row.id,
            disputeId: dispute.id,
            amount: recorded.amount,
            currency: row.currency,
            reason: dispute.reason,
            evidenceDueBy: recorded.evidence_due_by,
            froze: recorded.froze,
          })
        }
      }
      return
    case 'early_fraud_warning':
      if (event.fraudWarning && event.paymentIntentId) {
        const warning = { id: event.fraudWarning.id, paymentIntentId: event.paymentIntentId, fraudType: event.fraudWarning.fraudType }
        await applyEvent(deps, trx, row, { type: 'early_fraud_warning', warning }, system)
        if (row.fraud_warning?.id !== warning.id) {
          await enqueueStaffAlert(jobs, trx, {
            kind: 'early_fraud_warning',
            key: `fraud-warning:${warning.id}`,
            transactionId: row.id,
            warningId: warning.id,
            fraudType: warning.fraudType,
          })
        }
      }
      return
  }
}

/** A refund's own answer as the payment event its webhook would bring. */
function refundSettledEvent(transactionId: string, refund: Refund, provider: PaymentEvent['provider'], now: Date): PaymentEvent {
  return {
    type: refund.status === 'succeeded' ? 'refund_succeeded' : 'refund_failed',
    eventId: `answer:${refund.id}`,
    provider,
    occurredAt: now,
    transactionId,
    paymentIntentId: refund.paymentIntentId,
    refundId: refund.id,
    amount: refund.amount,
    currency: refund.currency,
    ...(refund.failureReason ? { reason: refund.failureReason } : {}),
  }
}

/** Carrier news for the parcel the transaction tracks: "in transit" joins its history, "delivered" moves it on. */
async function applyCarrierEvent(deps: TransactionDeps, trx: Kysely<Database>, event: CarrierEvent): Promise<void> {
  if (event.type === 'exception') return
  const row = await lockById(trx, event.transactionId)
  if (!row || row.tracking_code !== event.trackingCode) return
  const news: TransactionEvent =
    event.type === 'delivered' ? { type: 'carrier_delivered' } : { type: 'carrier_in_transit', occurredAt: event.occurredAt }
  await applyEvent(deps, trx, row, news, { actor: { kind: 'system' }, actorUserId: null })
}

/** Provider news that arrives late or twice is logged, not retried forever; answers the row as written, or undefined when refused. */
async function applyIgnoringRefusal(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  row: Awaited<ReturnType<typeof lockById>> & object,
  event: TransactionEvent,
  context: { actor: { kind: 'system' }; actorUserId: null },
  log: FastifyBaseLogger,
): Promise<TransactionRow | undefined> {
  try {
    return await applyEvent(deps, trx, row, event, context)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    // A second dispute while one is open is the one refusal an operator must see (docs/decisions/109).
    if (error.code === 'chargeback_open')
      log.error({ transactionId: row.id, event: event.type }, 'a second card dispute: needs an operator')
    else log.info({ transactionId: row.id, event: event.type, code: error.code }, 'provider event changes nothing')
    return undefined
  }
}
