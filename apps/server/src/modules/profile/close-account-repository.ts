import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What closing an account reads and erases (docs/decisions/035-closing-an-account.md),
 * each run on the closing's database transaction, under the user row's lock.
 */

/** The user's row, locked for the rest of the database transaction; undefined when there is none. */
export async function lockUserForClosing(
  db: Kysely<Database>,
  userId: string,
): Promise<{ id: string; issuer: string; subject: string; closed_at: Date | null } | undefined> {
  return db.selectFrom('users').select(['id', 'issuer', 'subject', 'closed_at']).where('id', '=', userId).forUpdate().executeTakeFirst()
}

/** Every transaction the user takes part in, as buyer or seller. */
export async function transactionsOf(db: Kysely<Database>, userId: string): Promise<Array<{ id: string; type: string; status: string }>> {
  return db
    .selectFrom('transactions')
    .select(['id', 'type', 'status'])
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
    .execute()
}

/**
 * The user row kept, pseudonymised: its id stays (the ledger and the
 * transactions name it), everything that says who the person was goes, and
 * `subject` replaces the sign-in's so that signing up again starts a new user.
 */
export async function pseudonymiseUser(db: Kysely<Database>, userId: string, subject: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      subject,
      email: '',
      first_name: '',
      last_name: '',
      roles: [],
      locale: null,
      email_verified_at: null,
      closed_at: now,
      updated_at: now,
      country_code: null,
      tos_accepted_ip: null,
      tos_accepted_user_agent: null,
      dob: null,
      phone: null,
      phone_country_code: null,
      address_line1: null,
      address_line2: null,
      address_city: null,
      address_state: null,
      address_postal_code: null,
      notification_language: null,
      business_url: null,
      verification_session_id: null,
    })
    .where('id', '=', userId)
    .execute()
}

/** The user's bank details, identity document records, shipping addresses and contact details, and their open listings closed. */
export async function eraseUserRecords(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db.deleteFrom('bank_accounts').where('user_id', '=', userId).execute()
  await db.deleteFrom('identity_document_uploads').where('user_id', '=', userId).execute()
  // Every sale of theirs has ended: the seller needs the shipping address no more.
  await db.deleteFrom('shipping_details').where('buyer_id', '=', userId).execute()
  await db.updateTable('contact_messages').set({ name: null, email: '' }).where('user_id', '=', userId).execute()
  await db
    .updateTable('listings')
    .set({ status: 'closed', updated_at: now })
    .where('seller_id', '=', userId)
    .where('status', '=', 'open')
    .execute()
}

/** The embedded sign-in's account of this subject: its credentials and attempts. */
export async function deleteSignInAccount(db: Kysely<Database>, subject: string): Promise<void> {
  await db.deleteFrom('accounts').where('id', '=', subject).execute()
  await db.deleteFrom('sign_in_attempts').where('account_key', '=', subject).execute()
  // Sessions, grants and refresh tokens of the sign-in: nobody can use them again.
  await db
    .deleteFrom('oidc_payloads')
    .where(sql<string>`payload->>'accountId'`, '=', subject)
    .execute()
}
