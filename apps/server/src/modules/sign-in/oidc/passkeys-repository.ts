import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Database, PasskeysTable } from '../../../db/schema.ts'

/** Accounts' passkeys: WebAuthn public keys and their signature counters (passkeys.ts). */

export interface PasskeySummaryRow {
  id: string
  name: string
  created_at: Date
  last_used_at: Date | null
  backed_up: boolean
}

/** The account's passkeys, oldest first. */
export async function listPasskeysOf(db: Kysely<Database>, accountId: string): Promise<PasskeySummaryRow[]> {
  return db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .execute()
}

/** The account's passkeys as the browser names them: the id and the transports (a JSON array). */
export async function passkeyCredentialsOf(db: Kysely<Database>, accountId: string): Promise<{ id: string; transports: string }[]> {
  return db.selectFrom('passkeys').select(['id', 'transports']).where('account_id', '=', accountId).execute()
}

/** Whether the account has a passkey: one row, whichever. */
export async function findAnyPasskeyOf(db: Kysely<Database>, accountId: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('passkeys').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst()
}

/** Only the account's own passkey goes; its name, or undefined when it has none by that id. */
export async function deletePasskey(db: Kysely<Database>, accountId: string, passkeyId: string): Promise<{ name: string } | undefined> {
  return db.deleteFrom('passkeys').where('account_id', '=', accountId).where('id', '=', passkeyId).returning('name').executeTakeFirst()
}

/** The new passkey, or undefined when a passkey with that credential id exists already. */
export async function insertPasskey(db: Kysely<Database>, values: Insertable<PasskeysTable>): Promise<PasskeySummaryRow | undefined> {
  return db
    .insertInto('passkeys')
    .values(values)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
    .executeTakeFirst()
}

/** The passkey under a row lock, so that two sign-ins with it move its counter one after the other. */
export async function lockPasskey(db: Kysely<Database>, id: string): Promise<Selectable<PasskeysTable> | undefined> {
  return db.selectFrom('passkeys').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

export async function recordPasskeyUse(db: Kysely<Database>, id: string, counter: number, now: Date): Promise<void> {
  await db.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute()
}
