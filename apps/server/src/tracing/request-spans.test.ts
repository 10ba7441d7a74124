import { afterEach, describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../testing/api-caller.ts'
import { type CrashEngine, freePort, pgliteEngine, postgresEngine, ServerProcess } from '../testing/crash-server.ts'
import { createTestApp } from '../testing/test-app.ts'
import { OtlpReceiver } from '../testing/otlp-receiver.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../testing/sale-steps.ts'
import { TestClock } from '../testing/test-clock.ts'

const receivers: OtlpReceiver[] = []
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close()
})

/**
 * The server with OTEL_EXPORTER_OTLP_ENDPOINT set, sending to an in-process
 * collector over OTLP/HTTP: the real exporter, its real requests. Spans are
 * batched; closing the app sends what is left.
 */
async function tracedApp() {
  const receiver = await OtlpReceiver.start()
  receivers.push(receiver)
  const clock = new TestClock(new Date('2026-09-01T10:00:00Z'))
  const testApp = await createTestApp({
    clock,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.endpoint}/`, OTEL_SERVICE_NAME: 'pactum-traced', COMPLAINT_PERIOD_SECONDS: '60' },
  })
  const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
  return { receiver, clock, testApp, call }
}

describe('traces over OTLP (issue 37)', () => {
  it('sends a span for each request, named by its route with the status, to <endpoint>/v1/traces', async () => {
    const { receiver, testApp, call } = await tracedApp()
    const { id } = await joinedSale(call)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).status).toBe(200)
    expect((await call('buyer', 'GET', '/api/v1/transactions/01a24ac4-98c6-7000-8797-f340472dfa68')).status).toBe(404)
    expect((await call(null, 'GET', '/api/v1/no-such-route')).status).toBe(404)
    await testApp.close()

    expect(receiver.refused).toEqual([])
    const reads = receiver.spans.filter((span) => span.name === 'GET /api/v1/transactions/:id')
    expect(reads.map((span) => span.attributes)).toEqual([
      { 'http.request.method': 'GET', 'http.route': '/api/v1/transactions/:id', 'http.response.status_code': 200 },
      { 'http.request.method': 'GET', 'http.route': '/api/v1/transactions/:id', 'http.response.status_code': 404 },
    ])
    // A server span of a trace of its own, from the service OTEL_SERVICE_NAME names; a 404 is not the server's failure.
    expect(reads.map((span) => [span.kind, span.statusCode, span.parentSpanId, span.resource['service.name']])).toEqual([
      [2, 0, undefined, 'pactum-traced'],
      [2, 0, undefined, 'pactum-traced'],
    ])
    expect(new Set(reads.map((span) => span.traceId)).size).toBe(2)
    expect(receiver.spans.find((span) => span.name === 'GET unmatched')?.attributes['http.response.status_code']).toBe(404)
    // The sale's own steps too, each by its route (joining is a PUT of the join code).
    expect(receiver.spans.map((span) => span.name)).toEqual(
      expect.arrayContaining(['POST /api/v1/me/transactions', 'PUT /api/v1/transactions']),
    )
  })

  it('sends a span for each job, and the outbox’s call to the provider as its child', async () => {
    const { receiver, clock, testApp, call } = await tracedApp()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'ups', tracking_code: '1Z999' })
    await confirmDelivery(call, id)
    // The complaint window closes: the release timer fires, and the outbox pays the seller.
    await clock.advance(testApp.app, 61)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')
    await testApp.close()

    const transfer = receiver.spans.find((span) => span.name === 'outbox transfer')
    expect(transfer?.attributes).toEqual(expect.objectContaining({ 'pactum.outbox.action': 'transfer', 'pactum.transaction.id': id }))
    const job = receiver.spans.find((span) => span.spanId === transfer?.parentSpanId)
    expect(job?.name).toBe('job outbox-send')
    expect(job?.traceId).toBe(transfer?.traceId)
    expect(job?.attributes).toEqual(expect.objectContaining({ 'pactum.job.queue': 'outbox-send', 'pactum.job.retry_count': 0 }))
    expect(receiver.spans.map((span) => span.name)).toContain('job transaction-timer')
  })

  it('is sent by the real server (main.ts) too, the SDK loaded through its dynamic import, the last spans on SIGTERM', async () => {
    const receiver = await OtlpReceiver.start()
    receivers.push(receiver)
    const url = process.env.DATABASE_URL
    const engine: CrashEngine = url ? await postgresEngine(url) : await pgliteEngine()
    try {
      const server = await ServerProcess.start(engine, {
        port: await freePort(),
        run: 0,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      })
      expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(200)
      expect((await server.stop()).code, await server.logTail()).toBe(0)
      const health = receiver.spans.filter((span) => span.name === 'GET /api/v1/health')
      expect(health.length).toBeGreaterThan(0)
      expect(health.at(-1)?.attributes['http.response.status_code']).toBe(200)
      expect(health.at(-1)?.resource['service.name']).toBe('pactum')
    } finally {
      await engine.dispose()
    }
  })
})
