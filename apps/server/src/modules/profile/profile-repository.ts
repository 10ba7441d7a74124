import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * A person's profile as stored: what the profile screens show and what is
 * forwarded to the payment provider (account-profile.ts) read in one place,
 * so the two cannot drift apart in how they read it.
 */
export interface ProfileRow {
  first_name: string
  last_name: string
  email: string
  country_code: string | null
  tos_accepted_at: Date | null
  tos_version_accepted: string | null
  tos_accepted_ip: string | null
  tos_accepted_user_agent: string | null
  /** `YYYY-MM-DD`: a date without a time zone (dateOfBirth reads it). */
  dob: string | null
  phone: string | null
  phone_country_code: string | null
  address_line1: string | null
  address_line2: string | null
  address_city: string | null
  address_state: string | null
  address_postal_code: string | null
  business_type: 'individual' | 'company'
  business_url: string | null
  ssn_last_4_provided_at: Date | null
}

export async function loadProfileRow(db: Kysely<Database>, userId: string): Promise<ProfileRow> {
  return db
    .selectFrom('users')
    .select([
      'first_name',
      'last_name',
      'email',
      'country_code',
      'tos_accepted_at',
      'tos_version_accepted',
      'tos_accepted_ip',
      'tos_accepted_user_agent',
      sql<string | null>`to_char(dob, 'YYYY-MM-DD')`.as('dob'),
      'phone',
      'phone_country_code',
      'address_line1',
      'address_line2',
      'address_city',
      'address_state',
      'address_postal_code',
      'business_type',
      'business_url',
      'ssn_last_4_provided_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
}

/** The stored birth date as its parts; null when none is stored. */
export function dateOfBirth(dob: string | null): { day: number; month: number; year: number } | null {
  const [year, month, day] = (dob ?? '').split('-').map(Number)
  return year && month && day ? { day, month, year } : null
}

/** The active (payout) country; null until onboarding has set it. */
export async function countryCodeOf(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('country_code').where('id', '=', userId).executeTakeFirstOrThrow()
  return row.country_code
}

export async function namesOf(db: Kysely<Database>, userId: string): Promise<{ first_name: string; last_name: string }> {
  return db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirstOrThrow()
}

/** What a new connected account is opened with. */
export async function payoutContactOf(db: Kysely<Database>, userId: string): Promise<{ email: string; country_code: string | null }> {
  return db.selectFrom('users').select(['email', 'country_code']).where('id', '=', userId).executeTakeFirstOrThrow()
}

export async function updateCountryCode(db: Kysely<Database>, userId: string, countryCode: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ country_code: countryCode, updated_at: now }).where('id', '=', userId).execute()
}

export async function updateTermsAcceptance(
  db: Kysely<Database>,
  userId: string,
  acceptance: { version: string; ip: string; userAgent: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      tos_accepted_at: now,
      tos_version_accepted: acceptance.version,
      tos_accepted_ip: acceptance.ip,
      tos_accepted_user_agent: acceptance.userAgent,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute()
}

/** The profile's changed columns (names, birth date, address, phone, business type) as the user row spells them. */
export async function updateProfileColumns(
  db: Kysely<Database>,
  userId: string,
  changes: Partial<Record<string, string | null>>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', userId)
    .execute()
}

export async function notificationLanguageColumns(
  db: Kysely<Database>,
  userId: string,
): Promise<{ notification_language: string | null; locale: string | null }> {
  return db.selectFrom('users').select(['notification_language', 'locale']).where('id', '=', userId).executeTakeFirstOrThrow()
}

export async function updateNotificationLanguage(db: Kysely<Database>, userId: string, language: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ notification_language: language, updated_at: now }).where('id', '=', userId).execute()
}

export async function updateBusinessUrl(db: Kysely<Database>, userId: string, url: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ business_url: url, updated_at: now }).where('id', '=', userId).execute()
}

/** Pactum keeps only when the SSN's last four were given: the digits themselves went to the payment provider. */
export async function recordSsnLast4Provided(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ ssn_last_4_provided_at: now, updated_at: now }).where('id', '=', userId).execute()
}

export async function tourSeenAt(db: Kysely<Database>, userId: string): Promise<Date | null> {
  const row = await db.selectFrom('users').select('tour_seen_at').where('id', '=', userId).executeTakeFirstOrThrow()
  return row.tour_seen_at
}

/** The first time counts: seeing the tour again from the help pages changes nothing. */
export async function markTourSeen(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ tour_seen_at: now }).where('id', '=', userId).where('tour_seen_at', 'is', null).execute()
}

/** Whether the user sells at all: a transaction as its seller (in any state) or a listing. Payouts concern only them. */
export async function sellsAnything(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .or([
          eb.exists(eb.selectFrom('transactions').select('id').where('seller_id', '=', userId)),
          eb.exists(eb.selectFrom('listings').select('id').where('seller_id', '=', userId)),
        ])
        .as('sells'),
    ])
    .executeTakeFirstOrThrow()
  return Boolean(row.sells)
}
