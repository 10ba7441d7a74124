import { randomInt } from 'node:crypto'
import { type Kysely, sql } from 'kysely'

/**
 * A listing's short code (issue 33 item 9, docs/decisions/102-invitation-landing-and-listing-codes.md):
 * 10 characters a buyer can type instead of the listing's UUID. Existing
 * listings get one here; the alphabet and length are written out rather
 * than imported, so this migration does the same thing whatever the domain
 * later becomes.
 */
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
const length = 10

function newCode(): string {
  let code = ''
  // randomInt is uniform over the alphabet (no modulo bias).
  for (let i = 0; i < length; i += 1) code += alphabet.charAt(randomInt(alphabet.length))
  return code
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('listings').addColumn('code', 'text').execute()
  const rows = await sql<{ id: string }>`select id from listings`.execute(db)
  const given = new Set<string>()
  for (const { id } of rows.rows) {
    let code = newCode()
    while (given.has(code)) code = newCode()
    given.add(code)
    await sql`update listings set code = ${code} where id = ${id}`.execute(db)
  }
  await sql`alter table listings alter column code set not null`.execute(db)
  await db.schema.alterTable('listings').addUniqueConstraint('listings_code_key', ['code']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('listings').dropColumn('code').execute()
}
