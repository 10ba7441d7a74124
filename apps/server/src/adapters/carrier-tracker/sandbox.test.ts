import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import type { CarrierEvent } from './port.ts'

describe('sandbox carrier tracker', () => {
  let testApp: TestApp
  let clock: TestClock
  let events: CarrierEvent[]

  async function start(env: Record<string, string> = {}) {
    clock = new TestClock()
    testApp = await createTestApp({ clock, env })
    events = []
    testApp.app.services.events.registerCarrierEventHandler(async (event) => {
      events.push(event)
    })
  }
  beforeEach(async () => {
    await start()
  })
  afterEach(async () => {
    await testApp.close()
  })

  const register = (trackingCode: string) =>
    testApp.app.services.carrierTracker.register({ carrier: 'dhl', trackingCode, transactionId: 'tx-7' })
  const types = () => events.map((event) => event.type)

  it('reports in transit after 30 s and delivered after 120 s', async () => {
    await register('JD014600003828')
    await clock.advance(testApp.app, 29)
    expect(types()).toEqual([])
    await clock.advance(testApp.app, 1)
    expect(types()).toEqual(['in_transit'])
    await clock.advance(testApp.app, 89)
    expect(types()).toEqual(['in_transit'])
    await clock.advance(testApp.app, 1)
    expect(types()).toEqual(['in_transit', 'delivered'])
    expect(events[1]).toMatchObject({ transactionId: 'tx-7', carrier: 'dhl', trackingCode: 'JD014600003828' })
    await clock.advance(testApp.app, 86_400)
    expect(types()).toEqual(['in_transit', 'delivered'])
  })

  it('never delivers a LOST parcel, and reports an exception for FAIL', async () => {
    await register('JD-LOST-1')
    await register('JD-FAIL-1')
    await clock.advance(testApp.app, 86_400)
    expect(events.map((event) => [event.trackingCode, event.type])).toEqual(
      expect.arrayContaining([
        ['JD-LOST-1', 'in_transit'],
        ['JD-FAIL-1', 'exception'],
      ]),
    )
    expect(events).toHaveLength(2)
  })

  it('takes its timings from the configuration', async () => {
    await testApp.close()
    await start({ SANDBOX_TRACKING_IN_TRANSIT_SECONDS: '5', SANDBOX_TRACKING_DELIVERED_SECONDS: '10' })
    await register('JD1')
    await clock.advance(testApp.app, 5)
    expect(types()).toEqual(['in_transit'])
    await clock.advance(testApp.app, 5)
    expect(types()).toEqual(['in_transit', 'delivered'])
  })

  it('registers nothing when the transaction that asked rolls back', async () => {
    const { db, carrierTracker } = testApp.app.services
    await expect(
      db.transaction().execute(async (trx) => {
        await carrierTracker.register({ carrier: 'ups', trackingCode: '1Z999', transactionId: 'tx-8' }, { db: trx })
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    await clock.advance(testApp.app, 86_400)
    expect(events).toEqual([])
  })

  it('refuses a carrier it does not know', async () => {
    await expect(
      testApp.app.services.carrierTracker.register({ carrier: 'pigeon', trackingCode: 'X1', transactionId: 't' }),
    ).rejects.toThrow(/Unsupported carrier/)
  })

  it('lists the supported carriers publicly', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/supported_carriers' })
    expect(response.statusCode).toBe(200)
    const carriers = response.json() as { slug: string; name: string }[]
    expect(carriers).toContainEqual({ slug: 'royal-mail', name: 'Royal Mail' })
    expect(carriers).toContainEqual({ slug: 'hrvatska-posta', name: 'Hrvatska pošta' })
    expect(carriers.map((carrier) => carrier.name)).toEqual(
      expect.arrayContaining([
        'UPS',
        'FedEx',
        'DHL',
        'USPS',
        'An Post',
        'DPD',
        'GLS',
        'InPost',
        'Poczta Polska',
        'Posti',
        'PostNord',
        'Poste Italiane',
        'Pos Malaysia',
        'Australia Post',
      ]),
    )
    expect(new Set(carriers.map((carrier) => carrier.slug)).size).toBe(carriers.length)
  })
})
