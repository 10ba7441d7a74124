import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedSale } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { inputRuleBreach, maxDepth } from './input-rules.ts'

const testApps = appPerTest()

describe('inputRuleBreach', () => {
  const controlCharacters = 'control characters (such as NUL) are not allowed'

  it('finds NUL and other control characters anywhere in the input, and allows tabs and line breaks', () => {
    expect(inputRuleBreach({ description: 'A bike\nwith\ttwo wheels\r\n' })).toBeNull()
    expect(inputRuleBreach({ description: 'A bike\u0000' })).toEqual({ path: ['description'], message: controlCharacters })
    expect(inputRuleBreach({ address: { lines: ['ok', 'bad\u001b[31m'] } })).toEqual({
      path: ['address', 'lines', '1'],
      message: controlCharacters,
    })
    expect(inputRuleBreach({ 'key\u0007': 'x' })).toEqual({ path: ['key\u0007'], message: controlCharacters })
    expect(inputRuleBreach({ price: 100, ok: true, none: null })).toBeNull()
  })

  it('stops at the depth limit instead of walking on', () => {
    const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) })
    expect(inputRuleBreach(nested(maxDepth))).toBeNull()
    expect(inputRuleBreach(nested(maxDepth + 1))).toEqual({
      path: Array(maxDepth).fill('a'),
      message: `nested deeper than ${maxDepth} levels`,
    })
  })
})

describe('input nested deeper than any request needs', () => {
  it('answers 400 naming where it got too deep, never 500', async () => {
    const testApp = await testApps.open()
    const token = await testApp.tokenFor('deep@example.com')
    for (const url of ['/api/v1/me/transactions', '/api/v1/me/notification_language']) {
      const answer = await testApp.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: `${'['.repeat(5000)}${']'.repeat(5000)}`,
      })
      expect(answer.statusCode, url).toBe(400)
      const body = answer.json()
      expect(body.code, url).toBe('validation_failed')
      expect(body.error, url).toMatch(/^body\.0\.0\.[0.]*: nested deeper than/)
      expect(body.details.fields[0].field, url).toMatch(/^body\.0\.0\./)
    }
  })
})

describe('a NUL byte in any text field', () => {
  it('answers 400 naming the field, never 500', async () => {
    const testApp = await testApps.open()
    const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
    const call = apiCaller(testApp.app, tokens)
    const { id } = await joinedSale(call)
    const nul = 'bad\u0000text'
    const cases: Array<[Parameters<typeof call>, string]> = [
      [
        [
          'seller',
          'POST',
          '/api/v1/me/transactions',
          { role: 'seller', price: 1000, currency: 'eur', description: nul, charge: 70, charge_calculator_version: 1 },
        ],
        'body.description',
      ],
      [
        [
          'seller',
          'POST',
          '/api/v1/p2p/me/transactions',
          { role: 'seller', currency: 'eur', description: nul, deposit_price: 1000, deposit_charge: 70, charge_calculator_version: 1 },
        ],
        'body.description',
      ],
      [['buyer', 'POST', `/api/v1/transactions/${id}/submit_order_issue`, { description: nul }], 'body.description'],
      [
        [
          'buyer',
          'POST',
          `/api/v1/transactions/${id}/shipping_details`,
          { name: 'Bea', line1: nul, city: 'Dublin', postal_code: 'D01', country_code: 'ie' },
        ],
        'body.line1',
      ],
      [['admin', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=seller`, { reason: nul }], 'body.reason'],
      [['seller', 'GET', `/api/v1/me/transactions?search=${encodeURIComponent(nul)}`], 'querystring.search'],
      [['admin', 'GET', `/api/v1/admin/transactions?status=${encodeURIComponent(nul)}`], 'querystring.status'],
      [['seller', 'GET', `/api/v1/transactions?join_code=${encodeURIComponent(nul)}`], 'querystring.join_code'],
      [['seller', 'POST', '/app_api/contact_us', { subject: 'Help', message: nul }], 'body.message'],
    ]
    for (const [request, field] of cases) {
      const answer = await call(...request)
      expect(answer.status, `${request[1]} ${request[2]}`).toBe(400)
      expect(answer.body, `${request[1]} ${request[2]}`).toMatchObject({ code: 'validation_failed', details: { field } })
    }
  })
})

describe('a request body sent compressed', () => {
  it('is refused 415 unsupported_content_encoding before it is read, whatever the coding but identity', async () => {
    const testApp = await testApps.open()
    const token = await testApp.tokenFor('zip@example.com')
    const quote = (await testApp.app.inject({ method: 'GET', url: '/api/v1/charge?price=1000&currency=eur&payment_method=card' })).json()
    const body = JSON.stringify({
      role: 'seller',
      price: 1000,
      currency: 'eur',
      description: 'A lamp',
      charge: quote.charge,
      charge_calculator_version: quote.charge_calculator_version,
    })
    const send = (encoding: string | undefined) =>
      testApp!.app.inject({
        method: 'POST',
        url: '/api/v1/me/transactions',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(encoding ? { 'content-encoding': encoding } : {}),
        },
        payload: body,
      })
    for (const encoding of ['gzip', 'deflate', 'br', 'x-gzip', 'identity, gzip', 'zstd']) {
      const answer = await send(encoding)
      expect(answer.statusCode, encoding).toBe(415)
      expect(answer.json(), encoding).toMatchObject({
        code: 'unsupported_content_encoding',
        details: { field: 'headers.content-encoding' },
      })
    }
    expect(await testApp.database.db.selectFrom('transactions').select('id').execute()).toHaveLength(0)
    expect((await send('identity')).statusCode).toBe(201)
    expect((await send(undefined)).statusCode).toBe(201)
  })
})

/** A seller on a new app, with the charge quoted for a 10 EUR card sale and that sale's fields but a description. */
async function sellerWithQuote() {
  const testApp = await testApps.open()
  const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {} }))
  const quote = (await call('seller', 'GET', '/api/v1/charge?price=1000&currency=eur&payment_method=card')).body
  const online = {
    role: 'seller',
    price: 1000,
    currency: 'eur',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  }
  return { call, quote, online }
}

describe('a description of nothing visible', () => {
  it('is refused 400 naming the field, on creates and edits of transactions and listings', async () => {
    const { call, quote, online } = await sellerWithQuote()
    // Zero-width space, ZWJ, ZWNJ, BOM, word joiner, soft hyphen, LRM, Mongolian vowel separator, blank Braille, Hangul filler, spaces.
    const invisible = [
      '\u200b',
      '\u200d\u200c',
      '\ufeff',
      '\u2060',
      '\u00ad',
      '\u200e',
      '\u180e',
      '\u2800',
      '\u3164',
      ' \u00a0\u3000\t\n',
      '\u200b \u2060\ufeff',
    ]
    for (const description of invisible) {
      const created = await call('seller', 'POST', '/api/v1/me/transactions', { ...online, description })
      expect(created, JSON.stringify(description)).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', error: expect.stringMatching(/^body\.description: /) },
      })
    }
    const f2f = await call('seller', 'POST', '/api/v1/p2p/me/transactions', {
      role: 'seller',
      currency: 'eur',
      description: '\u200b\u200b',
      deposit_price: 1000,
      deposit_charge: quote.charge,
      charge_calculator_version: 1,
    })
    expect(f2f).toMatchObject({ status: 400, body: { code: 'validation_failed', error: expect.stringMatching(/^body\.description: /) } })
    const listing = await call('seller', 'POST', '/api/v1/me/listings', {
      type: 'online',
      listing_type: 'single_use',
      price: 1000,
      currency: 'eur',
      description: '\ufeff\u2060',
    })
    expect(listing).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', error: expect.stringMatching(/^body\.description: /) },
    })

    const sale = await call('seller', 'POST', '/api/v1/me/transactions', { ...online, description: '\u200bA lamp\u200b' })
    expect(sale.status).toBe(201)
    const edit = await call('seller', 'PATCH', `/api/v1/transactions/${sale.body.id}`, { description: '\u200b' })
    expect(edit).toMatchObject({ status: 400, body: { code: 'validation_failed', error: expect.stringMatching(/^body\.description: /) } })
  })
})

describe('an e-mail address whose local part is over 64 characters', () => {
  it('is refused wherever an address is read: invitations and the contact form', async () => {
    const { call, online: withoutDescription } = await sellerWithQuote()
    const online = { ...withoutDescription, description: 'A lamp' }
    const long = `${'a'.repeat(65)}@example.com`
    expect(await call('seller', 'POST', '/api/v1/me/transactions', { ...online, counterparty_email: long })).toMatchObject({
      status: 400,
      body: { details: { fields: [{ field: 'body.counterparty_email' }] } },
    })
    expect(await call('seller', 'POST', '/app_api/contact_us', { email: long, subject: 'Hi', message: 'Hello' })).toMatchObject({
      status: 400,
      body: { details: { fields: [{ field: 'body.email' }] } },
    })
    const sixtyFour = `${'a'.repeat(64)}@example.com`
    expect((await call('seller', 'POST', '/api/v1/me/transactions', { ...online, counterparty_email: sixtyFour })).status).toBe(201)
  })
})
