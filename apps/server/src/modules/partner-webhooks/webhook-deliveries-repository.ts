import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/** The queries of partner webhook delivery (webhook-delivery.ts). */

/** The endpoints with a delivery of the transaction still pending. */
export async function pendingStreams(db: Kysely<Database>, transactionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('endpoint_id')
    .distinct()
    .where('transaction_id', '=', transactionId)
    .where('status', '=', 'pending')
    .execute()
  return rows.map((row) => row.endpoint_id)
}

/** The first pending delivery of one transaction to one endpoint, with its event and the endpoint's address and secrets. */
export async function firstPendingDelivery(db: Kysely<Database>, endpointId: string, transactionId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('partner_events as v', 'v.id', 'd.event_id')
    .select([
      'd.event_id',
      'd.sequence',
      'd.attempts',
      'd.lease_until',
      'd.next_attempt_at',
      'd.created_at as delivery_created_at',
      'e.url',
      'e.secret',
      'e.previous_secret',
      'e.previous_secret_until',
      'e.disabled_at',
      'v.type',
      'v.payload',
      'v.created_at',
    ])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.transaction_id', '=', transactionId)
    .where('d.status', '=', 'pending')
    .orderBy('d.sequence')
    .limit(1)
    .executeTakeFirst()
}

/** Takes the delivery's lease unless another worker holds one still running; answers whether it did. */
export async function leaseDelivery(
  db: Kysely<Database>,
  key: { eventId: string; endpointId: string },
  now: Date,
  until: Date,
): Promise<boolean> {
  const leased = await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: until })
    .where('event_id', '=', key.eventId)
    .where('endpoint_id', '=', key.endpointId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .executeTakeFirst()
  return Number(leased.numUpdatedRows) > 0
}

/** What one POST got (post-webhook.ts answers it). */
export interface AttemptAnswer {
  statusCode: number | null
  body: string | null
  error: string | null
  durationMs: number
}

export type AttemptOutcome = { kind: 'delivered' } | { kind: 'retry'; at: Date } | { kind: 'given_up'; reason: string }

/** One attempt's answer, and what it makes of the delivery (and of its endpoint, when given up). */
export async function recordAttemptOutcome(
  db: Kysely<Database>,
  key: { eventId: string; endpointId: string },
  attempt: { at: Date; number: number; answer: AttemptAnswer; outcome: AttemptOutcome },
): Promise<void> {
  const { at, number, answer, outcome } = attempt
  await db
    .insertInto('webhook_attempts')
    .values({
      event_id: key.eventId,
      endpoint_id: key.endpointId,
      attempted_at: at,
      duration_ms: answer.durationMs,
      status_code: answer.statusCode,
      error: answer.error,
      response_body: answer.body,
    })
    .execute()
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: number,
      lease_until: null,
      ...(outcome.kind === 'delivered'
        ? { status: 'delivered' as const, delivered_at: at }
        : outcome.kind === 'given_up'
          ? { status: 'failed' as const }
          : { next_attempt_at: outcome.at }),
    })
    .where('event_id', '=', key.eventId)
    .where('endpoint_id', '=', key.endpointId)
    .execute()
  if (outcome.kind === 'given_up') {
    await db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at, disabled_reason: outcome.reason })
      .where('id', '=', key.endpointId)
      .where('disabled_at', 'is', null)
      .execute()
  }
}
