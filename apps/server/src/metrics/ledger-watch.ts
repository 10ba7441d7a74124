import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Gauge } from 'prom-client'
import type { Database } from '../db/schema.ts'
import { verifyLedger } from '../ledger/verify-ledger.ts'

/**
 * Verifies the whole ledger now and then (DESIGN §2's invariants, as
 * `GET /admin/ledger/verify` does) and says so in `pactum_ledger_verified`:
 * 1 when the last verification found nothing wrong, 0 before the first and when it found a
 * breach (logged) or could not run. A full pass reads every posting, so
 * it runs a minute after the start and then hourly, not on every scrape;
 * the alert waits two hours before it calls an absent or failed result.
 */
export function startLedgerWatch(options: {
  db: Kysely<Database>
  gauge: Gauge
  log: FastifyBaseLogger
  everyMs?: number
  firstAfterMs?: number
}): { stop(): void; verifyNow(): Promise<void> } {
  const verifyNow = async () => {
    try {
      const breaches = await verifyLedger(options.db)
      options.gauge.set(breaches.length === 0 ? 1 : 0)
      if (breaches.length > 0) options.log.error({ breaches: breaches.slice(0, 20) }, 'the ledger does not verify')
    } catch (error) {
      options.gauge.set(0)
      options.log.error({ err: error }, 'the ledger could not be verified')
    }
  }
  const first = setTimeout(() => void verifyNow(), options.firstAfterMs ?? 60_000)
  const every = setInterval(() => void verifyNow(), options.everyMs ?? 3_600_000)
  first.unref()
  every.unref()
  return {
    stop: () => {
      clearTimeout(first)
      clearInterval(every)
    },
    verifyNow,
  }
}
