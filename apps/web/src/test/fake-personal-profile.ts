import type { PersonalProfile } from '../lib/api/personal-profile.ts'

/** GET /me/personal for someone who has just chosen a country (Poland) and given nothing else yet. */
export function newPersonalProfile(overrides: Partial<PersonalProfile> = {}): PersonalProfile {
  return {
    details_submitted: true,
    business_type: 'individual',
    phone: '',
    name: { first: 'Anna', last: 'Nowak' },
    address: { line1: '', line2: '', city: '', state: '', postal_code: '', country_code: 'PL' },
    metadata: { phone_country_code: 'PL' },
    dob: null,
    tos_acceptance: { unix_timestamp: 1_790_000_000 },
    ...overrides,
  }
}

/** GET /me/personal with every detail given, in the United Kingdom. */
export function fakePersonalProfile(overrides: Partial<PersonalProfile> = {}): PersonalProfile {
  return {
    details_submitted: true,
    business_type: 'individual',
    phone: '+447700900123',
    ssn_last_4_provided: false,
    name: { first: 'Ada', last: 'Lovelace' },
    address: { line1: '1 High Street', line2: '', city: 'London', state: 'Greater London', postal_code: 'SW1A 1AA', country_code: 'gb' },
    metadata: { phone_country_code: 'gb' },
    dob: { day: 10, month: 12, year: 1985 },
    tos_acceptance: { unix_timestamp: 1_790_000_000 },
    business_url: '',
    ...overrides,
  }
}

/** GET /me/personal for a buyer who has given only a name and a country: what a checkout prefills its address from. */
export function buyerProfile(country: string | null, name: PersonalProfile['name'] = { first: 'Ola', last: 'Nowak' }): PersonalProfile {
  return { details_submitted: false, name, address: { country_code: country }, tos_acceptance: { unix_timestamp: 1_700_000_000 } }
}
