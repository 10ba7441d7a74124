import type { PartnerClientBody } from '@pactum/contracts/partner-clients'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * The `clients` table: partner clients' settings, as seeded from the
 * operator's file or changed in the admin console, and their API keys' hashes.
 */

function columnsOf(body: PartnerClientBody) {
  return {
    name: body.name,
    background_color: body.background_color,
    text_color: body.text_color,
    url: body.url,
    routes: body.routes,
    mobile_navbar_hidden: body.mobile_navbar_hidden,
    show_seller_confirm_handover: body.show_seller_confirm_handover,
    // Left out of a body: left as it is.
    ...(body.contact_email !== undefined ? { contact_email: body.contact_email } : {}),
  }
}

const clientColumns = [
  'id',
  'name',
  'background_color',
  'text_color',
  'url',
  'routes',
  'mobile_navbar_hidden',
  'show_seller_confirm_handover',
] as const

export type ClientRow = Pick<Selectable<Database['clients']>, (typeof clientColumns)[number]>

/**
 * Creates the client, or replaces its settings when `seeded` (the file's
 * entry) differs from the one applied last; undefined when the row was left
 * alone. One statement, safe when several processes start at once.
 */
export async function applySeededClient(
  db: Kysely<Database>,
  id: string,
  body: PartnerClientBody,
  seeded: string,
  now: Date,
): Promise<{ id: string } | undefined> {
  const values = { ...columnsOf(body), seeded_settings: seeded, updated_at: now }
  return db
    .insertInto('clients')
    .values({ id, ...values })
    .onConflict((conflict) =>
      conflict
        .column('id')
        .doUpdateSet(values)
        .where(sql<boolean>`clients.seeded_settings is distinct from ${seeded}`),
    )
    .returning('id')
    .executeTakeFirst()
}

export async function findClientRow(db: Kysely<Database>, clientId: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').select(clientColumns).where('id', '=', clientId).executeTakeFirst()
}

/** Every client, by id. */
export async function listClientRows(db: Kysely<Database>): Promise<ClientRow[]> {
  return db.selectFrom('clients').select(clientColumns).orderBy('id').execute()
}

/** Undefined when a client with this id exists already (it is left as it is). */
export async function insertClientIfAbsent(
  db: Kysely<Database>,
  id: string,
  body: PartnerClientBody,
  now: Date,
): Promise<{ id: string } | undefined> {
  return db
    .insertInto('clients')
    .values({ id, ...columnsOf(body), updated_at: now })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst()
}

/** Undefined when there is no such client. */
export async function updateClientSettings(
  db: Kysely<Database>,
  clientId: string,
  body: PartnerClientBody,
  now: Date,
): Promise<{ id: string } | undefined> {
  return db
    .updateTable('clients')
    .set({ ...columnsOf(body), updated_at: now })
    .where('id', '=', clientId)
    .returning('id')
    .executeTakeFirst()
}

export async function findClientId(db: Kysely<Database>, clientId: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst()
}

/** Undefined when there is no such client. */
export async function setApiKeyHash(db: Kysely<Database>, clientId: string, hash: string, now: Date): Promise<{ id: string } | undefined> {
  return db
    .updateTable('clients')
    .set({ api_key_hash: hash, api_key_issued_at: now })
    .where('id', '=', clientId)
    .returning('id')
    .executeTakeFirst()
}

/** The client's key hash, locked for the rest of the database transaction; undefined when there is no such client. */
export async function lockApiKeyHash(db: Kysely<Database>, clientId: string): Promise<{ api_key_hash: string | null } | undefined> {
  return db.selectFrom('clients').select('api_key_hash').where('id', '=', clientId).forUpdate().executeTakeFirst()
}

export async function clearApiKey(db: Kysely<Database>, clientId: string): Promise<void> {
  await db.updateTable('clients').set({ api_key_hash: null, api_key_issued_at: null }).where('id', '=', clientId).execute()
}

export async function findClientWithApiKeyHash(
  db: Kysely<Database>,
  clientId: string,
): Promise<{ id: string; name: string; api_key_hash: string | null } | undefined> {
  return db.selectFrom('clients').select(['id', 'name', 'api_key_hash']).where('id', '=', clientId).executeTakeFirst()
}
