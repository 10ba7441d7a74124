import { randomBytes, randomUUID } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { PartnerEvent, PartnerEventType, WebhookEndpoint } from '@pactum/contracts/partner-webhooks'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { purgeOldPartnerEvents } from './partner-events-repository.ts'
import { isForbiddenAddress } from './safe-target.ts'
import {
  countEndpoints,
  deleteEndpoint,
  enableEndpoint,
  type EndpointRow,
  endpointsOf,
  feedEvents,
  feedPositionOf,
  insertEndpoint,
  lockClient,
  replaceSecret,
} from './webhook-endpoints-repository.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { enqueueWebhookDelivery } from './webhook-delivery.ts'

/** How long the feed keeps an event (issue 35: 30 days). */
export const feedDays = 30
/** Most endpoints one client may have: each one is another copy of every event. */
const endpointsPerClient = 10

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/**
 * An address a delivery could never be made to is refused when it is
 * registered, with the field named; every delivery checks it again after
 * its own DNS lookup (safe-target.ts), as a name may change.
 */
async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((entry) => entry.address),
        () => [],
      )
  const refused = addresses.find(isForbiddenAddress)
  if (refused) {
    throw new AppError('validation_failed', `url: ${host} is a private, loopback or link-local address (${refused})`, {
      details: { fields: [{ field: 'url', message: 'a private, loopback or link-local address' }] },
    })
  }
}

export function toEndpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    event_types: row.event_types as PartnerEventType[],
    disabled_at: row.disabled_at?.toISOString() ?? null,
    disabled_reason: row.disabled_at ? row.disabled_reason : null,
    created_at: row.created_at.toISOString(),
  }
}

export async function createWebhookEndpoint(
  db: Kysely<Database>,
  input: { clientId: string; url: string; eventTypes: PartnerEventType[]; now: Date; allowPrivate: boolean },
): Promise<WebhookEndpoint & { secret: string }> {
  await checkUrl(input.url, input.allowPrivate)
  return db.transaction().execute(async (trx) => {
    if (!(await lockClient(trx, input.clientId))) throw new AppError('not_found', 'No such client')
    if ((await countEndpoints(trx, input.clientId)) >= endpointsPerClient) {
      throw new AppError('validation_failed', `url: a client has at most ${endpointsPerClient} webhook endpoints; delete one first`)
    }
    const row = await insertEndpoint(trx, {
      id: randomUUID(),
      client_id: input.clientId,
      url: input.url,
      event_types: [...new Set(input.eventTypes)],
      secret: newSecret(),
      created_at: input.now,
    })
    return { ...toEndpointView(row), secret: row.secret }
  })
}

export async function listWebhookEndpoints(db: Kysely<Database>, clientId: string): Promise<WebhookEndpoint[]> {
  return (await endpointsOf(db, clientId)).map(toEndpointView)
}

/** Deletes a client's endpoint (and its pending deliveries); another client's answers 404, as a missing one. */
export async function deleteWebhookEndpoint(db: Kysely<Database>, clientId: string, id: string): Promise<void> {
  if (!(await deleteEndpoint(db, clientId, id))) throw new AppError('not_found', 'No such webhook endpoint')
}

/**
 * The client's events after `after` (its id), oldest first, from the last
 * 30 days: the same events, ids and bodies as the webhooks'. An id that is
 * not one of the client's recent events is refused, not read as the start.
 */
export async function partnerEventFeed(
  db: Kysely<Database>,
  input: { clientId: string; after: string | undefined; limit: number; now: Date },
): Promise<PartnerEvent[]> {
  const since = new Date(input.now.getTime() - feedDays * 86_400_000)
  let position = '0'
  if (input.after !== undefined) {
    const from = await feedPositionOf(db, input.clientId, input.after)
    if (from === undefined) throw new AppError('invalid_after_id', 'after: not one of your events of the last 30 days')
    position = from
  }
  const rows = await feedEvents(db, { clientId: input.clientId, afterPosition: position, since, limit: input.limit })
  return rows.map((row) => ({
    id: row.id,
    type: row.type as PartnerEventType,
    timestamp: row.created_at.toISOString(),
    data: { transaction: row.payload as PartnerEvent['data']['transaction'], sequence: row.sequence },
  }))
}

/** The hourly housekeeping's part (http/app.ts): events older than the feed's days go, with their deliveries. */
export async function purgeExpiredPartnerEvents(db: Kysely<Database>, now: Date): Promise<number> {
  return purgeOldPartnerEvents(db, new Date(now.getTime() - feedDays * 86_400_000))
}

/** How long a replaced secret still signs: the partner's receiver has a day to take the new one. */
const rotationOverlapMs = 24 * 3_600_000

/** A new signing secret, shown once; deliveries carry both signatures for 24 hours. */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  input: { clientId: string; id: string; now: Date },
): Promise<WebhookEndpoint & { secret: string }> {
  const row = await replaceSecret(db, {
    clientId: input.clientId,
    id: input.id,
    secret: newSecret(),
    previousUntil: new Date(input.now.getTime() + rotationOverlapMs),
  })
  if (!row) throw new AppError('not_found', 'No such webhook endpoint')
  return { ...toEndpointView(row), secret: row.secret }
}

/** An endpoint disabled after three days of failures, enabled again: what it was owed is sent again, in order. */
export async function enableWebhookEndpoint(
  deps: { db: Kysely<Database>; jobs: JobQueue },
  input: { clientId: string; id: string; now: Date },
): Promise<WebhookEndpoint> {
  return deps.db.transaction().execute(async (trx) => {
    const enabled = await enableEndpoint(trx, input)
    if (!enabled) throw new AppError('not_found', 'No such webhook endpoint')
    for (const transactionId of enabled.transactionIds) await enqueueWebhookDelivery(deps.jobs, trx, transactionId)
    return toEndpointView(enabled.endpoint)
  })
}
