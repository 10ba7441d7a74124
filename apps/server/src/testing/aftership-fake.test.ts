import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AftershipFake, startAftershipFake } from './aftership-fake.ts'
import { aftershipSchemaProblems, aftershipSdk } from './aftership-schema.ts'

/*
 * The AfterShip fake answers as AfterShip's official Node SDK for API
 * 2026-07 types the answers (fixtures/aftership-tracking-sdk-17.0.0.json),
 * and refuses what that version refuses: so the adapter, tested against the
 * fake, is tested against AfterShip's published shapes.
 */

let fake: AftershipFake
beforeAll(async () => {
  fake = await startAftershipFake()
  fake.couriers.push({
    slug: 'postnl-3s',
    name: 'PostNL International',
    required_fields: ['destination_postal_code', 'destination_country_region'],
  })
})
afterAll(async () => {
  await fake.close()
})

async function call(method: 'GET' | 'POST', path: string, body?: unknown, apiKey = fake.apiKey) {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'as-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await response.json()) as { meta: unknown; data: unknown }
  expect(aftershipSchemaProblems('Meta', json.meta, 'meta')).toEqual([])
  return { status: response.status, meta: json.meta as { code: number; type?: string }, data: json.data }
}

describe('the AfterShip fake', () => {
  it('serves the version its fixture describes', () => {
    expect(aftershipSdk.apiVersion).toBe('2026-07')
    expect(fake.url).toMatch(/\/tracking\/2026-07$/)
  })

  it('answers create, get, list and couriers with the SDK’s shapes', async () => {
    const created = await call('POST', '/trackings', {
      slug: 'dhl',
      tracking_number: 'JD0002',
      order_id: 'tx-1',
      custom_fields: { pactum_transaction_id: 'tx-1' },
    })
    expect(created).toMatchObject({ status: 201, meta: { code: 201 } })
    expect(aftershipSchemaProblems('Tracking', created.data)).toEqual([])
    const id = (created.data as { id: string }).id
    fake.checkpoint('dhl', 'JD0002', 'InTransit', new Date('2026-11-20T10:00:00Z'))
    const got = await call('GET', `/trackings/${id}`)
    expect(aftershipSchemaProblems('Tracking', got.data)).toEqual([])
    expect(got.data).toMatchObject({ tag: 'InTransit', checkpoints: [{ tag: 'InTransit' }] })
    const listed = await call('GET', '/trackings?slug=dhl&tracking_numbers=JD0002')
    expect(aftershipSchemaProblems('GetTrackingsResponseData', listed.data)).toEqual([])
    const couriers = await call('GET', '/couriers')
    expect(aftershipSchemaProblems('GetCouriersResponseData', couriers.data)).toEqual([])
    // The webhook carries the tracking as the API answers it.
    const webhook = JSON.parse(fake.webhook(fake.checkpoint('dhl', 'JD0002', 'Delivered', new Date())).payload) as { msg: unknown }
    expect(aftershipSchemaProblems('Tracking', webhook.msg)).toEqual([])
  })

  it('refuses with AfterShip’s meta codes, in its error envelope', async () => {
    expect(await call('GET', '/couriers', undefined, 'asat_wrong')).toMatchObject({
      status: 401,
      meta: { code: 401, type: 'Unauthorized' },
    })
    expect(await call('POST', '/trackings', { slug: 'dhl' })).toMatchObject({ status: 400, meta: { code: 4007 } })
    expect(await call('POST', '/trackings', { slug: 'not-activated', tracking_number: 'X1' })).toMatchObject({ meta: { code: 4010 } })
    expect(await call('POST', '/trackings', { slug: 'dhl', tracking_number: 'bad number' })).toMatchObject({ meta: { code: 4005 } })
    await call('POST', '/trackings', { slug: 'ups', tracking_number: '1ZTWICE' })
    expect(await call('POST', '/trackings', { slug: 'ups', tracking_number: '1ZTWICE' })).toMatchObject({ meta: { code: 4003 } })
    expect(await call('GET', '/trackings/0123abcd')).toMatchObject({ status: 404, meta: { code: 4004, type: 'NotFound' } })
  })

  it('refuses the 2024-04 body wrapped in `tracking`, and fields the SDK does not know', async () => {
    const wrapped = await call('POST', '/trackings', { tracking: { slug: 'dhl', tracking_number: 'JD0003' } })
    expect(wrapped).toMatchObject({ status: 400, meta: { code: 4007 } })
    const legacy = await call('POST', '/trackings', { slug: 'dhl', tracking_number: 'JD0003', tracking_postal_code: 'SW1A 1AA' })
    expect(legacy).toMatchObject({ status: 400, meta: { code: 400 } })
    expect(fake.find('dhl', 'JD0003')).toBeUndefined()
  })

  it('refuses a create without the courier’s required fields (4011), and takes it with them', async () => {
    expect(await call('POST', '/trackings', { slug: 'postnl-3s', tracking_number: '3SABC1' })).toMatchObject({
      status: 400,
      meta: { code: 4011 },
    })
    // The country in ISO 3166-1 alpha-3, as AfterShip documents it.
    const alpha2 = await call('POST', '/trackings', {
      slug: 'postnl-3s',
      tracking_number: '3SABC1',
      destination_postal_code: '1012 AB',
      destination_country_region: 'NL',
    })
    expect(alpha2.meta.code).toBe(4011)
    const taken = await call('POST', '/trackings', {
      slug: 'postnl-3s',
      tracking_number: '3SABC1',
      destination_postal_code: '1012 AB',
      destination_country_region: 'NLD',
    })
    expect(taken).toMatchObject({ status: 201, data: { destination_postal_code: '1012 AB', destination_country_region: 'NLD' } })
  })
})
