import { afterEach, describe, expect, it } from 'vitest'
import { uploadDocument } from '../testing/identity-upload.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { TestClock } from '../testing/test-clock.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

const documentCheck = 5

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  testApp = await createTestApp({ clock, env: { SANDBOX_DOCUMENT_CHECK_SECONDS: String(documentCheck) } })
  const { app, tokenFor } = testApp
  const tokens = { seller: await tokenFor('seller@example.com'), buyer: await tokenFor('buyer@example.com') }
  const call = async (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  /** A joined card sale of `price` EUR cents, created through `clientId`. */
  const joinedSale = async (price: number, clientId: string) => {
    const quote = await call('seller', 'GET', `/api/v1/charge?price=${price}&currency=eur&payment_method=card`)
    const created = await call('seller', 'POST', `/api/v1/me/transactions?client_id=${clientId}`, {
      role: 'seller',
      price,
      currency: 'eur',
      description: 'A vintage watch',
      payment_method: 'card',
      charge: quote.body.charge,
      charge_calculator_version: quote.body.charge_calculator_version,
    })
    expect(created.status).toBe(201)
    expect((await call('buyer', 'PUT', `/api/v1/transactions?join_code=${created.body.join_code}`)).body.status).toBe('joined')
    return created.body as { id: string; high_value: boolean }
  }
  const verify = async (who: keyof typeof tokens) => {
    expect((await uploadDocument(testApp!.app, tokens[who])).status).toBe(200)
    await clock.advance(testApp!.app, documentCheck)
    expect((await call(who, 'GET', '/api/v1/me/verification_status')).body.verified).toBe(true)
  }
  return { call, joinedSale, verify }
}

describe('the high-value verification gate (DESIGN §2)', () => {
  it('lets the buyer pay a high-value sale of our own app only once both parties are verified', async () => {
    const { call, joinedSale, verify } = await start()
    const sale = await joinedSale(500_000, 'pactum-app')
    expect(sale.high_value).toBe(true)

    const refused = await call('buyer', 'POST', `/api/v1/transactions/${sale.id}/pay`)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'identity_verification_required', details: { unverified: ['buyer', 'seller'] } })

    await verify('seller')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${sale.id}/pay`)).body).toMatchObject({ details: { unverified: ['buyer'] } })

    await verify('buyer')
    const opened = await call('buyer', 'POST', `/api/v1/transactions/${sale.id}/pay`)
    expect(opened.status).toBe(200)
    expect(opened.body.payment_intent_id).toMatch(/^pi_/)
  })

  it('applies to pactum-landing too, but not below the threshold or to a partner client', async () => {
    const { call, joinedSale } = await start()
    const landing = await joinedSale(500_000, 'pactum-landing')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${landing.id}/pay`)).body.code).toBe('identity_verification_required')

    const below = await joinedSale(499_999, 'pactum-app')
    expect(below.high_value).toBe(false)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${below.id}/pay`)).status).toBe(200)

    const partner = await joinedSale(500_000, 'partner-shop')
    expect(partner.high_value).toBe(true)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${partner.id}/pay`)).status).toBe(200)
  })
})
