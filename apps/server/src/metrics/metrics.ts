import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { heldByCurrency, notificationsPending, outboxPendingByKind, timerLagSeconds } from './money-health-repository.ts'

/**
 * Pactum's metrics in Prometheus's text format (issue 37), one registry per
 * app: the requests (rate, errors and latency per route), the money's own
 * health read from the database when scraped (how late the oldest due
 * timer is, what the outbox and the e-mails still owe, what escrow holds),
 * counters the code bumps as things happen (outbox calls that failed,
 * provider webhooks received and refused), and the process's defaults.
 * Served on METRICS_PORT only (metrics-server.ts), never the public port.
 */
export class PactumMetrics {
  readonly registry = new Registry()
  readonly requestSeconds: Histogram<'method' | 'route' | 'status'>
  readonly outboxFailed: Counter<'kind'>
  readonly webhooksReceived: Counter<'provider'>
  readonly webhooksRejected: Counter<'provider'>
  /** Reads that may be served by the replica, by the server that served them (db/replica-reads.ts). */
  readonly replicaReads: Counter<'served_by'>
  /** Set by the periodic ledger verification (ledger-watch.ts): 1 verified, 0 not. */
  readonly ledgerVerified: Gauge

  constructor(deps: { db: Kysely<Database>; clock: Clock }) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry })
    this.requestSeconds = new Histogram({
      name: 'pactum_http_request_duration_seconds',
      help: 'API requests by method, route pattern and status, and how long each took',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    })
    this.outboxFailed = new Counter({
      name: 'pactum_outbox_failed_total',
      help: 'Outbox calls to the payment provider that failed (each is tried again), by kind',
      labelNames: ['kind'],
      registers,
    })
    this.webhooksReceived = new Counter({
      name: 'pactum_webhooks_received_total',
      help: 'Payment provider webhooks taken (signature verified), by provider',
      labelNames: ['provider'],
      registers,
    })
    this.webhooksRejected = new Counter({
      name: 'pactum_webhooks_rejected_total',
      help: 'Payment provider webhooks refused (bad or missing signature, unreadable body), by provider',
      labelNames: ['provider'],
      registers,
    })
    this.replicaReads = new Counter({
      name: 'pactum_replica_reads_total',
      help: 'Lists and verification pages by the server that answered: the replica, or the primary when the replica had not caught up (or none is configured)',
      labelNames: ['served_by'],
      registers,
    })
    this.ledgerVerified = new Gauge({
      name: 'pactum_ledger_verified',
      help: 'Whether the last periodic verification of the whole ledger passed (1) or not (0, also before the first has run)',
      registers,
    })
    new Gauge({
      name: 'pactum_timer_lag_seconds',
      help: 'How long ago the oldest due transaction timer (a release, a deadline) should have fired; 0 when none is late',
      registers,
      async collect() {
        this.set(await timerLagSeconds(deps.db, deps.clock.now()))
      },
    })
    new Gauge({
      name: 'pactum_outbox_pending',
      help: 'Outbox calls (transfers, refunds, reversals) the payment provider has not accepted yet, by kind',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset()
        for (const { kind, count } of await outboxPendingByKind(deps.db)) this.set({ kind }, count)
      },
    })
    new Gauge({
      name: 'pactum_notifications_pending',
      help: 'State-change e-mails still to send',
      registers,
      async collect() {
        this.set(await notificationsPending(deps.db))
      },
    })
    new Gauge({
      name: 'pactum_held_amount',
      help: 'Money held in escrow, per currency, in the currency minor unit',
      labelNames: ['currency'],
      registers,
      async collect() {
        this.reset()
        for (const { currency, amount } of await heldByCurrency(deps.db)) this.set({ currency }, amount)
      },
    })
  }
}
