import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import { Webhook } from 'standardwebhooks'
import type { Clock } from '../../clock.ts'
import { crashPoint } from '../../crash-points.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { enqueueEndpointDisabledMail } from './endpoint-disabled-mail.ts'
import { postWebhook, type WebhookAnswer } from './post-webhook.ts'
import {
  type AttemptOutcome,
  firstPendingDelivery,
  leaseDelivery,
  pendingStreams,
  recordAttemptOutcome,
} from './webhook-deliveries-repository.ts'

/**
 * Delivers partner events (partner-events-repository.ts) to the client's endpoints,
 * signed as the Standard Webhooks specification says: headers `webhook-id`
 * (the event id), `webhook-timestamp` (Unix seconds of the attempt) and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * two of them while a rotated secret is still valid), body `{type,
 * timestamp, data: {transaction, sequence}}`.
 *
 * At least once, in order: the deliveries of one transaction to one
 * endpoint go in `sequence` order, the next only after the one before
 * succeeded (any 2xx). A failed attempt is tried again after 10 s, 20 s,
 * 40 s … (at most 6 h apart); after three days of failures the delivery is
 * given up and the endpoint disabled, so that it does not pile up events
 * nobody receives. A worker holds a lease on the delivery it sends, not a
 * database transaction, so a slow receiver (10 s at most) blocks nobody.
 */
export const webhookQueue = 'partner-webhooks'

interface DeliveryJob {
  transactionId: string
}

export interface WebhookDeliveryDeps {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  log: FastifyBaseLogger
  /** WEBHOOK_ALLOW_PRIVATE: deliveries may go to private and local addresses (development, tests). */
  allowPrivate: boolean
}

const leaseMs = 30_000
const giveUpAfterMs = 3 * 86_400_000
const firstRetrySeconds = 10
const longestWaitSeconds = 6 * 3600

export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(firstRetrySeconds * 2 ** (failedAttempts - 1), longestWaitSeconds)
}

export async function createWebhookQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(webhookQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 })
}

/** Enqueued by the engine in the change's own database transaction (EffectScheduler.deliverWebhooks). */
export async function enqueueWebhookDelivery(
  jobs: JobQueue,
  db: Kysely<Database>,
  transactionId: string,
  startAfter?: Date,
): Promise<void> {
  await jobs.send<DeliveryJob>(webhookQueue, { transactionId }, { db, ...(startAfter ? { startAfter } : {}) })
}

export async function startWebhookWorker(deps: WebhookDeliveryDeps): Promise<void> {
  await deps.jobs.work<DeliveryJob>(webhookQueue, async (data) => deliverTransactionWebhooks(deps, data.transactionId))
}

/** Sends what is due of one transaction's deliveries, endpoint by endpoint. */
export async function deliverTransactionWebhooks(deps: WebhookDeliveryDeps, transactionId: string): Promise<void> {
  for (const endpointId of await pendingStreams(deps.db, transactionId)) await drainStream(deps, endpointId, transactionId)
}

interface Claimed {
  eventId: string
  type: string
  createdAt: Date
  deliveryCreatedAt: Date
  attempts: number
  sequence: number
  payload: Record<string, unknown>
  url: string
  secrets: string[]
}

/** What an event's delivery POSTs (the same body on every attempt and replay; the console shows it). */
export function webhookBody(event: { type: string; createdAt: Date; payload: Record<string, unknown>; sequence: number }): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data: { transaction: event.payload, sequence: event.sequence },
  })
}

async function drainStream(deps: WebhookDeliveryDeps, endpointId: string, transactionId: string): Promise<void> {
  for (;;) {
    const claimed = await claimNext(deps, endpointId, transactionId)
    if (!claimed) return
    const timestamp = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000)
    const body = webhookBody(claimed)
    const signature = claimed.secrets.map((secret) => new Webhook(secret).sign(claimed.eventId, timestamp, body)).join(' ')
    const headers = {
      'webhook-id': claimed.eventId,
      'webhook-timestamp': String(timestamp.getTime() / 1000),
      'webhook-signature': signature,
    }
    crashPoint('partner-webhook.before-post')
    const answer = await postWebhook(claimed.url, headers, body, { allowPrivate: deps.allowPrivate, now: () => Date.now() })
    crashPoint('partner-webhook.after-post')
    const delivered = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300
    await recordAttempt(deps, { endpointId, transactionId }, claimed, answer, delivered)
    if (!delivered) return
  }
}

/**
 * The stream's first pending delivery, leased to this worker; none when
 * the stream is empty, its endpoint disabled, another worker holds it, or
 * its next attempt is not due yet (a job is waiting for that moment).
 *
 * Another worker's lease may be a dead one's (killed between the lease and
 * the record): a job is left for the moment it runs out, so the stream
 * never waits on a process that is gone. If the holder is alive, that job
 * finds the stream moved on.
 */
async function claimNext(deps: WebhookDeliveryDeps, endpointId: string, transactionId: string): Promise<Claimed | null> {
  const now = deps.clock.now()
  const next = await firstPendingDelivery(deps.db, endpointId, transactionId)
  if (!next || next.disabled_at !== null) return null
  if (next.next_attempt_at > now) return null
  const leaseUntil = new Date(now.getTime() + leaseMs)
  if (next.lease_until !== null && next.lease_until > now) {
    await enqueueWebhookDelivery(deps.jobs, deps.db, transactionId, next.lease_until)
    return null
  }
  const key = { eventId: next.event_id, endpointId }
  if (!(await leaseDelivery(deps.db, key, now, leaseUntil))) {
    await enqueueWebhookDelivery(deps.jobs, deps.db, transactionId, leaseUntil)
    return null
  }
  const rotated = next.previous_secret !== null && next.previous_secret_until !== null && next.previous_secret_until > now
  return {
    eventId: next.event_id,
    type: next.type,
    createdAt: next.created_at,
    deliveryCreatedAt: next.delivery_created_at,
    attempts: next.attempts,
    sequence: next.sequence,
    payload: next.payload,
    url: next.url,
    secrets: rotated ? [next.secret, next.previous_secret as string] : [next.secret],
  }
}

async function recordAttempt(
  deps: WebhookDeliveryDeps,
  { endpointId, transactionId }: { endpointId: string; transactionId: string },
  claimed: Claimed,
  answer: WebhookAnswer,
  delivered: boolean,
): Promise<void> {
  const now = deps.clock.now()
  const number = claimed.attempts + 1
  const givingUp = !delivered && now.getTime() - claimed.deliveryCreatedAt.getTime() >= giveUpAfterMs
  const outcome: AttemptOutcome = delivered
    ? { kind: 'delivered' }
    : givingUp
      ? { kind: 'given_up', reason: `every attempt failed for three days (last: ${answer.error ?? `HTTP ${String(answer.statusCode)}`})` }
      : { kind: 'retry', at: new Date(now.getTime() + retryDelaySeconds(number) * 1000) }
  await deps.db.transaction().execute(async (trx) => {
    const disabled = await recordAttemptOutcome(trx, { eventId: claimed.eventId, endpointId }, { at: now, number, answer, outcome })
    // The stream waits for this one: the job that sends it again also sends what came after.
    if (outcome.kind === 'retry') await enqueueWebhookDelivery(deps.jobs, trx, transactionId, outcome.at)
    if (disabled) await enqueueEndpointDisabledMail(deps.jobs, trx, { endpointId, disabledAt: now })
  })
  if (givingUp)
    deps.log.warn({ endpointId, eventId: claimed.eventId }, 'a partner webhook endpoint was disabled after three days of failures')
}
