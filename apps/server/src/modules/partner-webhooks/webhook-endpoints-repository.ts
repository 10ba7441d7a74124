import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Database, WebhookEndpointsTable } from '../../db/schema.ts'

/** The queries of partner webhook endpoints and the event feed (webhook-endpoints.ts). */

export type EndpointRow = Selectable<WebhookEndpointsTable>

/** Locks the client's row (endpoints are counted under it); undefined when there is no such client. */
export async function lockClient(trx: Kysely<Database>, clientId: string): Promise<{ id: string } | undefined> {
  return trx.selectFrom('clients').select('id').where('id', '=', clientId).forUpdate().executeTakeFirst()
}

export async function countEndpoints(db: Kysely<Database>, clientId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function insertEndpoint(db: Kysely<Database>, values: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow()
}

export async function endpointsOf(db: Kysely<Database>, clientId: string): Promise<EndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('client_id', '=', clientId).orderBy('created_at').execute()
}

/** Answers whether the client had that endpoint. */
export async function deleteEndpoint(db: Kysely<Database>, clientId: string, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('webhook_endpoints').where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst()
  return Number(deleted.numDeletedRows) > 0
}

/** Where an event of the client stands in the feed; undefined when it is not one of the client's. */
export async function feedPositionOf(db: Kysely<Database>, clientId: string, eventId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('partner_events')
    .select('position')
    .where('id', '=', eventId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
  return row?.position
}

export async function feedEvents(db: Kysely<Database>, input: { clientId: string; afterPosition: string; since: Date; limit: number }) {
  return db
    .selectFrom('partner_events')
    .select(['id', 'type', 'payload', 'sequence', 'created_at'])
    .where('client_id', '=', input.clientId)
    .where('position', '>', input.afterPosition)
    .where('created_at', '>=', input.since)
    .orderBy('position')
    .limit(input.limit)
    .execute()
}

/** A new signing secret; the one it replaces still signs until `previousUntil`. Undefined when the client has no such endpoint. */
export async function replaceSecret(
  db: Kysely<Database>,
  input: { clientId: string; id: string; secret: string; previousUntil: Date },
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_until: input.previousUntil, secret: input.secret }))
    .where('id', '=', input.id)
    .where('client_id', '=', input.clientId)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Enables an endpoint again, and gives its given-up deliveries a new run of
 * attempts (three days from now, `created_at` being when the run began).
 * Answers the endpoint and the transactions whose deliveries wait again.
 */
export async function enableEndpoint(
  db: Kysely<Database>,
  input: { clientId: string; id: string; now: Date },
): Promise<{ endpoint: EndpointRow; transactionIds: string[] } | undefined> {
  const endpoint = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: null, disabled_reason: null })
    .where('id', '=', input.id)
    .where('client_id', '=', input.clientId)
    .returningAll()
    .executeTakeFirst()
  if (!endpoint) return undefined
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: input.now, created_at: input.now, lease_until: null })
    .where('endpoint_id', '=', input.id)
    .where('status', '=', 'failed')
    .execute()
  const waiting = await db
    .selectFrom('webhook_deliveries')
    .select('transaction_id')
    .distinct()
    .where('endpoint_id', '=', input.id)
    .where('status', '=', 'pending')
    .execute()
  return { endpoint, transactionIds: waiting.map((row) => row.transaction_id) }
}

/** An endpoint with its client's name and contact address, for the e-mail that says it was disabled. */
export async function disabledEndpointOf(db: Kysely<Database>, endpointId: string) {
  return db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('clients as c', 'c.id', 'e.client_id')
    .select(['e.id', 'e.url', 'e.disabled_at', 'e.disabled_reason', 'c.name as client_name', 'c.contact_email'])
    .where('e.id', '=', endpointId)
    .executeTakeFirst()
}
