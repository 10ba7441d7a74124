import Stripe from 'stripe'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { createTestDatabase } from '../../testing/test-database.ts'
import type { Database } from '../../db/database.ts'
import { PaymentProviderError, ProviderRateLimitedError } from './provider-error.ts'
import { serviceAgreementFor } from './stripe-account-mapping.ts'
import { StripeConnectedAccounts } from './stripe-connected-accounts.ts'
import { StripeIdentity } from './stripe-identity.ts'
import { settledShare, splitOverCharges, StripePayments } from './stripe-payments.ts'
import { toPortError } from './stripe-errors.ts'

/* The Stripe adapter's own rules, beside the port's contract (payment-provider.contract.test.ts). */

describe('a release split over the sale’s charges', () => {
  it('takes one charge when it covers the amount', () => {
    expect(splitOverCharges(9660, [{ id: 'ch_1', left: 10_340 }])).toEqual([{ chargeId: 'ch_1', amount: 9660 }])
  })

  it('takes the deposit first, then the remainder (face to face)', () => {
    expect(
      splitOverCharges(12_000, [
        { id: 'ch_deposit', left: 2100 },
        { id: 'ch_remainder', left: 10_300 },
      ]),
    ).toEqual([
      { chargeId: 'ch_deposit', amount: 2100 },
      { chargeId: 'ch_remainder', amount: 9900 },
    ])
  })

  it('skips charges refunded in full, and refuses what the charges do not cover', () => {
    expect(
      splitOverCharges(500, [
        { id: 'ch_refunded', left: 0 },
        { id: 'ch_2', left: 500 },
      ]),
    ).toEqual([{ chargeId: 'ch_2', amount: 500 }])
    expect(splitOverCharges(501, [{ id: 'ch_2', left: 500 }])).toBeNull()
    expect(splitOverCharges(1, [])).toBeNull()
  })
})

describe('the service agreement of a seller’s account', () => {
  it('is the full one within the platform’s region, the recipient one across regions', () => {
    expect(serviceAgreementFor('gb', 'GB')).toBe('full')
    expect(serviceAgreementFor('pl', 'DE')).toBe('full')
    expect(serviceAgreementFor('no', 'de')).toBe('full')
    expect(serviceAgreementFor('ch', 'DE')).toBe('recipient')
    expect(serviceAgreementFor('pl', 'GB')).toBe('recipient')
    expect(serviceAgreementFor('us', 'GB')).toBe('recipient')
  })
})

describe('Stripe refusals in the port’s words', () => {
  const invalid = (fields: Record<string, unknown>) =>
    new Stripe.errors.StripeInvalidRequestError({ type: 'invalid_request_error', message: 'refused', statusCode: 400, ...fields })

  const cases: Array<[{ code: string; statusCode?: number; param?: string }, string]> = [
    [{ code: 'resource_missing', statusCode: 404, param: 'id' }, 'not_found'],
    [{ code: 'payment_intent_unexpected_state' }, 'invalid_state'],
    [{ code: 'amount_too_large', param: 'amount' }, 'amount_too_large'],
    [{ code: 'charge_exceeds_source_limit' }, 'amount_too_large'],
    [{ code: 'parameter_invalid_integer', param: 'amount' }, 'invalid_request'],
  ]
  it.each(cases)('maps %o to %s', (fields, code) => {
    const mapped = toPortError(invalid(fields))
    expect(mapped).toBeInstanceOf(PaymentProviderError)
    expect(mapped).toMatchObject({ code, param: fields.param })
  })

  it('maps a reused idempotency key and a rate limit, and leaves what may pass by itself to the job’s retry', () => {
    expect(toPortError(new Stripe.errors.StripeIdempotencyError({ type: 'idempotency_error', message: 'reused' }))).toMatchObject({
      code: 'idempotency_key_reused',
    })
    for (const passing of [
      new Stripe.errors.StripeAPIError({ message: 'down' }),
      new Stripe.errors.StripeAuthenticationError({ message: 'bad key' }),
      new Stripe.errors.StripeConnectionError({ message: 'reset' }),
    ]) {
      expect(toPortError(passing)).toBe(passing)
    }
    expect(toPortError(new Stripe.errors.StripeRateLimitError({ message: 'slow down' }))).toBeInstanceOf(ProviderRateLimitedError)
    const plain = new Error('not Stripe')
    expect(toPortError(plain)).toBe(plain)
  })
})

describe('a piece of a charge in the currency it settled in', () => {
  it('is the piece itself without conversion, and the charge’s own rate rounded down with one', () => {
    expect(settledShare(9000, { amount: 10_340, settlement: { amount: 10_340 } })).toBe(9000)
    expect(settledShare(9000, { amount: 10_000, settlement: { amount: 2300 } })).toBe(2070)
    expect(settledShare(3333, { amount: 10_000, settlement: { amount: 2301 } })).toBe(766)
    expect(settledShare(10_000, { amount: 10_000, settlement: { amount: 2301 } })).toBe(2301)
  })
})

describe('the adapter against the fake', () => {
  let fake: StripeFake
  let database: Database
  let now: Date
  beforeEach(async () => {
    now = new Date('2026-11-22T10:00:00Z')
    fake = await startStripeFake({ now: () => now })
    database = await createTestDatabase()
  }, 60_000)
  /** Lets hours pass on the fake's clock (its idempotency keys age with it). */
  const hoursPass = (hours: number) => {
    now = new Date(now.getTime() + hours * 3_600_000)
  }
  afterEach(async () => {
    await database.close()
    await fake.close()
  })
  const adapter = (secretKey: string) => {
    const port = Number(new URL(fake.url).port)
    const stripe = new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    return {
      payments: new StripePayments({ stripe, publishableKey: fake.publishableKey }),
      accounts: new StripeConnectedAccounts({ stripe, db: database.db, publicUrl: 'https://pactum.test' }),
      identity: new StripeIdentity({ stripe, publicUrl: 'https://pactum.test' }),
    }
  }

  /** The SDK itself on the fake, for what the adapter does not send. */
  const rawStripe = () => new Stripe(fake.secretKey, { host: '127.0.0.1', port: Number(new URL(fake.url).port), protocol: 'http' })

  /** A connected account for a user, keyed by the user as the app keys it. */
  const openAccount = (provider: ReturnType<typeof adapter>, userId: string, email: string, country: string) =>
    provider.accounts.createConnectedAccount({ userId, email, country, idempotencyKey: `acct:${userId}` })

  it('is refused with a wrong secret key, as an error the job retries rather than a refusal of the request', async () => {
    const refused = adapter('sk_test_not_the_account_key').payments.createPaymentIntent({
      amount: 1000,
      currency: 'eur',
      paymentMethod: 'card',
      transactionId: 't',
      idempotencyKey: 'k',
    })
    await expect(refused).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/payment_intents', idempotencyKey: 'k' })
  })

  it('reads balances on the connected account itself (Stripe-Account), and says not found for an unknown one', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u1', 'a@example.com', 'gb')
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/accounts',
      params: { country: 'GB', metadata: { user_id: 'u1' }, capabilities: { transfers: { requested: 'true' } } },
    })
    await provider.accounts.getBalance(account.id)
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/balance', account: account.id })
    await expect(provider.accounts.getBalance('acct_unknown')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('reports a balance below zero as it is, not as empty (a loss the platform carries after a payout)', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u9', 'n@example.com', 'de')
    fake.debitBalance(account.id, 2550, 'eur')
    expect(await provider.accounts.getBalance(account.id)).toEqual({ available: [{ amount: -2550, currency: 'eur' }], pending: [] })
  })

  it('opens accounts across regions under the recipient agreement, asking the platform’s country once', async () => {
    const provider = adapter(fake.secretKey)
    await openAccount(provider, 'u5', 'e@example.com', 'gb')
    expect(fake.requests.at(-1)?.params.tos_acceptance).toBeUndefined()
    const abroad = await openAccount(provider, 'u6', 'f@example.com', 'pl')
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/v1/accounts',
      params: { country: 'PL', tos_acceptance: { service_agreement: 'recipient' } },
    })
    // The terms accepted later keep the agreement the account was opened under.
    await provider.accounts.updateAccountProfile({
      accountId: abroad.id,
      profile: {
        firstName: 'Fay',
        lastName: 'Seller',
        email: 'f@example.com',
        phone: null,
        dob: null,
        address: null,
        businessUrl: null,
        tosAcceptance: { date: new Date('2026-11-24T10:00:00Z'), ip: '203.0.113.7', userAgent: null },
      },
      idempotencyKey: 'profile:u6',
    })
    expect(fake.requests.filter((request) => request.method === 'GET' && request.path === '/v1/account')).toHaveLength(1)
  })

  it('refuses to release money the transaction’s own charges did not bring', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u2', 'b@example.com', 'de')
    await expect(
      provider.payments.transfer({
        amount: 100,
        currency: 'eur',
        destinationAccount: account.id,
        transactionId: 'tx-unpaid',
        idempotencyKey: 'tx-unpaid:release',
      }),
    ).rejects.toMatchObject({ code: 'invalid_state' })
    expect(fake.requests.some((request) => request.path === '/v1/transfers')).toBe(false)
  })

  /** A buyer's payment for a transaction, confirmed with Stripe.js's test card. */
  const paid = async (provider: ReturnType<typeof adapter>, transactionId: string, amount: number, currency = 'eur') => {
    const intent = await provider.payments.createPaymentIntent({
      amount,
      currency,
      paymentMethod: 'card',
      transactionId,
      idempotencyKey: `${transactionId}:pay:${amount}`,
    })
    await fake.confirm(intent.id, intent.clientSecret, { paymentMethod: 'pm_card_visa' })
    return intent
  }
  const madeTransfers = () => fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/transfers')

  it('refunds a card at once: the answer says succeeded, and Stripe tells it with refund.created alone', async () => {
    const provider = adapter(fake.secretKey)
    const intent = await paid(provider, 'tx-card-refund', 10_340)
    const refund = await provider.payments.refund({ paymentIntentId: intent.id, amount: 10_340, idempotencyKey: 'tx-card-refund:refund' })
    expect(refund).toMatchObject({ status: 'succeeded', amount: 10_340 })
    await fake.settle()
    const told = fake.events.filter((event) => (event.type as string).startsWith('refund.'))
    expect(told.map((event) => [event.type, (event.data as { object: { status: string } }).object.status])).toEqual([
      ['refund.created', 'succeeded'],
    ])
  })

  it('refunds once when the outbox retries a day after the first attempt, though Stripe forgot the key', async () => {
    const provider = adapter(fake.secretKey)
    const intent = await paid(provider, 'tx-late-refund', 10_340)
    const request = { paymentIntentId: intent.id, amount: 2000, idempotencyKey: 'tx-late-refund:refund' }
    const first = await provider.payments.refund(request)
    hoursPass(25)
    const again = await provider.payments.refund(request)
    expect(again.id).toBe(first.id)
    expect(fake.requests.filter((made) => made.method === 'POST' && made.path === '/v1/refunds')).toHaveLength(1)
    expect((await provider.payments.retrievePaymentIntent(intent.id)).amountRefunded).toBe(2000)
  })

  it('transfers once when the outbox retries a day after the first attempt, though Stripe forgot the key', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u7', 'g@example.com', 'de')
    await paid(provider, 'tx-late-release', 10_340)
    const release = {
      amount: 5000,
      currency: 'eur',
      destinationAccount: account.id,
      transactionId: 'tx-late-release',
      idempotencyKey: 'tx-late-release:release',
    }
    const first = await provider.payments.transfer(release)
    hoursPass(25)
    expect((await provider.payments.transfer(release)).id).toBe(first.id)
    expect(madeTransfers()).toHaveLength(1)
  })

  it('finishes a two-charge release whose second transfer failed for more than a day without paying the first again', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u8', 'h@example.com', 'de')
    const deposit = await paid(provider, 'tx-two-charges', 2100)
    hoursPass(1)
    await paid(provider, 'tx-two-charges', 10_300)
    const release = {
      amount: 12_000,
      currency: 'eur',
      destinationAccount: account.id,
      transactionId: 'tx-two-charges',
      idempotencyKey: 'tx-two-charges:release',
    }
    fake.failNext('POST', '/v1/transfers', 1)
    await expect(provider.payments.transfer(release)).rejects.toThrow()
    hoursPass(30)
    await provider.payments.transfer(release)
    const made = madeTransfers()
    // The deposit's transfer once, then the remainder's: the failed attempt made nothing.
    expect(made.map((request) => Number(request.params.amount))).toEqual([2100, 9900, 9900])
    const charges = fake.events.filter((event) => event.type === 'charge.succeeded')
    const depositCharge = charges.find(
      (event) => (event.data as { object: { payment_intent: string } }).object.payment_intent === deposit.id,
    )
    const fromDeposit = fake.events.filter(
      (event) =>
        event.type === 'transfer.created' &&
        (event.data as { object: { source_transaction: string } }).object.source_transaction ===
          (depositCharge?.data as { object: { id: string } }).object.id,
    )
    expect(fromDeposit).toHaveLength(1)
  })

  it('transfers a sale in another currency than the platform’s in the currency its charge settled in, at that charge’s rate', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u9', 'i@example.com', 'pl')
    await paid(provider, 'tx-zloty', 10_000, 'pln')
    const transfer = await provider.payments.transfer({
      amount: 9000,
      currency: 'pln',
      destinationAccount: account.id,
      transactionId: 'tx-zloty',
      idempotencyKey: 'tx-zloty:release',
    })
    // The charge settled 10,000 PLN as 2,300 EUR (the fake's rate 0.23): 9,000 PLN of it is 2,070 EUR.
    expect(madeTransfers().at(-1)?.params).toMatchObject({ amount: '2070', currency: 'eur' })
    expect(transfer).toMatchObject({ amount: 2070, currency: 'eur' })
  })

  it('refuses P24 in pounds by name, before Stripe, and an intent Stripe left with no method Pactum offers', async () => {
    const provider = adapter(fake.secretKey)
    const asked = provider.payments.createPaymentIntent({
      amount: 5000,
      currency: 'gbp',
      paymentMethod: 'p24',
      transactionId: 'tx-p24-gbp',
      idempotencyKey: 'tx-p24-gbp:pay',
    })
    await expect(asked).rejects.toMatchObject({ name: 'PaymentProviderError', code: 'unsupported_combination' })
    expect(fake.requests.some((request) => request.path === '/v1/payment_intents')).toBe(false)
    // Stripe itself drops the method rather than refusing the request.
    const stripe = new Stripe(fake.secretKey, { host: '127.0.0.1', port: Number(new URL(fake.url).port), protocol: 'http' })
    const dropped = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'gbp',
      allowed_payment_method_types: ['p24'],
    } as Stripe.PaymentIntentCreateParams)
    expect(dropped.payment_method_types).toEqual([])
    await expect(provider.payments.retrievePaymentIntent(dropped.id)).rejects.toMatchObject({
      name: 'PaymentProviderError',
      code: 'unsupported_combination',
    })
  })

  it('verifies the account’s document through an Identity session for its Person, reading and uploading no file', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u3', 'c@example.com', 'de')
    const personId = await provider.accounts.personOf(account.id)
    const session = await provider.identity.createVerificationSession({
      userId: 'u3',
      returnUrl: 'https://pactum.example/profile',
      idempotencyKey: 'identity:u3',
      relatedPerson: { accountId: account.id, personId },
    })
    const created = fake.requests.find((request) => request.method === 'POST' && request.path === '/v1/identity/verification_sessions')
    expect(created?.params).toMatchObject({ type: 'document', related_person: { account: account.id, person: personId } })
    fake.completeIdentity(session.id, 'verified')
    await fake.settle()
    const verification = await provider.accounts.getAccountVerification(account.id)
    expect(verification.documents.identity_document.front.status).toBe('verified')
    expect(verification.currentlyDue).not.toContain('identity_document')
    expect(fake.requests.filter((request) => request.path.startsWith('/v1/files'))).toEqual([])
    expect(fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/accounts/${account.id}`)).toEqual([])
  })

  it('the fake: the platform’s secret key cannot read an Identity document image, as Stripe serves them to restricted keys only', async () => {
    const provider = adapter(fake.secretKey)
    const session = await provider.identity.createVerificationSession({
      userId: 'u4',
      returnUrl: 'https://pactum.example/profile',
      idempotencyKey: 'identity:u4',
    })
    fake.completeIdentity(session.id, 'verified')
    await fake.settle()
    // The way the adapter once took the document (report → file → contents with the secret key) ends at the contents.
    const stripe = rawStripe()
    const verified = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['last_verification_report'] })
    const report = verified.last_verification_report as Stripe.Identity.VerificationReport
    const fileId = report.document?.files?.[0] as string
    expect((await stripe.files.retrieve(fileId)).purpose).toBe('identity_document_downloadable')
    const download = await fetch(`${fake.url}/v1/files/${fileId}/contents`, { headers: { authorization: `Bearer ${fake.secretKey}` } })
    expect(download.status).toBe(403)
    expect(await download.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('restricted key') },
    })
  })

  it('the fake: a verification session for a connected account’s Person, checked as Stripe documents related_person', async () => {
    const provider = adapter(fake.secretKey)
    const account = await openAccount(provider, 'u7', 'g@example.com', 'de')
    const other = await openAccount(provider, 'u8', 'h@example.com', 'de')
    const stripe = rawStripe()
    const person = (await stripe.accounts.retrieve(account.id)).individual?.id
    const otherPerson = (await stripe.accounts.retrieve(other.id)).individual?.id
    expect(person).toMatch(/^person_/)
    expect(otherPerson).not.toBe(person)
    const create = (relatedPerson: Record<string, string>) =>
      stripe.identity.verificationSessions.create({
        type: 'document',
        related_person: relatedPerson as unknown as Stripe.Identity.VerificationSessionCreateParams.RelatedPerson,
      })
    await expect(create({ account: account.id })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      param: 'related_person[person]',
    })
    await expect(create({ account: account.id, person: otherPerson as string })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      param: 'related_person[person]',
    })
    await expect(create({ account: 'acct_unknown', person: person as string })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
    })
    const unrelated = await stripe.identity.verificationSessions.create({ type: 'document' })
    expect(unrelated.related_person).toBeUndefined()

    const session = await create({ account: account.id, person: person as string })
    expect(session.related_person).toEqual({ account: account.id, person })
    fake.completeIdentity(session.id, 'verified')
    await fake.settle()
    const verified = await stripe.accounts.retrieve(account.id)
    expect(verified.individual?.verification?.status).toBe('verified')
    expect(verified.individual?.verification?.document?.front).toEqual(expect.stringMatching(/^file_/))
    expect(verified.requirements?.currently_due).not.toContain('individual.verification.document')
    expect((await stripe.accounts.retrieve(other.id)).requirements?.currently_due).toContain('individual.verification.document')
    // Stripe attached it: nothing was uploaded to the account, nothing attached by the platform.
    expect(
      fake.requests.filter((request) => request.path === '/v1/files' || request.path.startsWith(`/v1/accounts/${account.id}`)),
    ).toEqual([expect.objectContaining({ method: 'GET' }), expect.objectContaining({ method: 'GET' })])
    const report = await stripe.identity.verificationReports.retrieve(
      (await stripe.identity.verificationSessions.retrieve(session.id)).last_verification_report as string,
    )
    const image = await stripe.files.retrieve(report.document?.files?.[0] as string)
    expect(image.purpose).toBe('identity_document_downloadable')
  })
})
