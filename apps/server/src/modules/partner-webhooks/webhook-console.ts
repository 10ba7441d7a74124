import type { PartnerEventType, WebhookDelivery } from '@pactum/contracts/partner-webhooks'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { clientEndpoint, deliveriesOf, replayDeliveries } from './webhook-deliveries-repository.ts'
import { feedPositionOf } from './webhook-endpoints-repository.ts'
import { enqueueWebhookDelivery, webhookBody } from './webhook-delivery.ts'

/** What an admin looks at and does about one endpoint's deliveries (issue 35: "shows each delivery, replays one or a range"). */

async function ownEndpoint(db: Kysely<Database>, clientId: string, endpointId: string): Promise<void> {
  if (!(await clientEndpoint(db, clientId, endpointId))) throw new AppError('not_found', 'No such webhook endpoint')
}

export async function listDeliveries(
  db: Kysely<Database>,
  input: { clientId: string; endpointId: string; before: string | undefined; limit: number },
): Promise<WebhookDelivery[]> {
  await ownEndpoint(db, input.clientId, input.endpointId)
  let beforePosition: string | undefined
  if (input.before !== undefined) {
    beforePosition = await feedPositionOf(db, input.clientId, input.before)
    if (beforePosition === undefined) throw new AppError('invalid_after_id', 'before: not one of this client’s events')
  }
  const rows = await deliveriesOf(db, { endpointId: input.endpointId, beforePosition, limit: input.limit })
  return rows.map((row) => ({
    event_id: row.event_id,
    type: row.type as PartnerEventType,
    transaction_id: row.transaction_id,
    sequence: row.sequence,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    request_body: webhookBody({ type: row.type, createdAt: row.event_created_at, payload: row.payload, sequence: row.sequence }),
    last_attempt:
      row.attempted_at === null || row.attempted_at === undefined
        ? null
        : {
            attempted_at: new Date(row.attempted_at).toISOString(),
            duration_ms: row.duration_ms as number,
            status_code: row.status_code ?? null,
            error: row.error ?? null,
            response_body: row.response_body ?? null,
          },
  }))
}

/** Sends the chosen events to the endpoint again, after the commit, in each transaction's order. */
export async function replayWebhooks(
  deps: { db: Kysely<Database>; jobs: JobQueue },
  input: { clientId: string; endpointId: string; eventIds?: string[]; from?: Date; to?: Date; now: Date },
): Promise<{ replayed: number }> {
  return deps.db.transaction().execute(async (trx) => {
    await ownEndpoint(trx, input.clientId, input.endpointId)
    const { count, transactionIds } = await replayDeliveries(trx, input)
    for (const transactionId of transactionIds) await enqueueWebhookDelivery(deps.jobs, trx, transactionId)
    return { replayed: count }
  })
}
