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

/**
 * One attempt's answer, and what it makes of the delivery (and of its
 * endpoint, when given up). Answers whether this attempt disabled the
 * endpoint (another stream's may have done it first).
 */
export async function recordAttemptOutcome(
  db: Kysely<Database>,
  key: { eventId: string; endpointId: string },
  attempt: { at: Date; number: number; answer: AttemptAnswer; outcome: AttemptOutcome },
): Promise<boolean> {
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
  if (outcome.kind !== 'given_up') return false
  const disabled = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: at, disabled_reason: outcome.reason })
    .where('id', '=', key.endpointId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst()
  return Number(disabled.numUpdatedRows) > 0
}

/** The endpoint's deliveries, newest event first, with each one's last attempt. */
export async function deliveriesOf(db: Kysely<Database>, input: { endpointId: string; beforePosition: string | undefined; limit: number }) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('partner_events as v', 'v.id', 'd.event_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_attempts as a')
          .select(['a.attempted_at', 'a.duration_ms', 'a.status_code', 'a.error', 'a.response_body'])
          .whereRef('a.event_id', '=', 'd.event_id')
          .whereRef('a.endpoint_id', '=', 'd.endpoint_id')
          .orderBy('a.id', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select([
      'd.event_id',
      'v.type',
      'd.transaction_id',
      'd.sequence',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.delivered_at',
      'v.position',
      'v.payload',
      'v.created_at as event_created_at',
      'last.attempted_at',
      'last.duration_ms',
      'last.status_code',
      'last.error',
      'last.response_body',
    ])
    .where('d.endpoint_id', '=', input.endpointId)
  if (input.beforePosition !== undefined) query = query.where('v.position', '<', input.beforePosition)
  return query.orderBy('v.position', 'desc').limit(input.limit).execute()
}

/**
 * Sends events to the endpoint again: a delivery made pending with a new
 * run of attempts, or made for an event it never had (one from before the
 * endpoint, or of a type it did not take then). Only the client's own
 * events. Answers the transactions to send for.
 */
export async function replayDeliveries(
  db: Kysely<Database>,
  input: { clientId: string; endpointId: string; eventIds?: string[]; from?: Date; to?: Date; now: Date },
): Promise<{ count: number; transactionIds: string[] }> {
  let events = db.selectFrom('partner_events').select(['id', 'transaction_id', 'sequence']).where('client_id', '=', input.clientId)
  if (input.eventIds) events = events.where('id', 'in', input.eventIds)
  if (input.from && input.to) events = events.where('created_at', '>=', input.from).where('created_at', '<', input.to)
  const chosen = await events.orderBy('position').limit(10_000).execute()
  if (chosen.length === 0) return { count: 0, transactionIds: [] }
  await db
    .insertInto('webhook_deliveries')
    .values(
      chosen.map((event) => ({
        event_id: event.id,
        endpoint_id: input.endpointId,
        transaction_id: event.transaction_id,
        sequence: event.sequence,
        status: 'pending' as const,
        next_attempt_at: input.now,
        created_at: input.now,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['event_id', 'endpoint_id'])
        .doUpdateSet({ status: 'pending', next_attempt_at: input.now, created_at: input.now, lease_until: null }),
    )
    .execute()
  return { count: chosen.length, transactionIds: [...new Set(chosen.map((event) => event.transaction_id))] }
}

/** The client's endpoint, or undefined (another client's, or none). */
export async function clientEndpoint(db: Kysely<Database>, clientId: string, id: string) {
  return db.selectFrom('webhook_endpoints').select(['id']).where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst()
}
