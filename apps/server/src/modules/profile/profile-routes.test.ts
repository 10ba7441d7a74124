import { currentTermsVersion } from '@pactum/domain/terms'
import { describe, expect, it } from 'vitest'
import { appPerFile } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
const testApp = appPerFile({ clock })
let counter = 0

/** A fresh user per test: the gate starts closed for each. */
async function newUser(options: { firstName?: string; lastName?: string } = {}) {
  counter += 1
  const token = await testApp().tokenFor(`onboarding-${counter}@example.com`, options)
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const response = await testApp().app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: response.statusCode, body: response.body ? response.json() : null }
  }
  return { token, call }
}

async function onboarded(countryCode: string) {
  const user = await newUser({ firstName: 'Ada', lastName: 'Lovelace' })
  expect((await user.call('POST', '/me/personal/set_active_country', { country_code: countryCode })).status).toBe(204)
  expect((await user.call('POST', '/me/accept_tos_direct')).status).toBe(200)
  return user
}

const gbDetails = {
  business_type: 'individual',
  name: { first: 'Ada', last: 'Lovelace' },
  dob: { day: 10, month: 12, year: 1990 },
  phone: '+44 7700 900123',
  metadata: { phone_country_code: 'gb' },
  address: { line1: '12 Example Street', city: 'London', postal_code: 'SW1A 1AA' },
}

const usAddress = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105' }

describe('authentication', () => {
  it.each([
    ['POST', '/me/personal/set_active_country'],
    ['POST', '/me/accept_tos_direct'],
    ['GET', '/me/personal'],
    ['PUT', '/me/personal'],
    ['GET', '/me/personal/payout_requirements'],
    ['GET', '/me/personal/stripe_publishable_key'],
    ['GET', '/me/notification_language'],
    ['POST', '/me/notification_language'],
  ] as const)('%s %s answers 401 without a token', async (method, url) => {
    const response = await testApp().app.inject({ method, url: `/api/v1${url}`, payload: {} })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ code: 'unauthenticated' })
  })
})

describe('country-and-terms gate', () => {
  it('answers active_country_not_set, then tos_not_accepted, then the requirements', async () => {
    const user = await newUser()
    expect(await user.call('GET', '/me/personal')).toMatchObject({ status: 409, body: { code: 'active_country_not_set' } })
    expect(await user.call('GET', '/me/personal/payout_requirements')).toMatchObject({
      status: 409,
      body: { code: 'active_country_not_set' },
    })
    expect(await user.call('PUT', '/me/personal', gbDetails)).toMatchObject({ status: 409, body: { code: 'active_country_not_set' } })

    expect(await user.call('POST', '/me/personal/set_active_country', { country_code: 'gb' })).toEqual({ status: 204, body: null })
    const profile = await user.call('GET', '/me/personal')
    expect(profile.status).toBe(200)
    expect(profile.body).toMatchObject({ address: { country_code: 'gb' }, tos_acceptance: { unix_timestamp: 0 } })
    expect(await user.call('GET', '/me/personal/payout_requirements')).toMatchObject({ status: 409, body: { code: 'tos_not_accepted' } })

    const accepted = await user.call('POST', '/me/accept_tos_direct')
    const unix = Date.parse('2026-11-22T10:00:00Z') / 1000
    expect(accepted).toEqual({ status: 200, body: { tos_acceptance: { unix_timestamp: unix, version: currentTermsVersion } } })
    expect((await user.call('GET', '/me/personal')).body.tos_acceptance).toEqual({ unix_timestamp: unix })
    expect(await user.call('GET', '/me/personal/payout_requirements')).toEqual({
      status: 200,
      body: {
        status: 'due',
        requirements: { personal: ['name', 'dob', 'address', 'phone'], other: ['credit_account', 'identity_document'] },
        details_submitted: false,
        sells: false,
      },
    })
  })

  it('treats an acceptance of an older terms version as not accepted', async () => {
    const user = await onboarded('fi')
    const row = await testApp()
      .database.db.selectFrom('users')
      .select('id')
      .where('email', '=', `onboarding-${counter}@example.com`)
      .executeTakeFirstOrThrow()
    await testApp().database.db.updateTable('users').set({ tos_version_accepted: '2020-01-01' }).where('id', '=', row.id).execute()
    expect((await user.call('GET', '/me/personal')).body.tos_acceptance).toEqual({ unix_timestamp: 0 })
    expect(await user.call('GET', '/me/personal/payout_requirements')).toMatchObject({ status: 409, body: { code: 'tos_not_accepted' } })
  })

  it('refuses an unsupported or malformed country, naming country_code', async () => {
    const user = await newUser()
    for (const country_code of ['ru', 'GB', 'gbr', 42]) {
      const response = await user.call('POST', '/me/personal/set_active_country', { country_code })
      expect(response.status, String(country_code)).toBe(400)
      expect(response.body).toMatchObject({ code: 'validation_failed', details: { fields: [{ field: 'body.country_code' }] } })
    }
    expect(await user.call('POST', '/me/personal/set_active_country', {})).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    })
  })
})

describe('GET and PUT /me/personal', () => {
  it('returns the profile shape with the names from sign-in', async () => {
    const user = await onboarded('gb')
    expect((await user.call('GET', '/me/personal')).body).toEqual({
      details_submitted: false,
      business_type: 'individual',
      phone: '',
      ssn_last_4_provided: false,
      name: { first: 'Ada', last: 'Lovelace' },
      address: { line1: '', line2: '', city: '', state: '', postal_code: '', country_code: 'gb' },
      metadata: { phone_country_code: '' },
      dob: null,
      tos_acceptance: { unix_timestamp: Date.parse('2026-11-22T10:00:00Z') / 1000 },
      business_url: '',
    })
  })

  it('saves the details; details_submitted and payout requirements follow', async () => {
    const user = await onboarded('gb')
    const saved = await user.call('PUT', '/me/personal', gbDetails)
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({
      details_submitted: true,
      phone: '+447700900123',
      metadata: { phone_country_code: 'gb' },
      dob: { day: 10, month: 12, year: 1990 },
      address: { line1: '12 Example Street', line2: '', city: 'London', state: '', postal_code: 'SW1A 1AA', country_code: 'gb' },
    })
    expect((await user.call('GET', '/me/personal')).body).toEqual(saved.body)
    expect((await user.call('GET', '/me/personal/payout_requirements')).body).toEqual({
      status: 'due',
      requirements: { personal: [], other: ['credit_account', 'identity_document'] },
      details_submitted: true,
      sells: false,
    })
    // A listing makes them someone who sells: what is due now presses (issue 33 item 10).
    const listed = await user.call('POST', '/me/listings', {
      listing_type: 'multi_use',
      type: 'online',
      price: 10_000,
      currency: 'gbp',
      description: 'A reading lamp',
    })
    expect(listed.status).toBe(201)
    expect((await user.call('GET', '/me/personal/payout_requirements')).body).toMatchObject({ status: 'due', sells: true })
  })

  it('keeps parts left out of a PUT', async () => {
    const user = await onboarded('gb')
    await user.call('PUT', '/me/personal', gbDetails)
    const renamed = await user.call('PUT', '/me/personal', { name: { first: 'Augusta', last: 'King' } })
    expect(renamed.body).toMatchObject({ name: { first: 'Augusta', last: 'King' }, phone: '+447700900123', details_submitted: true })
  })

  it.each([
    [{ name: { first: '', last: 'X' } }, 'body.name.first'],
    [{ name: { first: 'A', last: '   ' } }, 'body.name.last'],
    [{ dob: { day: 31, month: 2, year: 1990 } }, 'body.dob'],
    [{ dob: { day: 1, month: 13, year: 1990 } }, 'body.dob.month'],
    [{ phone: '07700 900123' }, 'body.phone'],
    [{ phone: '+44abc' }, 'body.phone'],
    [{ address: { line1: '', city: 'London', postal_code: 'N1' } }, 'body.address.line1'],
    [{ business_type: 'charity' }, 'body.business_type'],
    [{ metadata: { phone_country_code: 'zz' } }, 'body.metadata.phone_country_code'],
  ])('refuses %j naming %s', async (payload, field) => {
    const user = await onboarded('gb')
    const response = await user.call('PUT', '/me/personal', payload)
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('validation_failed')
    expect(response.body.details.fields.map((entry: { field: string }) => entry.field)).toContain(field)
  })

  it.each([
    [{ address: { line1: '1 Road', city: 'London' } }, 'body.address.postal_code'],
    [{ address: { line1: '1 Road', city: 'London', postal_code: 'N1', country_code: 'fr' } }, 'body.address.country_code'],
    [{ phone: '+33612345678', metadata: { phone_country_code: 'gb' } }, 'body.phone'],
    [{ phone: '+33612345678' }, 'body.phone'],
    // The UK trunk 0 kept after the dial code: one digit too many.
    [{ phone: '+44 07700 900123', metadata: { phone_country_code: 'gb' } }, 'body.phone'],
    [{ phone: '+44 7700 9001', metadata: { phone_country_code: 'gb' } }, 'body.phone'],
  ])('refuses %j after parsing, naming %s', async (payload, field) => {
    const user = await onboarded('gb')
    const response = await user.call('PUT', '/me/personal', payload)
    expect(response).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field } } })
  })

  it('accepts a phone from another country with its dial code', async () => {
    const user = await onboarded('gb')
    const response = await user.call('PUT', '/me/personal', { phone: '+33 6 12 34 56 78', metadata: { phone_country_code: 'fr' } })
    expect(response).toMatchObject({ status: 200, body: { phone: '+33612345678', metadata: { phone_country_code: 'fr' } } })
  })

  describe('over 18 (spec §1)', () => {
    // The clock reads 2026-11-22.
    it('refuses someone who turns 18 tomorrow, naming dob', async () => {
      const user = await onboarded('gb')
      const response = await user.call('PUT', '/me/personal', { dob: { day: 23, month: 11, year: 2008 } })
      expect(response).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.dob' } } })
      expect(response.body.error).toMatch(/18/)
      expect((await user.call('GET', '/me/personal')).body.dob).toBeNull()
    })

    it('accepts someone who turns 18 today', async () => {
      const user = await onboarded('gb')
      const response = await user.call('PUT', '/me/personal', { dob: { day: 22, month: 11, year: 2008 } })
      expect(response).toMatchObject({ status: 200, body: { dob: { day: 22, month: 11, year: 2008 } } })
    })
  })

  describe('US state', () => {
    it('accepts a valid abbreviation, in any case', async () => {
      const user = await onboarded('us')
      const response = await user.call('PUT', '/me/personal', { address: { ...usAddress, state: 'ny' } })
      expect(response).toMatchObject({ status: 200, body: { address: { state: 'NY', country_code: 'us' } } })
    })

    it.each([undefined, '', 'XX', 'California'])('refuses state %j, naming address.state', async (state) => {
      const user = await onboarded('us')
      const response = await user.call('PUT', '/me/personal', { address: { ...usAddress, state } })
      expect(response).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.address.state' } } })
    })

    it('requires the division where the country has one (Canada: province)', async () => {
      const user = await onboarded('ca')
      const response = await user.call('PUT', '/me/personal', { address: { line1: '1 Rue', city: 'Montréal', postal_code: 'H2X 1Y4' } })
      expect(response).toMatchObject({ status: 400, body: { details: { field: 'body.address.state' } } })
      expect(response.body.error).toMatch(/province/)
    })

    it('needs no postal code in Hong Kong', async () => {
      const user = await onboarded('hk')
      const response = await user.call('PUT', '/me/personal', { address: { line1: '1 Queen’s Road', city: 'Hong Kong' } })
      expect(response.status).toBe(200)
    })
  })
})

describe('GET /me/personal/stripe_publishable_key', () => {
  it('answers the provider’s publishable key before any transaction or onboarding', async () => {
    const user = await newUser()
    const answer = await user.call('GET', '/me/personal/stripe_publishable_key')
    expect(answer).toEqual({ status: 200, body: { publishable_key: testApp().app.services.payments.publishableKey } })
    expect(answer.body.publishable_key).toMatch(/^pk_/)
  })
})

describe('public lists', () => {
  it('lists the 46 supported countries without a token', async () => {
    const response = await testApp().app.inject({ url: '/api/v1/supported_countries' })
    expect(response.statusCode).toBe(200)
    const countries = response.json()
    expect(countries).toHaveLength(46)
    expect(countries).toContainEqual({
      code: 'us',
      name: 'United States',
      divisionLabel: 'state',
      divisionRequired: true,
      postalCodeRequired: true,
      dialCode: '+1',
    })
  })

  it('lists the 7 notification languages without a token', async () => {
    const response = await testApp().app.inject({ url: '/api/v1/supported_notification_languages' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(
      ['en_gb', 'fi_fi', 'hr_hr', 'it_it', 'ms_my', 'pl_pl', 'sv_se'].map((language_code) => ({ language_code })),
    )
  })
})

describe('notification language', () => {
  it('defaults to en_gb and keeps what is set', async () => {
    const user = await newUser()
    expect(await user.call('GET', '/me/notification_language')).toEqual({ status: 200, body: { language_code: 'en_gb' } })
    expect(await user.call('POST', '/me/notification_language', { language_code: 'pl_pl' })).toEqual({
      status: 200,
      body: { language_code: 'pl_pl' },
    })
    expect(await user.call('GET', '/me/notification_language')).toEqual({ status: 200, body: { language_code: 'pl_pl' } })
  })

  it('follows the interface language the web app names until one is chosen, then keeps the choice', async () => {
    const user = await newUser()
    const inPolish = { 'accept-language': 'pl-PL' }
    expect(await user.call('GET', '/me/notification_language', undefined, inPolish)).toEqual({
      status: 200,
      body: { language_code: 'pl_pl' },
    })
    // A call that names no language, or one we do not have, leaves the interface language as it was.
    expect(await user.call('GET', '/me/notification_language')).toEqual({ status: 200, body: { language_code: 'pl_pl' } })
    expect(await user.call('GET', '/me/notification_language', undefined, { 'accept-language': 'de-DE' })).toEqual({
      status: 200,
      body: { language_code: 'pl_pl' },
    })
    expect(await user.call('GET', '/me/notification_language', undefined, { 'accept-language': 'fi-FI' })).toEqual({
      status: 200,
      body: { language_code: 'fi_fi' },
    })

    expect((await user.call('POST', '/me/notification_language', { language_code: 'sv_se' }, inPolish)).status).toBe(200)
    expect(await user.call('GET', '/me/notification_language', undefined, inPolish)).toEqual({
      status: 200,
      body: { language_code: 'sv_se' },
    })
  })

  it('refuses an unknown language, naming language_code', async () => {
    const user = await newUser()
    const response = await user.call('POST', '/me/notification_language', { language_code: 'de_de' })
    expect(response).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { fields: [{ field: 'body.language_code' }] } },
    })
  })
})
