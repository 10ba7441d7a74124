import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { Database, UsersTable } from '../../db/schema.ts'

/** The API's users, keyed by the issuer and subject of their tokens (users.ts decides what to write). */
export type UserRow = Selectable<UsersTable>

export async function findUserBySubject(db: Kysely<Database>, issuer: string, subject: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst()
}

/**
 * The row of a first token; a concurrent first request of the same subject
 * made it meanwhile, so the conflict only touches `updated_at` and returns it.
 */
export async function insertUser(db: Kysely<Database>, values: Insertable<UsersTable>, now: Date): Promise<UserRow> {
  return db
    .insertInto('users')
    .values(values)
    .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doUpdateSet({ updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateUser(db: Kysely<Database>, id: string, changes: Updateable<UsersTable>): Promise<UserRow> {
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}
