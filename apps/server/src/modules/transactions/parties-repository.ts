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

/** Undefined when no such user. */
export async function findContactDetails(
  db: Kysely<Database>,
  userId: string,
): Promise<{ first_name: string; last_name: string; email: string } | undefined> {
  return db.selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', userId).executeTakeFirst()
}

/** The user's chosen languages (notificationLanguage picks among them); Kysely's NoResultError when no such user. */
export async function getLanguages(
  db: Kysely<Database>,
  userId: string,
): Promise<{ notification_language: string | null; locale: string | null }> {
  return db.selectFrom('users').select(['notification_language', 'locale']).where('id', '=', userId).executeTakeFirstOrThrow()
}
