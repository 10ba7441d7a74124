import type { PayoutRequirements, Profile, UpdateProfileBody } from '@pactum/contracts/profile'
import { payoutCurrenciesFor } from '@pactum/domain/bank-details'
import type { CurrencyCode } from '@pactum/domain/currencies'
import { countryByCode, isUsStateAbbreviation } from '@pactum/domain/countries'
import { type Locale, isSupportedLocale } from '@pactum/domain/locales'
import { isPossibleInternationalPhone } from '@pactum/domain/phone'
import { currentTermsVersion, minimumAgeYears } from '@pactum/domain/terms'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import { forwardAccountProfileIfAccount, repairAccountProfile } from './account-profile.ts'
import { hasBankAccount } from './bank-accounts-repository.ts'
import {
  dateOfBirth,
  loadProfileRow,
  notificationLanguageColumns,
  type ProfileRow,
  sellsAnything,
  updateBusinessUrl,
  updateCountryCode,
  updateNotificationLanguage,
  updateProfileColumns,
  updateTermsAcceptance,
} from './profile-repository.ts'
import type { PayoutAccountDeps } from './payout-account.ts'
import { hasTaxIdentifiers, requireTaxIdentifiersAllowed, submitTaxIdentifiers } from './tax-identifiers.ts'
import { providerRequirements, type VerificationDeps } from '../verification/verification.ts'

/**
 * The country-and-terms gate and the payout profile (spec §3, §4; DESIGN §4).
 * The active country is set once through set_active_country; the profile and
 * payout requirements refuse with 409 until the onboarding step they need.
 */

export async function setActiveCountry(db: Kysely<Database>, userId: string, countryCode: string, now: Date): Promise<void> {
  await updateCountryCode(db, userId, countryCode, now)
}

/** Where the terms were accepted from: the payment provider takes an acceptance with its IP only (Stripe's `tos_acceptance`). */
export interface AcceptanceSource {
  ip: string
  userAgent: string | null
}

export async function acceptTerms(
  deps: PayoutAccountDeps,
  userId: string,
  now: Date,
  source: AcceptanceSource,
): Promise<{ tos_acceptance: { unix_timestamp: number; version: string } }> {
  await updateTermsAcceptance(
    deps.db,
    userId,
    {
      version: currentTermsVersion,
      ip: source.ip,
      // Stripe keeps 5,000 characters of it; a browser's is a few hundred.
      userAgent: source.userAgent?.slice(0, 1000) ?? null,
    },
    now,
  )
  await forwardAccountProfileIfAccount(deps, userId)
  return { tos_acceptance: { unix_timestamp: Math.floor(now.getTime() / 1000), version: currentTermsVersion } }
}

/** 0 when not accepted, or when an older version was accepted (changing the version re-prompts everyone). */
function tosTimestamp(row: Pick<ProfileRow, 'tos_accepted_at' | 'tos_version_accepted'>): number {
  if (!row.tos_accepted_at || row.tos_version_accepted !== currentTermsVersion) return 0
  return Math.floor(row.tos_accepted_at.getTime() / 1000)
}

function requireCountry(row: ProfileRow): string {
  if (!row.country_code) throw new AppError('active_country_not_set', 'Choose your country first')
  return row.country_code
}

/** The personal requirements still missing, in the spec's vocabulary. */
function missingPersonal(row: ProfileRow, countryCode: string): string[] {
  const country = countryByCode(countryCode)
  const missing: string[] = []
  if (!row.first_name.trim() || !row.last_name.trim()) missing.push('name')
  if (!row.dob) missing.push('dob')
  const addressComplete =
    !!row.address_line1 &&
    !!row.address_city &&
    (!country?.postalCodeRequired || !!row.address_postal_code) &&
    (!country?.divisionRequired || !!row.address_state)
  if (!addressComplete) missing.push('address')
  if (!row.phone) missing.push('phone')
  return missing
}

function toProfile(row: ProfileRow, countryCode: string): Profile {
  return {
    details_submitted: missingPersonal(row, countryCode).length === 0,
    business_type: row.business_type,
    phone: row.phone ?? '',
    ssn_last_4_provided: row.ssn_last_4_provided_at !== null,
    name: { first: row.first_name, last: row.last_name },
    address: {
      line1: row.address_line1 ?? '',
      line2: row.address_line2 ?? '',
      city: row.address_city ?? '',
      state: row.address_state ?? '',
      postal_code: row.address_postal_code ?? '',
      country_code: countryCode,
    },
    metadata: { phone_country_code: row.phone_country_code ?? '' },
    dob: dateOfBirth(row.dob),
    tos_acceptance: { unix_timestamp: tosTimestamp(row) },
    business_url: row.business_url ?? '',
  }
}

export async function getProfile(db: Kysely<Database>, userId: string): Promise<Profile> {
  const row = await loadProfileRow(db, userId)
  return toProfile(row, requireCountry(row))
}

/** Whole years between the birth date and `now` (UTC calendar dates). */
export function ageInYears(dob: { day: number; month: number; year: number }, now: Date): number {
  const years = now.getUTCFullYear() - dob.year
  const beforeBirthday = now.getUTCMonth() + 1 < dob.month || (now.getUTCMonth() + 1 === dob.month && now.getUTCDate() < dob.day)
  return beforeBirthday ? years - 1 : years
}

type ParsedUpdate = Omit<UpdateProfileBody, 'phone'> & { phone?: string }

/**
 * PUT /me/personal: the details Pactum keeps, then a US seller's tax
 * identifiers, which go to the payment provider. Everything is checked
 * before anything is saved.
 */
export async function savePersonalDetails(
  deps: PayoutAccountDeps & { clock: Clock },
  userId: string,
  body: ParsedUpdate,
): Promise<Profile> {
  const profile = await updateProfile(deps.db, userId, body, deps.clock.now())
  // Saved here first: what the provider refuses is answered naming the field, and asked for again by the payout requirements.
  await forwardAccountProfileIfAccount(deps, userId)
  if (!hasTaxIdentifiers(body)) return profile
  await submitTaxIdentifiers(deps, userId, body)
  return getProfile(deps.db, userId)
}

export async function updateProfile(db: Kysely<Database>, userId: string, body: ParsedUpdate, now: Date): Promise<Profile> {
  const row = await loadProfileRow(db, userId)
  const countryCode = requireCountry(row)
  if (hasTaxIdentifiers(body)) requireTaxIdentifiersAllowed(body, countryCode)
  const country = countryByCode(countryCode)
  const changes: Partial<Record<string, string | null>> = {}

  if (body.business_type) changes.business_type = body.business_type
  if (body.name) {
    changes.first_name = body.name.first
    changes.last_name = body.name.last
  }
  if (body.dob) {
    // Spec §1: users must be over 18.
    if (ageInYears(body.dob, now) < minimumAgeYears) throw fieldError('body.dob', `You must be over ${minimumAgeYears} to use Pactum`)
    const { year, month, day } = body.dob
    changes.dob = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
  }
  if (body.address) {
    const address = body.address
    if (address.country_code !== undefined && address.country_code !== countryCode) {
      throw fieldError('body.address.country_code', 'The country is set with set_active_country')
    }
    const postalCode = address.postal_code ?? ''
    if (country?.postalCodeRequired !== false && !postalCode) throw fieldError('body.address.postal_code', 'Required')
    let state = address.state ?? ''
    if (countryCode === 'us') {
      state = state.toUpperCase()
      if (!isUsStateAbbreviation(state)) throw fieldError('body.address.state', 'A US state abbreviation, as CA')
    } else if (country?.divisionRequired && !state) {
      throw fieldError('body.address.state', `Required: the ${country.divisionLabel}`)
    }
    changes.address_line1 = address.line1
    changes.address_line2 = address.line2 || null
    changes.address_city = address.city
    changes.address_state = state || null
    changes.address_postal_code = postalCode || null
  }
  const phoneCountryCode = body.metadata?.phone_country_code ?? (body.phone ? (row.phone_country_code ?? countryCode) : undefined)
  if (body.phone !== undefined || body.metadata) {
    const phone = body.phone ?? row.phone
    const dialCode = phoneCountryCode ? countryByCode(phoneCountryCode)?.dialCode : undefined
    if (phone && dialCode && !phone.startsWith(dialCode)) {
      throw fieldError('body.phone', `The number must start with the dial code ${dialCode}`)
    }
    if (body.phone !== undefined && phoneCountryCode && !isPossibleInternationalPhone(body.phone, phoneCountryCode)) {
      throw fieldError(
        'body.phone',
        'The number has the wrong number of digits for its country (leave out a leading 0 after the dial code)',
      )
    }
    if (body.phone !== undefined) changes.phone = body.phone
    if (phoneCountryCode) changes.phone_country_code = phoneCountryCode
  }

  if (Object.keys(changes).length > 0) {
    await updateProfileColumns(db, userId, changes, now)
  }
  return getProfile(db, userId)
}

const personalItems: readonly string[] = ['name', 'dob', 'address', 'phone']

export async function getPayoutRequirements(deps: VerificationDeps, userId: string): Promise<PayoutRequirements> {
  const row = await loadProfileRow(deps.db, userId)
  const countryCode = requireCountry(row)
  if (tosTimestamp(row) === 0) throw new AppError('tos_not_accepted', 'Accept the current terms of service first')
  const missing = missingPersonal(row, countryCode)
  let due = await providerRequirements(deps, userId, countryCode)
  // The provider lacks what Pactum has: the forward failed, or came before it existed. Once more, then what it still asks is due.
  const account = await deps.connectedAccounts.findConnectedAccount(userId)
  if (account && due.some((item) => (personalItems.includes(item) && !missing.includes(item)) || item === 'tos_acceptance')) {
    // A refusal is answered by what stays due; the profile form names the field when it is saved again.
    const asked = await repairAccountProfile(deps, userId, account.id, deps.clock.now()).catch(() => false)
    if (asked) due = await providerRequirements(deps, userId, countryCode)
  }
  // Accepted before Pactum kept where from: asked again, as the provider takes an acceptance with its IP only.
  if (due.includes('tos_acceptance')) throw new AppError('tos_not_accepted', 'Accept the current terms of service again')
  const personal = personalItems.filter((item) => missing.includes(item) || due.includes(item as (typeof due)[number]))
  // The bank account is ours to hold (then handed to the provider); the
  // identity documents are the provider's to ask for and check, and
  // `provider_onboarding` is what only its own page collects.
  const other = [
    ...((await hasBankAccount(deps.db, userId)) ? [] : ['credit_account']),
    ...due.filter((item) => !personalItems.includes(item)),
  ]
  return {
    status: personal.length + other.length > 0 ? 'due' : 'not_due',
    requirements: { personal, other },
    details_submitted: personal.length === 0,
    sells: await sellsAnything(deps.db, userId),
  }
}

/** What the seller can be paid out in: their payout (active) country's currencies. */
export async function getPayoutCurrencies(db: Kysely<Database>, userId: string): Promise<CurrencyCode[]> {
  return payoutCurrenciesFor(requireCountry(await loadProfileRow(db, userId)))
}

export async function getNotificationLanguage(db: Kysely<Database>, userId: string): Promise<Locale> {
  return notificationLanguage(await notificationLanguageColumns(db, userId))
}

/** The language chosen for e-mails, else the interface language the user was last seen in, else English. */
export function notificationLanguage(user: { notification_language: string | null; locale: string | null }): Locale {
  if (isSupportedLocale(user.notification_language)) return user.notification_language
  if (isSupportedLocale(user.locale)) return user.locale
  return 'en_gb'
}

export async function setNotificationLanguage(db: Kysely<Database>, userId: string, language: Locale, now: Date): Promise<void> {
  await updateNotificationLanguage(db, userId, language, now)
}

/** The provider asks companies for a web page about the business; saved as given (validated as http(s) at the boundary). */
export async function setBusinessUrl(deps: PayoutAccountDeps, userId: string, url: string, now: Date): Promise<string> {
  await updateBusinessUrl(deps.db, userId, url, now)
  await forwardAccountProfileIfAccount(deps, userId)
  return url
}
