import { Gauge, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { startLedgerWatch } from './ledger-watch.ts'
import { apiCaller, partyTokens } from '../testing/api-caller.ts'
import { appPerTest } from '../testing/app-per-test.ts'
import { freePort } from '../testing/crash-server.ts'
import { joinedSale, payByCard } from '../testing/sale-steps.ts'
import { TestClock } from '../testing/test-clock.ts'

const testApps = appPerTest()

/** One sample's value from Prometheus's text format, by its name and labels as written. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('metrics on METRICS_PORT (issue 37)', () => {
  it('tells requests by route, the money held and owed, and provider webhooks taken and refused, on their own port only', async () => {
    const port = await freePort()
    const clock = new TestClock()
    const testApp = await testApps.open({ clock, env: { METRICS_PORT: String(port) } })
    const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await clock.advance(testApp.app, 1)
    const forged = await testApp.app.inject({
      method: 'POST',
      url: '/webhooks/sandbox',
      headers: { 'content-type': 'application/json', 'pactum-signature': 't=1,v1=00' },
      payload: '{}',
    })
    expect(forged.statusCode).toBe(400)

    const answer = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toContain('text/plain')
    const text = await answer.text()
    expect(sample(text, 'pactum_http_request_duration_seconds_count{method="POST",route="/api/v1/me/transactions",status="201"}')).toBe(1)
    expect(
      sample(text, 'pactum_http_request_duration_seconds_count{method="POST",route="/api/v1/transactions/:id/pay",status="200"}'),
    ).toBe(1)
    expect(sample(text, 'pactum_held_amount{currency="eur"}')).toBe(10_340)
    expect(sample(text, 'pactum_timer_lag_seconds')).toBe(0)
    expect(sample(text, 'pactum_notifications_pending')).toBe(0)
    expect(sample(text, 'pactum_webhooks_received_total{provider="sandbox"}')).toBeGreaterThan(0)
    expect(sample(text, 'pactum_webhooks_rejected_total{provider="sandbox"}')).toBe(1)
    expect(text).toContain('process_cpu_user_seconds_total')
    expect(text).toContain('# TYPE pactum_outbox_pending gauge')

    // The paid sale's tracking deadline (4 days) passed a day ago and no worker fired it: the money is late.
    await clock.moveBy(5 * 86_400)
    const late = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    expect(sample(late, 'pactum_timer_lag_seconds')).toBeGreaterThanOrEqual(86_400)

    expect((await testApp.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404)
    expect((await fetch(`http://127.0.0.1:${port}/anything-else`)).status).toBe(404)
  })

  it('says 1 while the whole ledger verifies and 0 once it does not, as the periodic verification finds it', async () => {
    const testApp = await testApps.open({ clock: new TestClock() })
    const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    const { db } = testApp.app.services
    const registry = new Registry()
    const gauge = new Gauge({ name: 'pactum_ledger_verified', help: 'test', registers: [registry] })
    const errors: unknown[] = []
    const log = { ...testApp.app.log, error: (...args: unknown[]) => errors.push(args) } as typeof testApp.app.log
    const watch = startLedgerWatch({ db, gauge, log, firstAfterMs: 3_600_000 })
    try {
      expect((await registry.getSingleMetricAsString('pactum_ledger_verified')).trim().split('\n').at(-1)).toBe('pactum_ledger_verified 0')
      await watch.verifyNow()
      expect((await gauge.get()).values[0]?.value).toBe(1)
      // A posting written behind the ledger module's back, as a bug or a manual edit would.
      const entry = await db.selectFrom('ledger_entries').select('id').where('transaction_id', '=', id).executeTakeFirstOrThrow()
      await db.insertInto('ledger_postings').values({ entry_id: entry.id, account: 'platform:stray', amount: 1, currency: 'eur' }).execute()
      await watch.verifyNow()
      expect((await gauge.get()).values[0]?.value).toBe(0)
      expect(errors).toHaveLength(1)
      // Put right again, so the ledger check after this test finds it as the sale left it.
      await db.deleteFrom('ledger_postings').where('account', '=', 'platform:stray').execute()
      await watch.verifyNow()
      expect((await gauge.get()).values[0]?.value).toBe(1)
    } finally {
      watch.stop()
    }
  })
})
