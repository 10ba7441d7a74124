import { afterEach, describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedSale } from '../../testing/sale-steps.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { inputRuleBreach, maxDepth } from './input-rules.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

describe('inputRuleBreach', () => {
  const controlCharacters = 'control characters (such as NUL) are not allowed'

  it('finds NUL and other control characters anywhere in the input, and allows tabs and line breaks', () => {
    expect(inputRuleBreach({ description: 'A bike\nwith\ttwo wheels\r\n' })).toBeNull()
    expect(inputRuleBreach({ description: 'A bike\u0000' })).toEqual({ path: ['description'], message: controlCharacters })
    expect(inputRuleBreach({ address: { lines: ['ok', 'bad\u001b[31m'] } })).toEqual({ path: ['address', 'lines', '1'], message: controlCharacters })
    expect(inputRuleBreach({ 'key\u0007': 'x' })).toEqual({ path: ['key\u0007'], message: controlCharacters })
    expect(inputRuleBreach({ price: 100, ok: true, none: null })).toBeNull()
  })

  it('stops at the depth limit instead of walking on', () => {
    const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) })
    expect(inputRuleBreach(nested(maxDepth))).toBeNull()
    expect(inputRuleBreach(nested(maxDepth + 1))).toEqual({ path: Array(maxDepth).fill('a'), message: `nested deeper than ${maxDepth} levels` })
  })
})

describe('input nested deeper than any request needs', () => {
  it('answers 400 naming where it got too deep, never 500', async () => {
    testApp = await createTestApp()
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
    testApp = await createTestApp()
    const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
    const call = apiCaller(testApp.app, tokens)
    const { id } = await joinedSale(call)
    const nul = 'bad\u0000text'
    const cases: Array<[Parameters<typeof call>, string]> = [
      [['seller', 'POST', '/api/v1/me/transactions', { role: 'seller', price: 1000, currency: 'eur', description: nul, charge: 70, charge_calculator_version: 1 }], 'body.description'],
      [['seller', 'POST', '/api/v1/p2p/me/transactions', { role: 'seller', currency: 'eur', description: nul, deposit_price: 1000, deposit_charge: 70, charge_calculator_version: 1 }], 'body.description'],
      [['buyer', 'POST', `/api/v1/transactions/${id}/submit_order_issue`, { description: nul }], 'body.description'],
      [['buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, { name: 'Bea', line1: nul, city: 'Dublin', postal_code: 'D01', country_code: 'ie' }], 'body.line1'],
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
