import { readFile } from 'node:fs/promises'
import {
  type NewPartnerClientBody,
  type PartnerClient,
  type PartnerClientBody,
  type PartnerClientSettings,
  partnerClientsFileSchema,
} from '@pactum/contracts/partner-clients'
import { verifyingClientIds } from '@pactum/domain/high-value'
import type { Kysely } from 'kysely'
import { ConfigError } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import { type ClientChangeActor, recordClientChange } from './client-changes-repository.ts'
import {
  applySeededClient,
  type ClientRow,
  findClientRow,
  insertClientIfAbsent,
  listClientRows,
  updateClientSettings,
} from './partner-clients-repository.ts'

/**
 * Partner clients (spec §1, DESIGN §3 "Clients"): seeded from the operator's
 * JSON file, managed from the admin console, and kept in the `clients` table,
 * which is what the API answers from and what transactions refer to.
 */

/** Reads and checks the clients file; a problem fails start-up naming the file and the field. */
export async function readPartnerClientsFile(file: string): Promise<Record<string, PartnerClientSettings>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ConfigError([`CLIENTS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`])
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError([`${file}: not valid JSON (${(error as Error).message})`])
  }
  const parsed = partnerClientsFileSchema.safeParse(json)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${file}: ${issue.path.map(String).join('.') || 'clients'}: ${issue.message}`))
  }
  return parsed.data
}

/**
 * Applies the clients file at start-up. A client the file names is created,
 * or has its settings replaced when the file's entry differs from the one
 * applied last (`seeded_settings`); an unchanged entry leaves the row alone,
 * so what an admin changed in the console outlives restarts until the
 * operator edits that client's entry. Clients not in the file are kept, since
 * transactions refer to them. One statement per client, safe when several
 * processes start at once.
 */
export async function seedPartnerClients(db: Kysely<Database>, file: string, now: Date): Promise<string[]> {
  const clients = await readPartnerClientsFile(file)
  await db.transaction().execute(async (trx) => {
    for (const [id, settings] of Object.entries(clients)) {
      const body = bodyOfSettings(settings)
      const seeded = JSON.stringify(body)
      const applied = await applySeededClient(trx, id, body, seeded, now)
      if (applied)
        await recordClientChange(trx, {
          clientId: id,
          action: 'seeded_from_file',
          actor: { kind: 'configuration' },
          settings: body,
          at: now,
        })
    }
  })
  return Object.keys(clients)
}

/** A file entry (spec §1's camelCase names) in the API's shape. */
function bodyOfSettings(settings: PartnerClientSettings): PartnerClientBody {
  return {
    name: settings.name,
    background_color: settings.backgroundColor,
    text_color: settings.textColor,
    url: settings.url,
    routes: settings.routes,
    mobile_navbar_hidden: settings.mobileNavbarHidden,
    show_seller_confirm_handover: settings.showSellerConfirmHandover,
    // Only when the file names one: an entry without it applies as before (its seeded JSON is unchanged).
    ...(settings.contactEmail !== undefined ? { contact_email: settings.contactEmail } : {}),
  }
}

/** A client row holds the id and the API's settings columns, named as the API names them (clientColumns). */
function toPartnerClient({ id, ...settings }: ClientRow): PartnerClient {
  return { client_id: id, ...settings }
}

export async function findPartnerClient(db: Kysely<Database>, clientId: string): Promise<PartnerClient | undefined> {
  const row = await findClientRow(db, clientId)
  return row ? toPartnerClient(row) : undefined
}

/** Every client, by id (for the admin console). */
export async function listPartnerClients(db: Kysely<Database>): Promise<PartnerClient[]> {
  const rows = await listClientRows(db)
  return rows.map(toPartnerClient)
}

/**
 * A new client from the admin console. Our own apps' ids are refused: rules
 * hang on them (the high-value gate), so a partner must not take one.
 */
export async function createPartnerClient(
  db: Kysely<Database>,
  client: NewPartnerClientBody,
  actor: ClientChangeActor,
  now: Date,
): Promise<void> {
  const { client_id: id, ...body } = client
  if ((verifyingClientIds as readonly string[]).includes(id)) throw fieldError('body.client_id', "Reserved for Pactum's own apps")
  await db.transaction().execute(async (trx) => {
    const created = await insertClientIfAbsent(trx, id, body, now)
    if (!created) throw fieldError('body.client_id', `A client with the id ${id} exists already`, 'client_exists')
    await recordClientChange(trx, { clientId: id, action: 'created', actor, settings: body, at: now })
  })
}

/**
 * Changes a client's settings from the admin console. The change lasts until the clients file's entry for the client
 * (if it has one) is itself changed.
 */
export async function updatePartnerClient(
  db: Kysely<Database>,
  clientId: string,
  body: PartnerClientBody,
  actor: ClientChangeActor,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await updateClientSettings(trx, clientId, body, now)
    if (!updated) throw new AppError('not_found', 'No such client')
    await recordClientChange(trx, { clientId, action: 'updated', actor, settings: body, at: now })
  })
}
