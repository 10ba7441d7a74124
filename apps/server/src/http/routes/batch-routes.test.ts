import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createSale } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

async function start() {
  const testApp = await testApps.open()
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: {}, stranger: {} })
  return { call: apiCaller(testApp.app, tokens) }
}

const batchUrl = (...gets: string[]) => `/api/v1/me/batch?${new URLSearchParams(gets.map((get) => ['get', get]))}`
const firstScreen = ['/me/transactions?limit=50&view=summary', '/me/personal', '/me/personal/payout_requirements', '/me/guided_tour', '/me']

describe('GET /me/batch: the first screen’s GETs in one request (issue 13)', () => {
  it('answers each GET exactly as it is answered alone, in the order asked, for the caller only', async () => {
    const { call } = await start()
    const { id } = await createSale(call)
    for (const who of ['seller', 'stranger'] as const) {
      const batch = await call(who, 'GET', batchUrl(...firstScreen), undefined, { 'accept-language': 'pl-PL' })
      expect(batch.status).toBe(200)
      const alone = await Promise.all(
        firstScreen.map((get) => call(who, 'GET', `/api/v1${get}`, undefined, { 'accept-language': 'pl-PL' })),
      )
      expect(batch.body.answers).toEqual(firstScreen.map((get, index) => ({ get, status: alone[index]?.status, body: alone[index]?.body })))
    }
    const [sellersList] = (await call('seller', 'GET', batchUrl('/me/transactions?limit=50'))).body.answers
    expect(sellersList.body.map((transaction: { id: string }) => transaction.id)).toEqual([id])
    const [strangersList] = (await call('stranger', 'GET', batchUrl('/me/transactions?limit=50'))).body.answers
    expect(strangersList.body).toEqual([])
  })

  it('passes each GET’s own refusal through beside the others’ answers', async () => {
    const { call } = await start()
    const batch = await call('seller', 'GET', batchUrl('/me/transactions?limit=51', '/me/guided_tour'), undefined, {
      'x-request-id': 'first-screen-1',
    })
    expect(batch.headers['x-request-id']).toBe('first-screen-1')
    expect(batch.body.answers).toMatchObject([
      { get: '/me/transactions?limit=51', status: 400, body: { code: 'invalid_limit' } },
      { get: '/me/guided_tour', status: 200, body: { seen: false } },
    ])
  })

  it('asks who is calling before anything else', async () => {
    const { call } = await start()
    expect(await call(null, 'GET', batchUrl('/me/personal'))).toMatchObject({ status: 401, body: { code: 'unauthenticated' } })
    expect(await call(null, 'GET', '/api/v1/me/batch?get=/admin/transactions')).toMatchObject({ status: 401 })
  })

  it.each([
    ['nothing to ask', '/api/v1/me/batch'],
    ['a path outside the first screen', batchUrl('/me/personal', '/admin/transactions')],
    ['a path that only starts like one', batchUrl('/me/personal/../../admin/transactions')],
    ['the same GET twice', batchUrl('/me/personal', '/me/personal')],
    ['more GETs than there are paths', batchUrl(...firstScreen, '/me/transactions?limit=10')],
  ])('refuses %s, naming the field', async (_case, url) => {
    const { call } = await start()
    const refused = await call('seller', 'GET', url)
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { fields: [{ field: expect.stringMatching(/^querystring\.get/) }] } },
    })
  })
})
