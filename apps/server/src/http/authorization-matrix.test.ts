import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import type { HTTPMethods } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../modules/partner-clients/partner-api-key.ts'
import { optOutLinkKey, optOutToken } from '../modules/notifications/opt-out-links.ts'
import { uuidV7 } from '../ids.ts'
import { signAftershipWebhook } from '../adapters/carrier-tracker/aftership-webhook.ts'
import { signWebhook } from '../modules/payments/webhook-signature.ts'
import { type AftershipFake, startAftershipFake } from '../testing/aftership-fake.ts'
import { type ApiCall, apiCaller, partyTokens } from '../testing/api-caller.ts'
import { createF2fSale, joinedF2fSale, payF2fByCard } from '../testing/f2f-sale-steps.ts'
import { multipartBody, tinyPng } from '../testing/identity-upload.ts'
import { createGuestSale } from '../testing/guest-sale-steps.ts'
import { createSale, joinedSale, payByCard } from '../testing/sale-steps.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { authorizationMatrix, type Caller, excludedRoutes, type MatrixRoute, type Outcome, type Row } from './authorization-matrix.ts'

/** An offer id no case has: the answers to it are refused 409 once past authorization. */
const noOffer = '00000000-0000-4000-8000-000000000000'

/*
 * Every route × every kind of caller against the committed table in
 * authorization-matrix.ts. One app and one set of transactions serve every
 * case: the routes run in the order of `plans` below, which follows a sale's
 * life (reads first, then each step), and within a route the callers who
 * must be refused go before the party whose call may change the state.
 */

type SignedIn = Exclude<Caller, 'anonymous'>

interface Probe {
  /** Path and query string. */
  url: string
  payload?: object | string | Buffer
  headers?: Record<string, string>
}

interface Answer {
  status: number
  code: string | undefined
  body: unknown
}

/** A route authorised by who calls it: the probe is a plausible, well-formed request. */
interface Ordinary {
  probe: (caller: Caller) => Probe | Promise<Probe>
  /** More to check of an answer that got through (lists: only one's own transactions). */
  check?: (caller: Caller, answer: Answer) => string | undefined
}

/** A route authorised by something in the request (`capability`, `signature`): a forged and a genuine one. */
interface Credentialed {
  forged: () => Probe
  genuine: () => Probe | Promise<Probe>
  /** How a forged signature is refused, when not 400 validation_failed (the tracking aggregator's webhook: 401 unauthenticated). */
  refused?: { status: number; code: string }
}

type Plan = Ordinary | Credentialed

interface World {
  testApp: TestApp
  /** The tracking aggregator's API, which the app is configured against. */
  trackingFake: AftershipFake
  call: ApiCall<SignedIn>
  tokens: Record<SignedIn, string>
  online: { id: string; intentId: string }
  /** An outbox call already sent, for the admin's retry. */
  outboxId: string
  f2f: { id: string; depositIntentId: string }
  /** Created by the seller, never joined: for the join-code previews. */
  joinable: { online: { id: string; joinCode: string }; f2f: { joinCode: string } }
  /** A P24 payment in złoty, opened by the buyer: for the sandbox's bank page. */
  p24: { intentId: string; clientSecret: string }
  identitySession: { id: string; clientSecret: string }
  linkToken: string
  /** The seller's listings: each caller buys from them (the seller is told it is their own). */
  listings: { singleUse: string; multiUse: string; f2f: string }
  /** A partner client's API key, for the guest-transaction call. */
  partnerKey: string
  /** A message in the dev mailbox (the file mailer's). */
  mailId: string
  /** An open reconciliation difference, for the admin to explain. */
  differenceId: string
  /** A card dispute opened by the sandbox on a sale of its own (decision 109). */
  disputeId: string
}

const webhookSecret = 'whsec_authorization_matrix_0123456789'
const address = { name: 'Bea Buyer', line1: '1 Market Street', city: 'Dublin', postal_code: 'D01 F5P2', country_code: 'ie' }
const returnUrl = '/transactions'
const partnerSale = {
  type: 'online',
  buyer_email: 'guest-buyer@example.com',
  seller_email: 'guest-seller@example.com',
  price: 10_000,
  currency: 'eur',
  description: 'A stall sale',
}

const registered: string[] = []
let w: World

/** The code of a sale's verification link, as its view gives it to a party. */
async function verifyCodeOf(id: string): Promise<string> {
  const { body } = await w.call('seller', 'GET', `/api/v1/transactions/${id}`)
  return String(body.verify_url).split('/verify/')[1] ?? ''
}

async function setUp(): Promise<World> {
  // The tracking aggregator is configured (against its fake) so that its webhook route exists.
  const trackingFake = await startAftershipFake()
  const testApp = await createTestApp({
    env: {
      SANDBOX_WEBHOOK_SECRET: webhookSecret,
      TRACKING_API_KEY: trackingFake.apiKey,
      TRACKING_WEBHOOK_SECRET: trackingFake.webhookSecret,
      TRACKING_API_URL: trackingFake.url,
      // Every caller's probe of a claim route invites guest@example.com anew: far past the day's limit
      // for one address, which is not what this table is about (invitation-limits.test.ts is).
      INVITATIONS_PER_SENDER_PER_HOUR: '1000',
      INVITATIONS_PER_SENDER_PER_DAY: '1000',
      INVITATIONS_PER_RECIPIENT_PER_DAY: '1000',
    },
    onRoute: (route) => {
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`)
    },
  })
  const tokens = await partyTokens(testApp.tokenFor, { buyer: {}, seller: {}, stranger: {}, admin: { admin: true } })
  const call = apiCaller(testApp.app, tokens)

  const online = await joinedSale(call)
  expect((await call('buyer', 'POST', `/api/v1/transactions/${online.id}/shipping_details`, address)).status).toBe(200)
  const { intentId } = await payByCard(call, online.id)
  // A sale of its own that a card dispute froze, for the admin's chargeback calls.
  const disputed = await joinedSale(call)
  await payByCard(call, disputed.id)
  const dispute = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: disputed.id })
  expect(dispute.status).toBe(200)
  await testApp.app.services.jobs.runDue()

  const f2f = await joinedF2fSale(call)
  // The face-to-face checkout collects no address yet (the shipping route is online only), so the
  // parties' GET .../billing_details would answer 404 not_found, the stranger's answer: the test
  // stores the address a checkout would have, copied from the online sale's.
  const stored = await testApp.database.db
    .selectFrom('shipping_details')
    .selectAll()
    .where('transaction_id', '=', online.id)
    .executeTakeFirstOrThrow()
  await testApp.database.db
    .insertInto('shipping_details')
    .values({ ...stored, transaction_id: f2f.id })
    .execute()
  const { intentId: depositIntentId } = await payF2fByCard(call, f2f.id, 'deposit')
  expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${f2f.id}/accept_deposit`)).body.status).toBe('deposit_accepted')

  const joinable = { online: await createSale(call), f2f: await createF2fSale(call) }

  const p24Sale = await joinedSale(call, { currency: 'pln', payment_method: 'p24', price: 10_000 })
  const p24 = await call('buyer', 'POST', `/api/v1/transactions/${p24Sale.id}/pay`)
  expect(p24.status).toBe(200)

  const strangerId: string = (await call('stranger', 'GET', '/api/v1/me')).body.id
  const session = await testApp.app.services.identity.createVerificationSession({
    userId: strangerId,
    returnUrl: '/profile/details',
    idempotencyKey: 'authorization-matrix',
  })
  expect((await call('stranger', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'us' })).status).toBe(204)
  const linkToken = await call('stranger', 'GET', '/api/v1/me/plaid/link_token')
  expect(linkToken.status).toBe(200)

  const listing = async (body: object): Promise<string> => {
    const created = await call('seller', 'POST', '/api/v1/me/listings', { currency: 'eur', description: 'A lamp, sold by link', ...body })
    expect(created.status).toBe(201)
    return created.body.id
  }
  const listings = {
    singleUse: await listing({ listing_type: 'single_use', type: 'online', price: 10_000 }),
    multiUse: await listing({ listing_type: 'multi_use', type: 'online', price: 10_000 }),
    f2f: await listing({ listing_type: 'multi_use', type: 'f2f', deposit_price: 5_000 }),
  }
  await testApp.database.db.insertInto('clients').values({ id: 'matrix-partner', name: 'Matrix partner' }).execute()
  const partnerKey = await issueApiKey(testApp.database.db, 'matrix-partner', { kind: 'operator' }, new Date())
  await testApp.app.services.mailer.send({ to: 'someone@example.com', subject: 'For the dev mailbox', text: 'Hello' })
  const [mailFile] = (await readdir(path.join(testApp.dataDir, 'mail'))).filter((file) => file.endsWith('.eml'))
  const differenceId = randomUUID()
  await testApp.database.db
    .insertInto('reconciliation_days')
    .values({ day: '2026-01-01', provider: 'sandbox', reconciled_at: new Date(), totals: JSON.stringify({ ledger: [], provider: [] }) })
    .execute()
  await testApp.database.db
    .insertInto('reconciliation_differences')
    .values({
      id: differenceId,
      day: '2026-01-01',
      kind: 'missing_in_ledger',
      movement: 'transfer',
      provider_id: 'tr_matrix',
      transaction_id: null,
      ledger_amount: null,
      ledger_currency: null,
      provider_amount: 700,
      provider_currency: 'eur',
      found_at: new Date(),
    })
    .execute()
  // An outbox call the provider accepted: sent again by an admin, it is left as it is.
  const outboxId = randomUUID()
  await testApp.database.db
    .insertInto('outbox')
    .values({
      id: outboxId,
      transaction_id: online.id,
      action: 'transfer',
      idempotency_key: `matrix-${outboxId}`,
      payload: JSON.stringify({ amount: 1, currency: 'eur', payment_intent_id: null, seller_id: null }),
      status: 'sent',
      created_at: new Date(),
    })
    .execute()

  return {
    differenceId,
    outboxId,
    disputeId: dispute.body.id,
    mailId: mailFile!.replace(/\.eml$/, ''),
    listings,
    testApp,
    trackingFake,
    call,
    tokens,
    partnerKey,
    online: { id: online.id, intentId },
    f2f: { id: f2f.id, depositIntentId },
    joinable: { online: { id: joinable.online.id, joinCode: joinable.online.joinCode }, f2f: { joinCode: joinable.f2f.joinCode } },
    p24: { intentId: p24.body.payment_intent_id, clientSecret: p24.body.client_secret },
    identitySession: { id: session.id, clientSecret: session.clientSecret },
    linkToken: linkToken.body.link_token,
  }
}

async function send(caller: Caller, method: string, probe: Probe): Promise<Answer> {
  const response = await w.testApp.app.inject({
    method: method as HTTPMethods,
    url: probe.url,
    headers: { ...(caller === 'anonymous' ? {} : { authorization: `Bearer ${w.tokens[caller]}` }), ...probe.headers },
    ...(probe.payload === undefined ? {} : { payload: probe.payload }),
  })
  let body: unknown = response.body
  try {
    body = response.json()
  } catch {
    // An HTML page (the sandbox's) or nothing (HEAD, 303).
  }
  const code = typeof body === 'object' && body !== null && 'code' in body ? String(body.code) : undefined
  return { status: response.statusCode, code, body }
}

const online = (rest = '') => `/api/v1/transactions/${w.online.id}${rest}`
const f2f = (rest = '') => `/api/v1/p2p/transactions/${w.f2f.id}${rest}`
const json = (url: string, payload: object): Probe => ({ url, payload })
const form = (url: string, fields: Record<string, string>): Probe => ({
  url,
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})
const get = (url: string): Ordinary => ({ probe: () => ({ url }) })

/** A public address written as a number: no DNS lookup, and not one a webhook is refused for. */
const webhookEndpoint = { url: 'https://203.0.114.10/hooks', event_types: ['transaction.paid'] }
/** A call with a partner API key (and a JSON body when given). */
const partnerCall = (method: string, url: string, key: string, payload?: object): Probe => ({
  url,
  ...(payload ? { payload } : {}),
  headers: { ...(payload ? { 'content-type': 'application/json' } : {}), 'x-pactum-api-key': key },
})
/** A webhook endpoint of the matrix's partner, made for one call to delete (the only one it has then). */
async function matrixEndpoint(): Promise<string> {
  const id = randomUUID()
  // The earlier probes' endpoints go first: a client has at most ten.
  await w.testApp.database.db.deleteFrom('webhook_endpoints').where('client_id', '=', 'matrix-partner').execute()
  await w.testApp.database.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      client_id: 'matrix-partner',
      url: 'https://203.0.114.10/hooks',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      created_at: new Date(),
    })
    .execute()
  return id
}
const request = (url: () => string, payload?: () => object): Ordinary => ({
  probe: () => ({ url: url(), ...(payload ? { payload: payload() } : {}) }),
})

/** Whether a list answer shows the test's two sales, which only their parties may see. */
function onlyOwnTransactions(ids: () => string[]) {
  return (caller: Caller, answer: Answer): string | undefined => {
    const listed = (answer.body as Array<{ id: string }>).map((transaction) => transaction.id)
    const party = caller === 'buyer' || caller === 'seller'
    const shown = ids().filter((id) => listed.includes(id))
    if (party && shown.length !== ids().length) return `${caller} does not see their own transactions`
    if (!party && shown.length > 0) return `${caller} sees others' transactions ${shown.join(', ')}`
    return undefined
  }
}

async function quotedOnlineSale(caller: Caller): Promise<Probe> {
  const quote = await send(caller, 'GET', { url: '/api/v1/charge?price=10000&currency=eur&payment_method=card' })
  return json('/api/v1/me/transactions', {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: 'A green lamp',
    payment_method: 'card',
    charge: (quote.body as { charge: number }).charge,
    charge_calculator_version: (quote.body as { charge_calculator_version: number }).charge_calculator_version,
  })
}

async function quotedF2fSale(caller: Caller): Promise<Probe> {
  const quote = await send(caller, 'GET', { url: '/api/v1/p2p/charge?price=5000&currency=eur&payment_method=card' })
  return json('/api/v1/p2p/me/transactions', {
    role: 'seller',
    currency: 'eur',
    description: 'A record player, met at the market',
    deposit_price: 5_000,
    deposit_charge: (quote.body as { charge: number }).charge,
    charge_calculator_version: (quote.body as { charge_calculator_version: number }).charge_calculator_version,
  })
}

/** A purchase stating the fee its preview showed. */
async function listingPurchase(segment: string, id: string): Promise<Probe> {
  const preview = await send('anonymous', 'GET', { url: `/api/v1/${segment}/${id}` })
  const { charge, charge_calculator_version: version } = preview.body as { charge: number; charge_calculator_version: number }
  return json(`/api/v1/${segment}/${id}/create_transaction`, { charge, charge_calculator_version: version })
}

async function uploadProbe(): Promise<Probe> {
  const { payload, contentType } = await multipartBody([
    ['side', 'front'],
    ['file', { bytes: tinyPng, fileName: 'passport.png', type: 'image/png' }],
  ])
  return { url: '/api/v1/me/personal/identity_document', payload, headers: { 'content-type': contentType } }
}

/** The download of a fresh attachment in a sale's conversation (`base` is its party or admin path): posted by its seller. */
async function attachmentDownload(sale: string, base: string): Promise<Probe> {
  const { payload, contentType } = await multipartBody([['file', { bytes: tinyPng, fileName: 'label.png', type: 'image/png' }]])
  const posted = await w.testApp.app.inject({
    method: 'POST',
    url: `${sale}/messages`,
    headers: { authorization: `Bearer ${w.tokens.seller}`, 'content-type': contentType },
    payload,
  })
  return { url: `${base}/messages/${(posted.json() as { id: string }).id}/attachment` }
}

/** A well-formed opt-out token this server never signed. */
const forgedOptOut = `${uuidV7(new Date())}.reminders.${'a'.repeat(43)}`
/** The reminder e-mails' one-click opt-out of someone in the test: the server's own token. */
async function optOutUrl(): Promise<string> {
  const { db } = w.testApp.app.services
  const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow()
  return `/email-opt-out/${optOutToken(await optOutLinkKey(db), user.id, 'reminders')}`
}

/** An allowed case-file or receipt download is a PDF, not an error in JSON. */
const isPdf = (_caller: Caller, answer: Answer) =>
  typeof answer.body === 'string' && answer.body.startsWith('%PDF-') ? undefined : `expected a PDF, got ${answer.status}`

const webhookEvent = () =>
  JSON.stringify({
    id: `evt_${uuidV7(new Date())}`,
    object: 'event',
    type: 'customer.created',
    created: Math.floor(Date.now() / 1000),
    data: { object: {} },
  })
const signed = (secret: string): Probe => {
  const payload = webhookEvent()
  return {
    url: '/webhooks/sandbox',
    payload,
    headers: { 'content-type': 'application/json', 'pactum-signature': signWebhook(payload, secret, Math.floor(Date.now() / 1000)) },
  }
}

/** An AfterShip tracking update for a parcel nobody registered: accepted (200) and ignored when genuine. */
const trackingWebhook = (secret: string): Probe => {
  const payload = JSON.stringify({
    event: 'tracking_update',
    event_id: 'evt-matrix',
    msg: { slug: 'dhl', tracking_number: 'JD-NOBODY', tag: 'Delivered' },
  })
  return {
    url: '/webhooks/tracking',
    payload,
    headers: { 'content-type': 'application/json', 'aftership-hmac-sha256': signAftershipWebhook(payload, secret) },
  }
}

/** A partner client as an admin enters it in the console. */
const consoleClient = {
  name: 'Matrix Console',
  background_color: '#123456',
  text_color: '#ffffff',
  url: 'https://console.example/',
  routes: ['/transactions'],
  mobile_navbar_hidden: false,
  show_seller_confirm_handover: true,
}

/** In the order they run. */
const plans: Partial<Record<MatrixRoute, Plan>> = {
  'GET /api/v1/health': get('/api/v1/health'),
  'GET /api/v1/config': get('/api/v1/config'),
  'GET /favicon.ico': get('/favicon.ico'),
  'GET /stop-invitations/:token': get(`/stop-invitations/${'a'.repeat(43)}`),
  'POST /stop-invitations/:token': { probe: () => form(`/stop-invitations/${'b'.repeat(43)}`, { 'List-Unsubscribe': 'One-Click' }) },
  'GET /api/v1/supported_carriers': get('/api/v1/supported_carriers'),
  'GET /api/v1/supported_countries': get('/api/v1/supported_countries'),
  'GET /api/v1/supported_notification_languages': get('/api/v1/supported_notification_languages'),
  'GET /api/v1/charge': get('/api/v1/charge?price=10000&currency=eur&payment_method=card'),
  'GET /api/v1/p2p/charge': get('/api/v1/p2p/charge?price=5000&currency=eur&payment_method=card'),
  'GET /api/v1/clients/:client_id': get('/api/v1/clients/demo-marketplace'),

  'GET /api/v1/me': get('/api/v1/me'),
  // Each GET is answered for the caller alone: the list in it holds their own transactions only.
  'GET /api/v1/me/batch': {
    ...get('/api/v1/me/batch?get=%2Fme%2Ftransactions&get=%2Fme%2Fpersonal'),
    check: (caller, answer) =>
      onlyOwnTransactions(() => [w.online.id, w.f2f.id])(caller, {
        ...answer,
        body: (answer.body as { answers: Array<{ body: unknown }> }).answers[0]?.body,
      }),
  },
  'POST /api/v1/me/email_confirmation': request(() => '/api/v1/me/email_confirmation'),
  // Another address than the caller's: refused (400) for everyone signed in, so nobody's account closes mid-matrix.
  'POST /api/v1/me/email': request(
    () => '/api/v1/me/email',
    () => ({ new_email: 'new@example.com', current_password: 'not the password' }),
  ),
  'GET /api/v1/me/passkeys': get('/api/v1/me/passkeys'),
  'POST /api/v1/me/passkeys/registration_options': request(
    () => '/api/v1/me/passkeys/registration_options',
    () => ({ current_password: 'not the password' }),
  ),
  'POST /api/v1/me/passkeys': request(
    () => '/api/v1/me/passkeys',
    () => ({
      name: 'Key',
      response: {
        id: 'a',
        rawId: 'a',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
        clientExtensionResults: {},
      },
    }),
  ),
  'DELETE /api/v1/me/passkeys/:passkey_id': request(() => '/api/v1/me/passkeys/someone-elses'),
  'GET /api/v1/me/totp': get('/api/v1/me/totp'),
  'POST /api/v1/me/totp/setup': request(
    () => '/api/v1/me/totp/setup',
    () => ({ current_password: 'not the password' }),
  ),
  'POST /api/v1/me/totp': request(
    () => '/api/v1/me/totp',
    () => ({ code: '123456' }),
  ),
  'POST /api/v1/me/totp/remove': request(
    () => '/api/v1/me/totp/remove',
    () => ({ current_password: 'not the password' }),
  ),
  'POST /api/v1/me/close_account': request(
    () => '/api/v1/me/close_account',
    () => ({ confirm_email: 'nobody@example.com' }),
  ),
  'GET /api/v1/me/sessions': get('/api/v1/me/sessions'),
  'POST /api/v1/me/sessions/sign_out_others': request(() => '/api/v1/me/sessions/sign_out_others'),
  'POST /api/v1/me/password': request(
    () => '/api/v1/me/password',
    () => ({ current_password: 'not the password 1', new_password: 'battery staple 77' }),
  ),
  'GET /api/v1/me/guided_tour': get('/api/v1/me/guided_tour'),
  'POST /api/v1/me/guided_tour/seen': request(() => '/api/v1/me/guided_tour/seen'),
  'GET /api/v1/me/supported_currencies': get('/api/v1/me/supported_currencies'),
  'GET /api/v1/me/supported_payment_methods': get('/api/v1/me/supported_payment_methods'),
  'GET /api/v1/me/supported_payout_currencies': get('/api/v1/me/supported_payout_currencies'),
  'GET /api/v1/me/last_shipping_details': get('/api/v1/me/last_shipping_details'),
  'POST /api/v1/me/personal/set_active_country': request(
    () => '/api/v1/me/personal/set_active_country',
    () => ({ country_code: 'ie' }),
  ),
  'POST /api/v1/me/accept_tos_direct': request(() => '/api/v1/me/accept_tos_direct'),
  'GET /api/v1/me/personal': get('/api/v1/me/personal'),
  'PUT /api/v1/me/personal': { probe: () => ({ url: '/api/v1/me/personal', payload: { business_type: 'individual' } }) },
  'GET /api/v1/me/personal/payout_requirements': get('/api/v1/me/personal/payout_requirements'),
  'GET /api/v1/me/personal/stripe_publishable_key': get('/api/v1/me/personal/stripe_publishable_key'),
  'GET /api/v1/me/notification_language': get('/api/v1/me/notification_language'),
  'POST /api/v1/me/notification_language': request(
    () => '/api/v1/me/notification_language',
    () => ({ language_code: 'en_gb' }),
  ),
  'GET /api/v1/me/notification_preferences': get('/api/v1/me/notification_preferences'),
  'PUT /api/v1/me/notification_preferences': request(
    () => '/api/v1/me/notification_preferences',
    () => ({ messages: true, reminders: true, updates: true }),
  ),
  'GET /api/v1/me/debit_account': get('/api/v1/me/debit_account'),
  'POST /api/v1/me/debit_account': request(
    () => '/api/v1/me/debit_account',
    () => ({ account_holder_name: 'Sam Seller', iban: 'IE29AIBK93115212345678' }),
  ),
  'GET /api/v1/me/plaid/link_token': get('/api/v1/me/plaid/link_token'),
  'POST /api/v1/me/plaid/link_bank_details': request(
    () => '/api/v1/me/plaid/link_bank_details',
    () => ({ public_token: 'public-sandbox-not-issued', account_id: 'account-1' }),
  ),
  'GET /api/v1/me/verification_method': get('/api/v1/me/verification_method'),
  'GET /api/v1/me/verification_status': get('/api/v1/me/verification_status'),
  'GET /api/v1/me/verification_session': get('/api/v1/me/verification_session'),
  'GET /api/v1/me/account_session': get('/api/v1/me/account_session'),
  'POST /api/v1/me/account_onboarding_link': request(
    () => '/api/v1/me/account_onboarding_link',
    () => ({ return_url: '/profile/details' }),
  ),
  'GET /api/v1/me/personal/:document/verification_status': get('/api/v1/me/personal/identity_document/verification_status'),
  'POST /api/v1/me/personal/:document': { probe: uploadProbe },
  'POST /api/v1/me/personal/business_url': request(
    () => '/api/v1/me/personal/business_url',
    () => ({ url: 'https://shop.example/sam' }),
  ),
  'POST /app_api/contact_us': request(
    () => '/app_api/contact_us',
    () => ({ email: 'someone@example.com', subject: 'A question', message: 'How long does a refund take?' }),
  ),
  'GET /app_api/balance': get('/app_api/balance'),
  'GET /app_api/payouts': get('/app_api/payouts'),
  'POST /api/v1/me/transactions': { probe: quotedOnlineSale },
  'GET /api/v1/me/transactions': { ...get('/api/v1/me/transactions'), check: onlyOwnTransactions(() => [w.online.id, w.f2f.id]) },
  'POST /api/v1/p2p/me/transactions': { probe: quotedF2fSale },
  'GET /api/v1/p2p/me/transactions': { ...get('/api/v1/p2p/me/transactions'), check: onlyOwnTransactions(() => [w.f2f.id]) },

  'POST /api/v1/me/listings': request(
    () => '/api/v1/me/listings',
    () => ({ listing_type: 'multi_use', type: 'online', price: 10_000, currency: 'eur', description: 'A chair' }),
  ),
  'GET /api/v1/me/listings': get('/api/v1/me/listings'),
  'PATCH /api/v1/me/listings/:id': request(
    () => `/api/v1/me/listings/${w.listings.multiUse}`,
    () => ({ description: 'A lamp with its shade' }),
  ),
  'GET /api/v1/single_use_listings/:id': { probe: () => ({ url: `/api/v1/single_use_listings/${w.listings.singleUse}` }) },
  'GET /api/v1/multi_use_listings/:id': { probe: () => ({ url: `/api/v1/multi_use_listings/${w.listings.multiUse}` }) },
  'GET /api/v1/:listingType/:id': { probe: () => ({ url: `/api/v1/multi_use_listings/${w.listings.f2f}` }) },
  'GET /api/v1/listings/:id': { probe: () => ({ url: `/api/v1/listings/${w.listings.multiUse}` }) },
  'POST /api/v1/single_use_listings/:id/create_transaction': { probe: () => listingPurchase('single_use_listings', w.listings.singleUse) },
  'POST /api/v1/multi_use_listings/:id/create_transaction': { probe: () => listingPurchase('multi_use_listings', w.listings.multiUse) },
  'POST /api/v1/me/listings/:id/close': request(() => `/api/v1/me/listings/${w.listings.singleUse}/close`),

  // Joining and declining change the transaction: a fresh one for each caller.
  'GET /api/v1/transactions': { probe: () => ({ url: `/api/v1/transactions?join_code=${w.joinable.online.joinCode}` }) },
  'PUT /api/v1/transactions': {
    probe: async () => ({ url: `/api/v1/transactions?join_code=${(await createSale(w.call)).joinCode}` }),
  },
  'POST /api/v1/transactions/:id/reject': {
    probe: async () => {
      const sale = await createSale(w.call)
      return json(`/api/v1/transactions/${sale.id}/reject`, { join_code: sale.joinCode })
    },
  },
  'GET /api/v1/p2p/transactions_by_join_code/:code': {
    probe: () => ({ url: `/api/v1/p2p/transactions_by_join_code/${w.joinable.f2f.joinCode}` }),
  },
  'POST /api/v1/p2p/transactions_by_join_code/:code/join': {
    probe: async () => ({ url: `/api/v1/p2p/transactions_by_join_code/${(await createF2fSale(w.call)).joinCode}/join` }),
  },
  'GET /api/v1/transactions_by_claim_secret/:secret': {
    probe: async () => ({ url: `/api/v1/transactions_by_claim_secret/${(await createGuestSale(w.call, w.testApp.dataDir)).secret}` }),
  },
  'GET /api/v1/verify/:code': {
    forged: () => ({ url: `/api/v1/verify/${'V'.repeat(22)}` }),
    genuine: async () => ({ url: `/api/v1/verify/${await verifyCodeOf(w.online.id)}` }),
  },
  'GET /api/v1/verify/:code/badge.svg': {
    forged: () => ({ url: `/api/v1/verify/${'V'.repeat(22)}/badge.svg` }),
    genuine: async () => ({ url: `/api/v1/verify/${await verifyCodeOf(w.online.id)}/badge.svg` }),
  },
  'GET /api/v1/guest_invitations/:secret': {
    forged: () => ({ url: `/api/v1/guest_invitations/${'G'.repeat(43)}` }),
    genuine: async () => ({ url: `/api/v1/guest_invitations/${(await createGuestSale(w.call, w.testApp.dataDir)).secret}` }),
  },
  'POST /api/v1/transactions_by_claim_secret/:secret/claim_as_buyer': {
    probe: async () => ({
      url: `/api/v1/transactions_by_claim_secret/${(await createGuestSale(w.call, w.testApp.dataDir)).secret}/claim_as_buyer`,
    }),
  },
  'POST /api/v1/transactions_by_claim_secret/:secret/claim_as_seller': {
    probe: async () => ({
      url: `/api/v1/transactions_by_claim_secret/${(await createGuestSale(w.call, w.testApp.dataDir, { creator: 'buyer' })).secret}/claim_as_seller`,
    }),
  },
  'POST /api/v1/p2p/transactions_by_claim_secret/:secret/claim_as_buyer': {
    probe: async () => ({
      url: `/api/v1/p2p/transactions_by_claim_secret/${(await createGuestSale(w.call, w.testApp.dataDir, { kind: 'f2f' })).secret}/claim_as_buyer`,
    }),
  },
  'POST /api/v1/p2p/transactions_by_claim_secret/:secret/claim_as_seller': {
    probe: async () => ({
      url: `/api/v1/p2p/transactions_by_claim_secret/${(await createGuestSale(w.call, w.testApp.dataDir, { kind: 'f2f', creator: 'buyer' })).secret}/claim_as_seller`,
    }),
  },
  'POST /api/v1/partner/guest_transactions': {
    forged: () => ({
      ...json('/api/v1/partner/guest_transactions', partnerSale),
      headers: { 'content-type': 'application/json', 'x-pactum-api-key': 'matrix-partner.guessed' },
    }),
    genuine: () => ({
      ...json('/api/v1/partner/guest_transactions', partnerSale),
      headers: { 'content-type': 'application/json', 'x-pactum-api-key': w.partnerKey },
    }),
  },
  ...Object.fromEntries(
    (
      [
        ['POST /api/v1/partner/webhook_endpoints', 'POST', '/api/v1/partner/webhook_endpoints', webhookEndpoint],
        ['GET /api/v1/partner/webhook_endpoints', 'GET', '/api/v1/partner/webhook_endpoints', undefined],
        ['GET /api/v1/partner/events', 'GET', '/api/v1/partner/events', undefined],
        ['GET /api/v1/partner/transactions', 'GET', '/api/v1/partner/transactions', undefined],
      ] as const
    ).map(([route, method, url, payload]) => [
      route,
      {
        forged: () => partnerCall(method, url, 'matrix-partner.guessed', payload),
        genuine: () => partnerCall(method, url, w.partnerKey, payload),
      },
    ]),
  ),
  ...Object.fromEntries(
    (['rotate_secret', 'enable'] as const).map((action) => [
      `POST /api/v1/partner/webhook_endpoints/:id/${action}`,
      {
        forged: () => partnerCall('POST', `/api/v1/partner/webhook_endpoints/${randomUUID()}/${action}`, 'matrix-partner.guessed'),
        genuine: async () => partnerCall('POST', `/api/v1/partner/webhook_endpoints/${await matrixEndpoint()}/${action}`, w.partnerKey),
      },
    ]),
  ),
  'GET /api/v1/partner/transactions/:id': {
    forged: () => partnerCall('GET', `/api/v1/partner/transactions/${randomUUID()}`, 'matrix-partner.guessed'),
    genuine: async () => {
      const created = await w.testApp.app.inject({
        method: 'POST',
        url: '/api/v1/partner/guest_transactions',
        headers: { 'content-type': 'application/json', 'x-pactum-api-key': w.partnerKey },
        payload: partnerSale,
      })
      return partnerCall('GET', `/api/v1/partner/transactions/${created.json<{ id: string }>().id}`, w.partnerKey)
    },
  },
  'POST /api/v1/partner/transactions': {
    forged: () => partnerCall('POST', '/api/v1/partner/transactions', 'matrix-partner.guessed', partnerSale),
    genuine: () => partnerCall('POST', '/api/v1/partner/transactions', w.partnerKey, { ...partnerSale, buyer_email: undefined }),
  },
  'POST /api/v1/partner/transactions/:id/cancel': {
    forged: () => partnerCall('POST', `/api/v1/partner/transactions/${randomUUID()}/cancel`, 'matrix-partner.guessed'),
    genuine: async () => {
      const created = await w.testApp.app.inject({
        method: 'POST',
        url: '/api/v1/partner/transactions',
        headers: { 'content-type': 'application/json', 'x-pactum-api-key': w.partnerKey },
        payload: partnerSale,
      })
      return partnerCall('POST', `/api/v1/partner/transactions/${created.json<{ id: string }>().id}/cancel`, w.partnerKey)
    },
  },
  'DELETE /api/v1/partner/webhook_endpoints/:id': {
    forged: () => partnerCall('DELETE', `/api/v1/partner/webhook_endpoints/${randomUUID()}`, 'matrix-partner.guessed'),
    genuine: async () => partnerCall('DELETE', `/api/v1/partner/webhook_endpoints/${await matrixEndpoint()}`, w.partnerKey),
  },
  'POST /api/v1/p2p/transactions/:id/reject': {
    probe: async () => {
      const sale = await createF2fSale(w.call)
      return json(`/api/v1/p2p/transactions/${sale.id}/reject`, { join_code: sale.joinCode })
    },
  },

  // The online sale, paid: reads, then its steps in the order of its life.
  'GET /api/v1/transactions/:id': { probe: () => ({ url: online() }) },
  'GET /api/v1/transactions/:id/charge': { probe: () => ({ url: online('/charge?price=12000&payment_method=card') }) },
  'GET /api/v1/transactions/:id/seller_details': { probe: () => ({ url: online('/seller_details') }) },
  'GET /api/v1/transactions/:id/buyer_details': { probe: () => ({ url: online('/buyer_details') }) },
  'GET /api/v1/transactions/:id/shipping_details': { probe: () => ({ url: online('/shipping_details') }) },
  'GET /api/v1/transactions/:id/billing_details': { probe: () => ({ url: online('/billing_details') }) },
  'GET /api/v1/transactions/:id/stripe_publishable_key': { probe: () => ({ url: online('/stripe_publishable_key') }) },
  'GET /api/v1/transactions/:id/stripe_client_secret': { probe: () => ({ url: online('/stripe_client_secret') }) },
  'PATCH /api/v1/transactions/:id': request(online, () => ({ description: 'A blue bicycle, repainted' })),
  'POST /api/v1/transactions/:id/resend_invitation': request(() => online('/resend_invitation')),
  'POST /api/v1/transactions/:id/shipping_details': request(
    () => online('/shipping_details'),
    () => address,
  ),
  'POST /api/v1/transactions/:id/set_payment_method': request(
    () => online('/set_payment_method'),
    () => ({ payment_method: 'card' }),
  ),
  'POST /api/v1/transactions/:id/pay': request(() => online('/pay')),
  'POST /api/v1/transactions/:id/confirm_payment': request(
    () => online('/confirm_payment'),
    () => ({ payment_intent_id: w.online.intentId }),
  ),
  'POST /api/v1/transactions/:id/submit_order_issue': request(
    () => online('/submit_order_issue'),
    () => ({ description: 'The bell is missing' }),
  ),
  'POST /api/v1/transactions/:id/track': request(
    () => online('/track'),
    () => ({ carrier: 'dhl', tracking_code: 'JD0001234' }),
  ),
  'POST /api/v1/transactions/:id/confirm_delivery': request(() => online('/confirm_delivery')),
  'POST /api/v1/transactions/:id/request_receipt_confirmation': request(() => online('/request_receipt_confirmation')),
  'POST /api/v1/transactions/:id/complain_with_description': request(
    () => online('/complain_with_description'),
    () => ({ description: 'It arrived scratched' }),
  ),
  // The complaint goes to an admin, who settles it for the seller.
  'GET /api/v1/admin/transactions': get('/api/v1/admin/transactions?limit=10'),
  'POST /api/v1/admin/transactions/:id/confirm_delivery': request(
    () => `/api/v1/admin/transactions/${w.online.id}/confirm_delivery`,
    () => ({ reason: 'The carrier confirmed it by phone' }),
  ),
  'POST /api/v1/admin/transactions/:id/release_funds': request(
    () => `/api/v1/admin/transactions/${w.online.id}/release_funds?to=seller`,
    () => ({ reason: 'The photos show the scratch was there when listed' }),
  ),
  'GET /api/v1/admin/transactions/:id': { probe: () => ({ url: `/api/v1/admin/transactions/${w.online.id}` }) },
  'GET /api/v1/admin/audit_log': get('/api/v1/admin/audit_log'),
  'GET /api/v1/admin/clients': get('/api/v1/admin/clients'),
  'POST /api/v1/admin/clients': request(
    () => '/api/v1/admin/clients',
    () => ({ client_id: 'matrix-console', ...consoleClient }),
  ),
  'PUT /api/v1/admin/clients/:client_id': request(
    () => '/api/v1/admin/clients/matrix-console',
    () => ({ ...consoleClient, name: 'Matrix Console Market' }),
  ),
  'POST /api/v1/admin/clients/:client_id/api_key': request(() => '/api/v1/admin/clients/matrix-console/api_key'),
  'DELETE /api/v1/admin/clients/:client_id/api_key': request(() => '/api/v1/admin/clients/matrix-console/api_key'),
  'POST /api/v1/admin/clients/:client_id/webhook_endpoints': request(
    () => '/api/v1/admin/clients/matrix-partner/webhook_endpoints',
    () => webhookEndpoint,
  ),
  'GET /api/v1/admin/clients/:client_id/webhook_endpoints': get('/api/v1/admin/clients/matrix-partner/webhook_endpoints'),
  ...Object.fromEntries(
    (['rotate_secret', 'enable'] as const).map((action) => [
      `POST /api/v1/admin/clients/:client_id/webhook_endpoints/:id/${action}`,
      { probe: async () => ({ url: `/api/v1/admin/clients/matrix-partner/webhook_endpoints/${await matrixEndpoint()}/${action}` }) },
    ]),
  ),
  'GET /api/v1/admin/clients/:client_id/webhook_endpoints/:id/deliveries': {
    probe: async () => ({ url: `/api/v1/admin/clients/matrix-partner/webhook_endpoints/${await matrixEndpoint()}/deliveries` }),
  },
  'POST /api/v1/admin/clients/:client_id/webhook_endpoints/:id/replay': {
    probe: async () =>
      json(`/api/v1/admin/clients/matrix-partner/webhook_endpoints/${await matrixEndpoint()}/replay`, {
        from: '2026-01-01T00:00:00Z',
        to: '2026-01-02T00:00:00Z',
      }),
  },
  'DELETE /api/v1/admin/clients/:client_id/webhook_endpoints/:id': {
    probe: async () => ({ url: `/api/v1/admin/clients/matrix-partner/webhook_endpoints/${await matrixEndpoint()}` }),
  },
  'GET /api/v1/admin/client_changes': get('/api/v1/admin/client_changes'),
  'GET /api/v1/admin/ledger/verify': get('/api/v1/admin/ledger/verify'),
  'GET /api/v1/admin/backup': get('/api/v1/admin/backup'),
  'POST /api/v1/admin/outbox/:id/retry': request(() => `/api/v1/admin/outbox/${w.outboxId}/retry`),
  'GET /api/v1/admin/long_holds': get('/api/v1/admin/long_holds'),
  'GET /api/v1/admin/reconciliation': get('/api/v1/admin/reconciliation?date=2026-01-01'),
  'POST /api/v1/admin/reconciliation/runs': request(
    () => '/api/v1/admin/reconciliation/runs',
    () => ({ date: '2026-01-02' }),
  ),
  'POST /api/v1/admin/reconciliation/differences/:id/explain': request(
    () => `/api/v1/admin/reconciliation/differences/${w.differenceId}/explain`,
    () => ({ reason: 'A test transfer made by hand' }),
  ),
  // The sale a dispute froze: evidence first, then acceptance (409 by then), a recovery (not lost after a release: 4xx).
  'GET /api/v1/admin/chargebacks': get('/api/v1/admin/chargebacks?state=all'),
  'POST /api/v1/admin/chargebacks/:id/evidence': request(
    () => `/api/v1/admin/chargebacks/${w.disputeId}/evidence`,
    () => ({ reason: 'Our record of the sale' }),
  ),
  'POST /api/v1/admin/chargebacks/:id/accept': request(
    () => `/api/v1/admin/chargebacks/${w.disputeId}/accept`,
    () => ({ reason: 'The buyer is right' }),
  ),
  'POST /api/v1/admin/chargebacks/:id/recover': request(
    () => `/api/v1/admin/chargebacks/${w.disputeId}/recover`,
    () => ({ amount: 100, reason: 'Fraud' }),
  ),
  'POST /api/v1/admin/transactions/:id/clear_fraud_warning': request(
    () => `/api/v1/admin/transactions/${w.online.id}/clear_fraud_warning`,
    () => ({ reason: 'Checked with the buyer' }),
  ),
  // A sale never paid: the sandbox refuses to dispute it (409), and changes nothing.
  'POST /api/v1/admin/sandbox/disputes': request(
    () => '/api/v1/admin/sandbox/disputes',
    () => ({ transaction_id: w.joinable.online.id }),
  ),
  'POST /api/v1/admin/sandbox/disputes/:id/decide': request(
    () => `/api/v1/admin/sandbox/disputes/${w.disputeId}/decide`,
    () => ({ outcome: 'won' }),
  ),
  'GET /api/v1/admin/dev_mailbox': get('/api/v1/admin/dev_mailbox'),
  'GET /api/v1/admin/dev_mailbox/:id': { probe: () => ({ url: `/api/v1/admin/dev_mailbox/${w.mailId}` }) },
  'POST /api/v1/transactions/:id/end_complaint_period': request(() => online('/end_complaint_period')),
  'POST /api/v1/transactions/:id/accept_complaint': request(() => online('/accept_complaint')),
  'POST /api/v1/transactions/:id/accept_listing_transaction': request(() => online('/accept_listing_transaction')),
  'POST /api/v1/transactions/:id/reject_listing_transaction': request(() => online('/reject_listing_transaction')),
  'POST /api/v1/transactions/:id/cancel': request(() => online('/cancel')),
  'POST /api/v1/transactions/:id/extend_tracking_deadline': request(
    () => online('/extend_tracking_deadline'),
    () => ({ hours: 24 }),
  ),
  // A case: the answers name an offer that is not open, so the parties get 409 `offer_not_open`.
  'POST /api/v1/transactions/:id/settlement_offers': request(
    () => online('/settlement_offers'),
    () => ({ refund_to_buyer: 3_000, release_to_seller: 9_000 }),
  ),
  'POST /api/v1/transactions/:id/settlement_offers/:offer_id/accept': request(() => online(`/settlement_offers/${noOffer}/accept`)),
  'POST /api/v1/transactions/:id/settlement_offers/:offer_id/decline': request(() => online(`/settlement_offers/${noOffer}/decline`)),
  'POST /api/v1/transactions/:id/escalate': request(() => online('/escalate')),
  'GET /api/v1/transactions/:id/case': { probe: () => ({ url: online('/case') }) },
  'GET /api/v1/transactions/:id/case_file': { probe: () => ({ url: online('/case_file') }), check: isPdf },
  'GET /api/v1/transactions/:id/receipt': { probe: () => ({ url: online('/receipt') }), check: isPdf },
  'GET /api/v1/admin/transactions/:id/receipt': {
    probe: () => ({ url: `/api/v1/admin/transactions/${w.online.id}/receipt` }),
    check: isPdf,
  },
  'GET /api/v1/admin/transactions/:id/case_file': {
    probe: () => ({ url: `/api/v1/admin/transactions/${w.online.id}/case_file` }),
    check: isPdf,
  },
  'POST /api/v1/admin/transactions/:id/decide': request(
    () => `/api/v1/admin/transactions/${w.online.id}/decide`,
    () => ({ refund_to_buyer: 0, release_to_seller: 12_000, reason: 'The photos show the scratch was there when listed' }),
  ),
  'GET /api/v1/admin/cases': get('/api/v1/admin/cases'),
  // The conversation: the parties write and read; an admin through /admin (409 not_complained before a case).
  'GET /api/v1/transactions/:id/messages': { probe: () => ({ url: online('/messages') }) },
  'POST /api/v1/transactions/:id/messages': request(
    () => online('/messages'),
    () => ({ text: 'Is the bell included?' }),
  ),
  'GET /api/v1/transactions/:id/messages/:message_id/attachment': { probe: () => attachmentDownload(online(), online()) },
  'GET /api/v1/admin/transactions/:id/messages': { probe: () => ({ url: `/api/v1/admin/transactions/${w.online.id}/messages` }) },
  'POST /api/v1/admin/transactions/:id/messages': request(
    () => `/api/v1/admin/transactions/${w.online.id}/messages`,
    () => ({ text: 'Please send a photo of the scratch' }),
  ),
  'GET /api/v1/admin/transactions/:id/messages/:message_id/attachment': {
    probe: () => attachmentDownload(online(), `/api/v1/admin/transactions/${w.online.id}`),
  },

  // The face-to-face sale, its deposit paid and accepted.
  'GET /api/v1/p2p/transactions/:id': { probe: () => ({ url: f2f() }) },
  'GET /api/v1/p2p/transactions/:id/charge': { probe: () => ({ url: f2f('/charge?price=15000') }) },
  'GET /api/v1/p2p/transactions/:id/seller_details': { probe: () => ({ url: f2f('/seller_details') }) },
  'GET /api/v1/p2p/transactions/:id/buyer_details': { probe: () => ({ url: f2f('/buyer_details') }) },
  'GET /api/v1/p2p/transactions/:id/billing_details': { probe: () => ({ url: f2f('/billing_details') }) },
  'GET /api/v1/p2p/transactions/:id/deposit_stripe_client_secret': { probe: () => ({ url: f2f('/deposit_stripe_client_secret') }) },
  'PATCH /api/v1/p2p/transactions/:id': request(f2f, () => ({ description: 'A film camera and its case' })),
  'POST /api/v1/p2p/transactions/:id/resend_invitation': request(() => f2f('/resend_invitation')),
  'POST /api/v1/p2p/transactions/:id/set_deposit_payment_method': request(
    () => f2f('/set_deposit_payment_method'),
    () => ({ payment_method: 'card' }),
  ),
  'POST /api/v1/p2p/transactions/:id/pay_deposit': request(() => f2f('/pay_deposit')),
  'POST /api/v1/p2p/transactions/:id/accept_deposit': request(() => f2f('/accept_deposit')),
  'POST /api/v1/p2p/transactions/:id/set_price': {
    probe: async () => {
      const quote = await send('seller', 'GET', { url: f2f('/charge?price=15000') })
      const { charge, charge_calculator_version: version } = quote.body as { charge: number; charge_calculator_version: number }
      return json(f2f('/set_price'), { price: 15_000, charge, charge_calculator_version: version })
    },
  },
  'POST /api/v1/p2p/transactions/:id/pay_remainder': request(() => f2f('/pay_remainder')),
  'GET /api/v1/p2p/transactions/:id/remainder_stripe_client_secret': { probe: () => ({ url: f2f('/remainder_stripe_client_secret') }) },
  'POST /api/v1/p2p/transactions/:id/confirm_payment': request(
    () => f2f('/confirm_payment'),
    () => ({ payment_intent_id: w.f2f.depositIntentId }),
  ),
  'POST /api/v1/p2p/transactions/:id/skip_remainder': request(() => f2f('/skip_remainder')),
  'POST /api/v1/p2p/transactions/:id/confirm_handover': request(() => f2f('/confirm_handover')),
  'POST /api/v1/p2p/transactions/:id/complain': request(
    () => f2f('/complain'),
    () => ({ description: 'The shutter sticks' }),
  ),
  'POST /api/v1/p2p/transactions/:id/end_complaint_period': request(() => f2f('/end_complaint_period')),
  'POST /api/v1/p2p/transactions/:id/accept_complaint': request(() => f2f('/accept_complaint')),
  'POST /api/v1/p2p/transactions/:id/accept_listing_transaction': request(() => f2f('/accept_listing_transaction')),
  'POST /api/v1/p2p/transactions/:id/reject_listing_transaction': request(() => f2f('/reject_listing_transaction')),
  'POST /api/v1/p2p/transactions/:id/settlement_offers': request(
    () => f2f('/settlement_offers'),
    () => ({ refund_to_buyer: 1_000, release_to_seller: 4_000 }),
  ),
  'POST /api/v1/p2p/transactions/:id/settlement_offers/:offer_id/accept': request(() => f2f(`/settlement_offers/${noOffer}/accept`)),
  'POST /api/v1/p2p/transactions/:id/settlement_offers/:offer_id/decline': request(() => f2f(`/settlement_offers/${noOffer}/decline`)),
  'POST /api/v1/p2p/transactions/:id/escalate': request(() => f2f('/escalate')),
  'GET /api/v1/p2p/transactions/:id/case': { probe: () => ({ url: f2f('/case') }) },
  'GET /api/v1/p2p/transactions/:id/case_file': { probe: () => ({ url: f2f('/case_file') }), check: isPdf },
  'GET /api/v1/p2p/transactions/:id/receipt': { probe: () => ({ url: f2f('/receipt') }), check: isPdf },
  'GET /api/v1/p2p/transactions/:id/messages': { probe: () => ({ url: f2f('/messages') }) },
  'POST /api/v1/p2p/transactions/:id/messages': request(
    () => f2f('/messages'),
    () => ({ text: 'See you at six' }),
  ),
  'GET /api/v1/p2p/transactions/:id/messages/:message_id/attachment': { probe: () => attachmentDownload(f2f(), f2f()) },
  'POST /api/v1/p2p/transactions/:id/cancel_with_description': request(
    () => f2f('/cancel_with_description'),
    () => ({ description: 'We changed our minds' }),
  ),

  // Authorised by what the request carries, not by who sends it.
  'GET /email-opt-out/:token': {
    forged: () => ({ url: `/email-opt-out/${forgedOptOut}` }),
    genuine: async () => ({ url: await optOutUrl() }),
  },
  'POST /email-opt-out/:token': {
    forged: () => form(`/email-opt-out/${forgedOptOut}`, { 'List-Unsubscribe': 'One-Click' }),
    genuine: async () => form(await optOutUrl(), { 'List-Unsubscribe': 'One-Click' }),
  },
  'POST /webhooks/sandbox': { forged: () => signed('whsec_someone_else_entirely_0123'), genuine: () => signed(webhookSecret) },
  'POST /webhooks/tracking': {
    forged: () => trackingWebhook('whsec_someone_else_entirely_0123'),
    genuine: () => trackingWebhook(w.trackingFake.webhookSecret),
    refused: { status: 401, code: 'unauthenticated' },
  },
  'GET /sandbox/v1/payment_intents/:id': {
    forged: () => ({ url: `/sandbox/v1/payment_intents/${w.p24.intentId}?client_secret=${w.p24.intentId}_secret_guessed` }),
    genuine: () => ({ url: `/sandbox/v1/payment_intents/${w.p24.intentId}?client_secret=${w.p24.clientSecret}` }),
  },
  'POST /sandbox/v1/payment_intents/:id/confirm': {
    forged: () =>
      json(`/sandbox/v1/payment_intents/${w.p24.intentId}/confirm`, {
        client_secret: `${w.p24.intentId}_secret_guessed`,
        return_url: returnUrl,
      }),
    genuine: () =>
      json(`/sandbox/v1/payment_intents/${w.p24.intentId}/confirm`, { client_secret: w.p24.clientSecret, return_url: returnUrl }),
  },
  'GET /sandbox/p24/:id': {
    forged: () => ({
      url: `/sandbox/p24/${w.p24.intentId}?${new URLSearchParams({ client_secret: `${w.p24.intentId}_secret_guessed`, return_url: returnUrl }).toString()}`,
    }),
    genuine: () => ({
      url: `/sandbox/p24/${w.p24.intentId}?${new URLSearchParams({ client_secret: w.p24.clientSecret, return_url: returnUrl }).toString()}`,
    }),
  },
  'POST /sandbox/p24/:id': {
    forged: () =>
      form(`/sandbox/p24/${w.p24.intentId}`, {
        client_secret: `${w.p24.intentId}_secret_guessed`,
        return_url: returnUrl,
        outcome: 'authorise',
      }),
    genuine: () => form(`/sandbox/p24/${w.p24.intentId}`, { client_secret: w.p24.clientSecret, return_url: returnUrl, outcome: 'fail' }),
  },
  'GET /sandbox/identity/:id': {
    forged: () => ({
      url: `/sandbox/identity/${w.identitySession.id}?${new URLSearchParams({ client_secret: 'vs_secret_guessed', return_url: returnUrl }).toString()}`,
    }),
    genuine: () => ({
      url: `/sandbox/identity/${w.identitySession.id}?${new URLSearchParams({ client_secret: w.identitySession.clientSecret, return_url: returnUrl }).toString()}`,
    }),
  },
  'POST /sandbox/identity/:id': {
    forged: () =>
      form(`/sandbox/identity/${w.identitySession.id}`, { client_secret: 'vs_secret_guessed', return_url: returnUrl, outcome: 'verified' }),
    genuine: () =>
      form(`/sandbox/identity/${w.identitySession.id}`, {
        client_secret: w.identitySession.clientSecret,
        return_url: returnUrl,
        outcome: 'unverified',
      }),
  },
  'POST /sandbox/plaid/link/:link_token/complete': {
    forged: () => json('/sandbox/plaid/link/link-sandbox-never-issued/complete', { institution: 'success' }),
    genuine: () => json(`/sandbox/plaid/link/${encodeURIComponent(w.linkToken)}/complete`, { institution: 'success' }),
  },
}

/** What refuses a caller; an `allowed` caller never gets one of these. */
const refusalCodes = new Set(['unauthenticated', 'not_admin', 'not_found', 'not_buyer', 'not_seller', 'forbidden'])
const expectedRefusal: Partial<Record<Outcome, { status: number; code: string }>> = {
  unauthenticated: { status: 401, code: 'unauthenticated' },
  not_admin: { status: 403, code: 'not_admin' },
  not_found: { status: 404, code: 'not_found' },
  not_buyer: { status: 403, code: 'not_buyer' },
  not_seller: { status: 403, code: 'not_seller' },
  forbidden: { status: 403, code: 'forbidden' },
}

function judge(outcome: Outcome, answer: Answer): string | undefined {
  const seen = `${answer.status} ${answer.code ?? ''}`.trim()
  const error = (answer.body as { error?: unknown } | undefined)?.error
  if (typeof error === 'string' && error.startsWith('No route for')) return `the probe missed the route (${error})`
  if (outcome === 'public') return answer.status >= 200 && answer.status < 300 ? undefined : `expected 2xx, got ${seen}`
  if (outcome === 'allowed') {
    const refused = answer.status === 401 || answer.status >= 500 || (answer.code !== undefined && refusalCodes.has(answer.code))
    return refused ? `expected to get past authorization, got ${seen}` : undefined
  }
  const expected = expectedRefusal[outcome]
  if (!expected) return `no check for ${outcome}`
  return answer.status === expected.status && answer.code === expected.code
    ? undefined
    : `expected ${expected.status} ${expected.code}, got ${seen}`
}

/**
 * The same request made malformed everywhere it can be: nonsense path
 * parameters and query values, a body that is not JSON. Refusals that must
 * come before the input is read hold for it.
 */
function malformed(method: string, path: string): Probe {
  const url = `${path.replace(/:[a-z_]+/g, 'not-a-valid-value')}?limit=-1&price=-1&to=nobody&join_code=`
  return method === 'GET' ? { url } : { url, payload: '{"broken":', headers: { 'content-type': 'application/json' } }
}

/** Those to be refused first, then the parties whose calls may change the transaction. */
function callOrder(row: Row): Caller[] {
  const parties = [...(['buyer', 'seller'] as const)].sort((a, b) => Number(row[a] === 'allowed') - Number(row[b] === 'allowed'))
  return ['anonymous', 'stranger', 'admin', ...parties]
}

/** A transaction id that was never issued, in the id format. */
const unknownId = uuidV7(new Date('2020-01-01T00:00:00Z'))

async function callAs(route: MatrixRoute, caller: Caller, plan: Ordinary): Promise<string[]> {
  const [method, path] = route.split(' ') as [string, string]
  const outcome: Outcome = authorizationMatrix[route][caller]
  if (outcome === 'unauthenticated' || outcome === 'not_admin') {
    const problems = [judge(outcome, await send(caller, method, malformed(method, path)))]
    if (method === 'GET') {
      // HEAD shares the GET's hooks; its answer has no body to read the code from.
      const head = await send(caller, 'HEAD', malformed(method, path))
      if (head.status !== expectedRefusal[outcome]?.status)
        problems.push(`HEAD: expected ${expectedRefusal[outcome]?.status}, got ${head.status}`)
    }
    return problems.filter((problem) => problem !== undefined)
  }
  const probe = await plan.probe(caller)
  const answer = await send(caller, method, probe)
  const problems = [judge(outcome, answer)]
  if (outcome === 'not_found') {
    // Never revealed: the answer is the one for a transaction that does not exist.
    const nowhere = { ...probe, url: probe.url.replaceAll(w.online.id, unknownId).replaceAll(w.f2f.id, unknownId) }
    const missing = await send(caller, method, nowhere)
    if (missing.status !== answer.status || JSON.stringify(missing.body) !== JSON.stringify(answer.body)) {
      problems.push(`answers ${JSON.stringify(answer.body)}, but for no transaction ${JSON.stringify(missing.body)}`)
    }
  }
  if (outcome === 'allowed' && problems[0] === undefined) problems.push(plan.check?.(caller, answer))
  return problems.filter((problem) => problem !== undefined)
}

async function callWithCredentials(route: MatrixRoute, caller: Caller, plan: Credentialed): Promise<string[]> {
  const method = route.split(' ')[0] as string
  const outcome: Outcome = authorizationMatrix[route][caller]
  const problems: string[] = []
  const forged = await send(caller, method, plan.forged())
  const refused = plan.refused ?? { status: 400, code: 'validation_failed' }
  if (outcome === 'signature' && !(forged.status === refused.status && forged.code === refused.code)) {
    problems.push(`a bad signature: expected ${refused.status} ${refused.code}, got ${forged.status} ${forged.code ?? ''}`)
  }
  if (outcome === 'capability' && forged.status !== 404)
    problems.push(`a guessed secret: expected 404, got ${forged.status} ${forged.code ?? ''}`)
  if (outcome === 'api_key' && !(forged.status === 401 && forged.code === 'invalid_api_key')) {
    problems.push(`a wrong API key: expected 401 invalid_api_key, got ${forged.status} ${forged.code ?? ''}`)
  }
  if (outcome !== 'signature' && outcome !== 'capability' && outcome !== 'api_key')
    problems.push(`${outcome} is not checked with credentials`)
  if (caller === 'anonymous') {
    // The genuine article needs nobody signed in.
    const genuine = await send(caller, method, await plan.genuine())
    const accepted = outcome === 'signature' ? genuine.status === 200 : genuine.status < 400
    if (!accepted) problems.push(`the genuine secret or signature: got ${genuine.status} ${genuine.code ?? ''}`)
  }
  return problems
}

describe('the authorization matrix', () => {
  beforeAll(async () => {
    w = await setUp()
  })
  afterAll(async () => {
    await w?.testApp.close()
    await w?.trackingFake.close()
  })

  it('lists every registered route, and only those', () => {
    const routes = new Set(registered)
    const served = [...routes].filter(
      (route) =>
        !(route.startsWith('HEAD ') && routes.has(route.replace(/^HEAD /, 'GET '))) &&
        !excludedRoutes.some(({ prefix }) => route.split(' ')[1]?.startsWith(prefix)),
    )
    const listed = Object.keys(authorizationMatrix)
    expect(
      served.filter((route) => !listed.includes(route)),
      'registered but not in authorization-matrix.ts',
    ).toEqual([])
    expect(
      listed.filter((route) => !routes.has(route)),
      'in authorization-matrix.ts but no longer registered',
    ).toEqual([])
  })

  it('has a way to call every route in the table', () => {
    expect(Object.keys(authorizationMatrix).filter((route) => !(route in plans))).toEqual([])
  })

  for (const [route, plan] of Object.entries(plans) as Array<[MatrixRoute, Plan]>) {
    it(`${route}: ${summary(authorizationMatrix[route])}`, async () => {
      const problems: string[] = []
      for (const caller of callOrder(authorizationMatrix[route])) {
        const found = 'probe' in plan ? await callAs(route, caller, plan) : await callWithCredentials(route, caller, plan)
        problems.push(...found.map((problem) => `${caller}: ${problem}`))
      }
      expect(problems).toEqual([])
    })
  }
})

function summary(row: Row): string {
  return (Object.entries(row) as Array<[Caller, Outcome]>).map(([caller, outcome]) => `${caller} ${outcome}`).join(', ')
}
