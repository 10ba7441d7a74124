import { readFile } from 'node:fs/promises'
import { type PartnerClient, type PartnerClientSettings, partnerClientsFileSchema } from '@pactum/contracts/partner-clients'
import type { Kysely, Selectable } from 'kysely'
import { ConfigError } from '../config.ts'
import type { Database } from '../db/schema.ts'

/**
 * Partner clients (spec §1, DESIGN §3 "Clients"): configured by the operator
 * in a JSON file and kept in the `clients` table, which is what the API
 * answers from and what transactions refer to.
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
 * Upserts every client of the file (start-up, every time): the file is the
 * source of truth for the clients it names. Clients not in the file are left
 * as they are, since transactions may refer to them.
 */
export async function seedPartnerClients(db: Kysely<Database>, file: string, now: Date): Promise<string[]> {
  const clients = await readPartnerClientsFile(file)
  await db.transaction().execute(async (trx) => {
    for (const [id, settings] of Object.entries(clients)) {
      const values = columnsOf(settings)
      await trx
        .insertInto('clients')
        .values({ id, ...values, updated_at: now })
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ ...values, updated_at: now }))
        .execute()
    }
  })
  return Object.keys(clients)
}

function columnsOf(settings: PartnerClientSettings) {
  return {
    name: settings.name,
    background_color: settings.backgroundColor,
    text_color: settings.textColor,
    url: settings.url,
    routes: settings.routes,
    mobile_navbar_hidden: settings.mobileNavbarHidden,
    show_seller_confirm_handover: settings.showSellerConfirmHandover,
  }
}

const clientColumns = ['id', 'name', 'background_color', 'text_color', 'url', 'routes', 'mobile_navbar_hidden', 'show_seller_confirm_handover'] as const

type ClientRow = Pick<Selectable<Database['clients']>, (typeof clientColumns)[number]>

function toPartnerClient(row: ClientRow): PartnerClient {
  return {
    client_id: row.id,
    name: row.name,
    background_color: row.background_color,
    text_color: row.text_color,
    url: row.url,
    routes: row.routes,
    mobile_navbar_hidden: row.mobile_navbar_hidden,
    show_seller_confirm_handover: row.show_seller_confirm_handover,
  }
}

export async function findPartnerClient(db: Kysely<Database>, clientId: string): Promise<PartnerClient | undefined> {
  const row = await db.selectFrom('clients').select(clientColumns).where('id', '=', clientId).executeTakeFirst()
  return row ? toPartnerClient(row) : undefined
}

/** Every client, by id (for the admin console). */
export async function listPartnerClients(db: Kysely<Database>): Promise<PartnerClient[]> {
  const rows = await db.selectFrom('clients').select(clientColumns).orderBy('id').execute()
  return rows.map(toPartnerClient)
}

/**
 * Changes a client's settings (for the admin console). A later start-up
 * seeds the file's clients again, so an operator who wants a change to last
 * writes it in the file too.
 */
export async function updatePartnerClient(db: Kysely<Database>, clientId: string, settings: PartnerClientSettings, now: Date): Promise<PartnerClient | undefined> {
  const row = await db
    .updateTable('clients')
    .set({ ...columnsOf(settings), updated_at: now })
    .where('id', '=', clientId)
    .returning(clientColumns)
    .executeTakeFirst()
  return row ? toPartnerClient(row) : undefined
}
