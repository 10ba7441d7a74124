import { type Insertable, type Kysely, sql } from 'kysely'
import type { Database, PendingRegistrationsTable } from '../../../db/schema.ts'

/**
 * Registrations waiting for their e-mailed link (pending_registrations, by
 * the token's SHA-256) and the e-mails registrations sent per address
 * (registration_emails, by the address's SHA-256), for pending-registration.ts.
 */

/** Until the transaction ends, other registrations of the address wait here. */
export async function lockRegistrationsOfAddress(db: Kysely<Database>, addressHash: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`registration:${addressHash}`}))`.execute(db)
}

export async function deleteRegistrationEmailsSentBy(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('registration_emails').where('sent_at', '<=', before).execute()
}

export async function deletePendingRegistrationsExpiredBefore(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('pending_registrations').where('expires_at', '<', before).execute()
}

/** How many registration e-mails went to the address after `since`. */
export async function countRegistrationEmailsSince(db: Kysely<Database>, addressHash: string, since: Date): Promise<number> {
  const recent = await db
    .selectFrom('registration_emails')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('address_hash', '=', addressHash)
    .where('sent_at', '>', since)
    .executeTakeFirstOrThrow()
  return Number(recent.count)
}

export async function insertRegistrationEmail(db: Kysely<Database>, addressHash: string, sentAt: Date): Promise<void> {
  await db.insertInto('registration_emails').values({ address_hash: addressHash, sent_at: sentAt }).execute()
}

/** A second registration of the same address replaces the first: its token, password and all. */
export async function upsertPendingRegistration(
  db: Kysely<Database>,
  email: string,
  pending: Omit<Insertable<PendingRegistrationsTable>, 'email'>,
): Promise<void> {
  await db
    .insertInto('pending_registrations')
    .values({ ...pending, email })
    .onConflict((conflict) => conflict.column('email').doUpdateSet(pending))
    .execute()
}

export interface PendingRegistrationRow {
  token_hash: string
  email: string
  interaction_uid: string
  expires_at: Date
  first_name: string
  last_name: string
  password_hash: string
  locale: string | null
}

/** The pending registration by its token's hash; with `lock`, under a row lock until the transaction ends. */
export async function findPendingRegistration(
  db: Kysely<Database>,
  tokenHash: string,
  options: { lock?: boolean } = {},
): Promise<PendingRegistrationRow | undefined> {
  let query = db
    .selectFrom('pending_registrations')
    .select(['token_hash', 'email', 'interaction_uid', 'expires_at', 'first_name', 'last_name', 'password_hash', 'locale'])
    .where('token_hash', '=', tokenHash)
  if (options.lock) query = query.forUpdate()
  return query.executeTakeFirst()
}

export async function deletePendingRegistration(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('pending_registrations').where('token_hash', '=', tokenHash).execute()
}
