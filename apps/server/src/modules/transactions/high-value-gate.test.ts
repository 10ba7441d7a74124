import { afterEach, describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { uploadDocument } from '../../testing/identity-upload.ts'
import { depositAccepted, joinedF2fSale, setTotal } from '../../testing/f2f-sale-steps.ts'
import { joinedSale } from '../../testing/sale-steps.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

const documentCheck = 5

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  testApp = await createTestApp({ clock, env: { SANDBOX_DOCUMENT_CHECK_SECONDS: String(documentCheck) } })
  const { app } = testApp
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} })
  const call = apiCaller(app, tokens)
  /** A joined card sale of `price` EUR cents, created through `clientId`. */
  const watchSale = async (price: number, clientId: string) => {
    const { created } = await joinedSale(call, { price, description: 'A vintage watch' }, { clientId })
    return created as { id: string; high_value: boolean }
  }
  const verify = async (who: keyof typeof tokens) => {
    expect((await uploadDocument(app, tokens[who])).status).toBe(200)
    await clock.advance(app, documentCheck)
    expect((await call(who, 'GET', '/api/v1/me/verification_status')).body.verified).toBe(true)
  }
  return { call, watchSale, verify }
}

describe('the high-value verification gate (DESIGN §2)', () => {
  it('lets the buyer pay a high-value sale of our own app only once both parties are verified', async () => {
    const { call, watchSale, verify } = await start()
    const sale = await watchSale(500_000, 'pactum-app')
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
    const { call, watchSale } = await start()
    const landing = await watchSale(500_000, 'pactum-landing')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${landing.id}/pay`)).body.code).toBe('identity_verification_required')

    const below = await watchSale(499_999, 'pactum-app')
    expect(below.high_value).toBe(false)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${below.id}/pay`)).status).toBe(200)

    // A made-up client is refused, not recorded: it must not choose its rules.
    const made = await call('seller', 'POST', '/api/v1/me/transactions?client_id=partner-shop', {
      role: 'seller',
      price: 500_000,
      currency: 'eur',
      description: 'A watch',
      charge: 15_040,
      charge_calculator_version: 1,
    })
    expect(made).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'querystring.client_id' } } })
    await testApp!.database.db.insertInto('clients').values({ id: 'partner-shop', name: 'Partner shop' }).execute()
    const partner = await watchSale(500_000, 'partner-shop')
    expect(partner.high_value).toBe(true)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${partner.id}/pay`)).status).toBe(200)
  })

  it('judges a face-to-face sale on its total: the deposit pays freely, the remainder of a high total waits', async () => {
    const { call, verify } = await start()
    const { id, created } = await joinedF2fSale(call, { deposit_price: 10_000, description: 'A piano, collected' })
    expect(created.high_value).toBe(false)
    await depositAccepted(call, id)
    const priced = await setTotal(call, id, 600_000)
    expect(priced.high_value).toBe(true)
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_remainder`)).body).toMatchObject({
      code: 'identity_verification_required',
      details: { unverified: ['buyer', 'seller'] },
    })
    await verify('seller')
    await verify('buyer')
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_remainder`)).status).toBe(200)
  })
})
