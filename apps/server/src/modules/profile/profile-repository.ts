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
