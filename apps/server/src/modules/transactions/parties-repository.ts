import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What is read of the people behind a transaction (its creator and parties,
 * a listing's seller) from their users rows: a first name to greet the
 * other party with, their contact details, the language their e-mails go
 * out in.
 */

/** Undefined when no such user; a null id (a partner's transaction has no creator) finds nobody. */
export async function findFirstName(db: Kysely<Database>, userId: string | null): Promise<{ first_name: string } | undefined> {
  return db.selectFrom('users').select('first_name').where('id', '=', userId).executeTakeFirst()
}
