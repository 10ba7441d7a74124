import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { createSale, joinedSale, payByCard } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'

const testApps = appPerTest()

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } })
  const call = apiCaller(testApp.app, tokens)
  /** The sale's verification link, as its view gives it, and the public answer to it. */
  const verify = async (id: string, who: 'seller' | 'buyer' | null = null) => {
    const { body: view } = await call('seller', 'GET', `/api/v1/transactions/${id}`)
    const code = String(view.verify_url).split('/verify/')[1]
    return { code, view, answer: await call(who, 'GET', `/api/v1/verify/${code}`) }
  }
  return { app: testApp.app, call, verify }
}

/** Exactly these, and a test to change when one is added: the page must show nothing more (issue 35). */
const publicKeys = ['amount', 'buyer', 'created', 'currency', 'paid', 'partner_name', 'refunded', 'released', 'seller', 'state']

describe('GET /verify/{code}: the public check of a sale’s escrow', () => {
  it('tells anyone, signed in or not, that Pactum holds a paid sale’s money, and nothing more', async () => {
    const { call, verify } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    const { answer, view } = await verify(id)
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body).sort()).toEqual(publicKeys)
    expect(answer.body).toEqual({
      state: 'held',
      amount: 10_340,
      currency: 'eur',
      created: view.created,
      paid: view.paid,
      released: null,
      refunded: null,
      buyer: { first_name: 'Bea', email: 'b***@e***.com' },
      seller: { first_name: 'Sam', email: 's***@e***.com' },
      partner_name: null,
    })
    expect(Object.keys(answer.body.buyer).sort()).toEqual(['email', 'first_name'])
    // Nothing that helps a fraudster: no ids, description, full address or join code anywhere in the answer.
    const text = JSON.stringify(answer.body)
    for (const secret of [id, view.seller_id, view.buyer_id, 'A blue bicycle', 'example.com', 'seller@', 'buyer@', 'pactum-app'])
      expect(text).not.toContain(secret)
    // Parties see the same as anyone.
    expect((await verify(id, 'buyer')).answer.body).toEqual(answer.body)
    expect(answer.headers['cache-control']).toBe('private, max-age=30')
  })

  it('says Pactum holds nothing yet before the buyer paid, and names no party who has not joined', async () => {
    const { call, verify } = await start()
    const { id } = await createSale(call)
    const { answer } = await verify(id)
    expect(answer.body).toMatchObject({ state: 'awaiting_payment', amount: 10_340, paid: null, buyer: null })
    expect(answer.body.seller).toEqual({ first_name: 'Sam', email: 's***@e***.com' })
  })

  it('names the partner a sale was made under, never the product’s own apps', async () => {
    const { app, call, verify } = await start()
    await app.services.db.insertInto('clients').values({ id: 'market-partner', name: 'Market partner' }).execute()
    const { id } = await createSale(call, {}, { clientId: 'market-partner' })
    expect((await verify(id)).answer.body.partner_name).toBe('Market partner')
    const own = await createSale(call, {}, { clientId: 'pactum-landing' })
    expect((await verify(own.id)).answer.body.partner_name).toBeNull()
  })

  it('answers an unknown or malformed code with the API’s 404', async () => {
    const { call } = await start()
    for (const code of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', `${'A'.repeat(21)}=`, 'A'.repeat(64), '%27%20or%201%3D1--']) {
      const answer = await call(null, 'GET', `/api/v1/verify/${code}`)
      expect([code, answer.status, answer.body.code]).toEqual([code, 404, 'not_found'])
      const badge = await call(null, 'GET', `/api/v1/verify/${code}/badge.svg`)
      expect([code, badge.status, badge.body.code]).toEqual([code, 404, 'not_found'])
    }
  })

  it('is rate-limited per address, like every guessable secret', async () => {
    const { app } = await start()
    const guess = (remoteAddress: string) => app.inject({ method: 'GET', url: `/api/v1/verify/${'B'.repeat(22)}`, remoteAddress })
    for (let n = 0; n < 30; n++) expect((await guess('203.0.113.7')).statusCode).toBe(404)
    const limited = await guess('203.0.113.7')
    expect([limited.statusCode, limited.json().code]).toEqual([429, 'rate_limited'])
    expect((await guess('198.51.100.8')).statusCode).toBe(404)
  })
})

describe('GET /verify/{code}/badge.svg: the badge a partner embeds', () => {
  it('is an SVG of Pactum’s own facts, cached briefly, under a policy that allows nothing but the picture', async () => {
    const { app, call, verify } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    const { code } = await verify(id)
    const badge = await app.inject({ method: 'GET', url: `/api/v1/verify/${code}/badge.svg` })
    expect(badge.statusCode).toBe(200)
    expect(badge.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(badge.headers['cache-control']).toBe('public, max-age=60')
    expect(badge.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox")
    expect(badge.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect(badge.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(badge.body).toContain('<title>Escrow verified by Pactum: Money held · €103.40</title>')
    expect(badge.body).not.toMatch(/<script|href=|on\w+=|<foreignObject|xlink/i)
  })
})
