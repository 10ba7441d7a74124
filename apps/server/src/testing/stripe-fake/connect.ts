import { createHash, randomBytes } from 'node:crypto'
import { stripeShapes } from '../stripe-schema.ts'
import type { Json, StripeStore } from './store.ts'
import { type FormObject, invalidRequest, missing, record, text } from './wire.ts'

/*
 * Connect in the Stripe fake: the sellers' connected accounts, what Stripe
 * still requires of each before it pays out, its checks of what it is
 * given, document checks that finish later, bank accounts, and the links
 * and sessions to Stripe's own onboarding pages.
 */

/**
 * Stripe's regions for cross-border payouts: a platform in one of them pays
 * accounts in another only under the recipient service agreement.
 */
const eea = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '))
const payoutRegion = (country: string) => (eea.has(country) ? 'EEA' : country)

/**
 * Stripe's test bank accounts whose payouts fail ("Testing Stripe Connect",
 * https://docs.stripe.com/connect/testing#payouts): IBANs DE62…3001
 * (no_account), …3002 (account_closed), …3003 (insufficient_funds), …3004
 * (debit_not_authorized), …3005 (invalid_currency); US account numbers
 * 000111111116, 000111111113, 000222222227, 000333333335, 000444444440 the
 * same five ways. The fake sees the last four digits, as Stripe shows them.
 */
const testPayoutFailures: Record<string, string> = {
  '3001': 'no_account',
  '3002': 'account_closed',
  '3003': 'insufficient_funds',
  '3004': 'debit_not_authorized',
  '3005': 'invalid_currency',
  '1116': 'no_account',
  '1113': 'account_closed',
  '2227': 'insufficient_funds',
  '3335': 'debit_not_authorized',
  '0440': 'invalid_currency',
}

const emptyAddress = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }

/** A business profile's fields Stripe always sends, empty until given. */
const emptyBusinessProfile = {
  mcc: null,
  minority_owned_business_designation: null,
  name: null,
  specified_commercial_transactions_act_url: null,
  support_address: null,
  support_email: null,
  support_phone: null,
  support_url: null,
  url: null,
}

function numberOrNull(value: unknown): number | null {
  return text(value as FormObject[string]) === undefined ? null : Number(text(value as FormObject[string]))
}

/**
 * An account session's components as Stripe answers them: every embedded
 * component Stripe has, each enabled or not, with its features (all off
 * unless asked for). The list of components and of each one's features is
 * Stripe's own (the published shapes), so it is read from there.
 */
function sessionComponents(requested: FormObject): Json {
  const components = stripeShapes.models['AccountSession.Components']?.fields ?? {}
  return Object.fromEntries(
    Object.entries(components).map(([name, field]) => {
      const model = field.shape.kind === 'model' ? stripeShapes.models[`${field.shape.name}.Features`] : undefined
      const asked = record(requested[name])
      const features = Object.fromEntries(
        Object.keys(model?.fields ?? {}).map((feature) => [feature, text(record(asked.features)[feature]) === 'true']),
      )
      return [name, { enabled: text(asked.enabled) === 'true', features }]
    }),
  )
}

function testPayoutFailure(last4: string): string | undefined {
  return testPayoutFailures[last4]
}

/** What Stripe still asks of the account, and whether it pays out, after any change. */
function refreshRequirements(store: StripeStore, account: Json): void {
  const individual = record(account.individual as FormObject)
  const verification = individual.verification as unknown as Json
  const document = verification.document as Json
  const due: string[] = profileRequirements(store, account)
  if (!document.front || document.details_code) due.push('individual.verification.document')
  if (account.country === 'US' && !individual.ssn_last_4_provided && !individual.id_number_provided) due.push('individual.ssn_last_4')
  const banks = (account.external_accounts as Json).data as Json[]
  if (banks.length === 0) due.push('external_account')
  account.requirements = {
    alternatives: [],
    current_deadline: null,
    currently_due: due,
    disabled_reason: due.length > 0 ? 'requirements.past_due' : null,
    errors: [],
    eventually_due: due,
    past_due: due,
    pending_verification: verification.status === 'pending' ? ['individual.verification.document'] : [],
  }
  account.details_submitted = profileRequirements(store, account).length === 0
  account.payouts_enabled = due.length === 0 && verification.status === 'verified'
  store.emit('account.updated', account, account.id as string)
}

/** What Stripe asks of an individual before payouts: who they are, where they live, what they sell, the terms, and whatever else it asked (`requireMore`). */
function profileRequirements(store: StripeStore, account: Json): string[] {
  const individual = account.individual as Json
  const address = record(individual.address as FormObject)
  const dob = record(individual.dob as FormObject)
  const business = record(account.business_profile as FormObject)
  const tos = record(account.tos_acceptance as FormObject)
  const due: string[] = []
  if (!individual.first_name) due.push('individual.first_name')
  if (!individual.last_name) due.push('individual.last_name')
  for (const part of ['day', 'month', 'year']) if (!dob[part]) due.push(`individual.dob.${part}`)
  for (const part of ['line1', 'city', 'postal_code']) if (!address[part]) due.push(`individual.address.${part}`)
  if (!business.mcc) due.push('business_profile.mcc')
  if (!business.url && !business.product_description) due.push('business_profile.url')
  if (!tos.date) due.push('tos_acceptance.date')
  if (!tos.ip) due.push('tos_acceptance.ip')
  return [...due, ...(store.extraRequirements.get(account.id as string) ?? [])]
}

/** The Person an account's `individual` is, by id (Accounts.d.ts: `individual?: Person`, Persons.d.ts: `id`, `account`). */
export function individualPersonOf(account: Json): string | undefined {
  const individual = account.individual as Json | undefined
  return typeof individual?.id === 'string' ? individual.id : undefined
}

/**
 * A VerificationSession made for the account's Person (`related_person`)
 * was verified: Stripe's changelog 2025-06-30.basil, "after Stripe completes
 * verification, collected data is attached to the associated person,
 * fulfilling all unmet requirements". Nothing is uploaded to the account
 * for it. Which files the person's `verification.document` names then is
 * not documented; the fake names the session's document images.
 */
export function verifyPersonByIdentity(store: StripeStore, related: { account: string; person: string }, documentFiles: string[]): void {
  const account = store.accountOf(related.account)
  if (individualPersonOf(account) !== related.person) throw new Error(`${related.person} is not the individual of ${related.account}`)
  const verification = (account.individual as Json).verification as Json
  Object.assign(verification.document as Json, {
    front: documentFiles[0] ?? null,
    back: documentFiles[1] ?? null,
    details_code: null,
    details: null,
  })
  verification.status = 'verified'
  refreshRequirements(store, account)
}

export function fakeConnect(store: StripeStore) {
  const { accounts, files, newId, seconds, later, accountOf, platformCountry } = store

  function createAccount(params: FormObject): Json {
    const country = text(params.country)
    if (!country || !/^[A-Z]{2}$/.test(country)) throw invalidRequest('Country is required.', { param: 'country' })
    const agreement = text(record(params.tos_acceptance).service_agreement) ?? 'full'
    if (agreement !== 'full' && agreement !== 'recipient')
      throw invalidRequest('Invalid service agreement.', { param: 'tos_acceptance[service_agreement]' })
    // Cross-border payouts work only under the recipient agreement, and it cannot take payments.
    if (agreement === 'full' && payoutRegion(country) !== payoutRegion(platformCountry)) {
      throw invalidRequest(`Connected accounts in ${country} need the recipient service agreement on a platform in ${platformCountry}.`, {
        param: 'tos_acceptance[service_agreement]',
      })
    }
    if (agreement === 'recipient' && record(record(params.capabilities).card_payments).requested === 'true') {
      throw invalidRequest('Accounts under the recipient service agreement cannot request card_payments.', {
        param: 'capabilities[card_payments]',
      })
    }
    const accountId = newId('acct')
    const created: Json = {
      id: accountId,
      object: 'account',
      country,
      email: text(params.email) ?? null,
      business_type: text(params.business_type) ?? null,
      metadata: record(params.metadata),
      // Pactum's controller (the platform collects requirements and carries losses, no Stripe dashboard) is a custom account.
      controller: { ...record(params.controller), type: 'application', is_controller: true },
      type: 'custom',
      tos_acceptance: { service_agreement: agreement },
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
      // `Account.individual` is a Person (stripe 23.1.0, Accounts.d.ts): the one whose documents the account needs.
      individual: {
        id: newId('person'),
        object: 'person',
        account: accountId,
        created: seconds(),
        verification: {
          status: 'unverified',
          document: { front: null, back: null, details: null, details_code: null },
          additional_document: { front: null, back: null, details: null, details_code: null },
        },
      },
      external_accounts: { object: 'list', data: [], has_more: false, url: `/v1/accounts/${accountId}/external_accounts` },
      created: seconds(),
    }
    accounts.set(accountId, created)
    refreshRequirements(store, created)
    return created
  }

  /** Stripe's checks of what it is given: a real date of birth, a US ZIP code, a web page's address. */
  function checkProfile(account: Json, individual: FormObject, business: FormObject): void {
    const dob = record(individual.dob)
    if (Object.keys(dob).length > 0) {
      const [day, month, year] = [Number(text(dob.day)), Number(text(dob.month)), Number(text(dob.year))]
      if (!(day >= 1 && day <= 31 && month >= 1 && month <= 12 && year >= 1900))
        throw invalidRequest('Invalid date of birth.', { param: 'individual[dob][day]' })
    }
    const postalCode = text(record(individual.address).postal_code)
    if (postalCode && account.country === 'US' && !/^\d{5}(-\d{4})?$/.test(postalCode)) {
      throw invalidRequest('Invalid US postal code', { code: 'postal_code_invalid', param: 'individual[address][postal_code]' })
    }
    const site = text(business.url)
    if (site && !/^https?:\/\/[^\s/]+\.[^\s]+$/.test(site))
      throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: 'business_profile[url]' })
  }

  function updateAccount(account: Json, params: FormObject): void {
    const individual = record(params.individual)
    const business = record(params.business_profile)
    checkProfile(account, individual, business)
    const stored = account.individual as Json
    for (const field of ['first_name', 'last_name', 'email', 'phone'] as const)
      if (text(individual[field]) !== undefined) stored[field] = text(individual[field])
    // Stripe answers a date of birth in numbers, and an address with all its fields.
    if (individual.dob !== undefined) {
      const dob = record(individual.dob)
      stored.dob = { day: numberOrNull(dob.day), month: numberOrNull(dob.month), year: numberOrNull(dob.year) }
    }
    if (individual.address !== undefined) stored.address = { ...emptyAddress, ...record(individual.address) }
    if (params.business_profile !== undefined) {
      account.business_profile = { ...emptyBusinessProfile, ...(account.business_profile as Json | undefined), ...business }
    }
    if (params.tos_acceptance !== undefined) {
      const tos = record(params.tos_acceptance)
      const agreement = (account.tos_acceptance as Json | undefined)?.service_agreement ?? 'full'
      if (text(tos.service_agreement) !== undefined && text(tos.service_agreement) !== agreement) {
        throw invalidRequest('The service agreement cannot be changed once accepted.', { param: 'tos_acceptance[service_agreement]' })
      }
      account.tos_acceptance = {
        service_agreement: agreement,
        date: Number(text(tos.date)),
        ip: text(tos.ip) ?? null,
        user_agent: text(tos.user_agent) ?? null,
      }
    }
    const verification = stored.verification as Json
    for (const field of ['document', 'additional_document'] as const) {
      const given = record(record(individual.verification)[field])
      for (const side of ['front', 'back'] as const) {
        const fileId = text(given[side])
        if (!fileId) continue
        const file = files.get(fileId)
        if (!file || file.account !== account.id)
          throw invalidRequest(`No such file upload: '${fileId}'`, { param: `individual[verification][${field}][${side}]` })
        // Stripe's API reference: both `document` and `additional_document` take "a file upload with a purpose value of
        // identity_document" (`additional_verification` is for a company's documents). The message is the fake's own.
        if (file.object.purpose !== 'identity_document') {
          throw invalidRequest(
            `The file '${fileId}' has purpose ${String(file.object.purpose)}; this field takes a file with purpose identity_document.`,
            { param: `individual[verification][${field}][${side}]` },
          )
        }
        Object.assign(verification[field] as Json, { [side]: fileId, details_code: null, details: null })
        verification.status = 'pending'
        const rejection = store.documentRejection
        later(() => {
          if ((verification[field] as Json)[side] !== fileId) return
          if (rejection) Object.assign(verification[field] as Json, { details_code: rejection, details: 'The document could not be read.' })
          verification.status = rejection ? 'unverified' : 'verified'
          refreshRequirements(store, account)
        })
      }
    }
    // Stripe merges metadata keys; an empty value removes one.
    for (const [name, value] of Object.entries(record(params.metadata))) {
      const metadata = account.metadata as Record<string, unknown>
      if (value === '') delete metadata[name]
      else metadata[name] = value
    }
    if (text(individual.ssn_last_4)) stored.ssn_last_4_provided = true
    if (text(individual.id_number)) stored.id_number_provided = true
    refreshRequirements(store, account)
  }

  /** Stripe asks the account for more than Pactum's screens collect, until its onboarding page is completed (`[]`). */
  function setExtraRequirements(accountId: string, requirements: string[]): void {
    const account = accountOf(accountId)
    store.extraRequirements.set(accountId, requirements)
    refreshRequirements(store, account)
  }

  function addBankAccount(account: Json, params: FormObject): Json {
    const given = params.external_account
    const bank: Json = {
      id: newId('ba'),
      object: 'bank_account',
      account: account.id,
      account_holder_name: null,
      account_holder_type: null,
      account_type: null,
      bank_name: 'STRIPE TEST BANK',
      routing_number: null,
      status: 'new',
      default_for_currency: false,
    }
    if (typeof given === 'string') {
      if (!given.startsWith('btok_'))
        throw invalidRequest(`No such token: '${given}'`, { code: 'resource_missing', param: 'external_account' })
      Object.assign(bank, { country: 'US', currency: 'usd', last4: /\d{4}$/.test(given) ? given.slice(-4) : '6789' })
    } else {
      const fields = record(given)
      const number = text(fields.account_number)
      if (text(fields.object) !== 'bank_account' || !number || !text(fields.country) || !text(fields.currency)) {
        throw invalidRequest('Missing required param: external_account[account_number].', {
          code: 'parameter_missing',
          param: 'external_account',
        })
      }
      // As Stripe: an account number that is not an IBAN needs its bank's code (routing number, sort code, BSB, …).
      if (!/^[A-Z]{2}\d{2}/.test(number) && !text(fields.routing_number)) {
        throw invalidRequest('Missing required param: external_account[routing_number].', {
          code: 'parameter_missing',
          param: 'external_account[routing_number]',
        })
      }
      Object.assign(bank, {
        country: fields.country,
        currency: text(fields.currency)?.toLowerCase(),
        last4: number.slice(-4),
        ...(text(fields.routing_number) ? { routing_number: text(fields.routing_number) } : {}),
      })
    }
    // The same bank account has the same fingerprint wherever it is added.
    bank.fingerprint = createHash('sha256')
      .update(`${String(bank.country)}:${text(record(given).account_number) ?? String(given)}`)
      .digest('hex')
      .slice(0, 16)
    const failure = testPayoutFailure(bank.last4 as string)
    if (failure) store.payoutFailures.set(bank.id as string, failure)
    const banks = (account.external_accounts as Json).data as Json[]
    if (params.default_for_currency === 'true' || !banks.some((other) => other.currency === bank.currency)) {
      for (const other of banks) if (other.currency === bank.currency) other.default_for_currency = false
      bank.default_for_currency = true
    }
    banks.unshift(bank)
    refreshRequirements(store, account)
    return bank
  }

  function deleteBankAccount(account: Json, bankId: string | undefined): Json {
    const banks = (account.external_accounts as Json).data as Json[]
    const bank = banks.find((candidate) => candidate.id === bankId)
    if (!bank) throw missing('external account', bankId as string)
    if (bank.default_for_currency)
      throw invalidRequest('You cannot delete the default bank account for your default currency.', { code: 'bank_account_exists' })
    banks.splice(banks.indexOf(bank), 1)
    return { id: bankId, object: 'bank_account', deleted: true }
  }

  /** A link to Stripe's hosted onboarding page (the fake's own address; `completeOnboarding` stands for the seller finishing it). */
  function accountLink(params: FormObject): Json {
    const linked = accountOf(text(params.account) ?? '')
    if (text(params.type) !== 'account_onboarding') throw invalidRequest('Pactum links to onboarding only', { param: 'type' })
    for (const name of ['return_url', 'refresh_url']) {
      if (!/^https?:\/\//.test(text(params[name]) ?? '')) throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: name })
    }
    return {
      object: 'account_link',
      url: `${store.url}/setup/e/${linked.id as string}/${randomBytes(8).toString('hex')}`,
      created: seconds(),
      expires_at: seconds() + 300,
    }
  }

  function accountSession(params: FormObject): Json {
    const sessionAccount = text(params.account) ?? ''
    accountOf(sessionAccount)
    const sessionId = newId('accs')
    return {
      object: 'account_session',
      account: sessionAccount,
      client_secret: `${sessionId}_secret_${randomBytes(12).toString('hex')}`,
      expires_at: seconds() + 3600,
      livemode: false,
      components: sessionComponents(record(params.components)),
    }
  }

  return { createAccount, updateAccount, setExtraRequirements, addBankAccount, deleteBankAccount, accountLink, accountSession }
}
