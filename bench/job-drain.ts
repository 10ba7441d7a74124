/**
 * How fast the job system drains a backlog (issue 10, "Jobs that keep up").
 * Prints, per engine:
 *   - timers: N complaint windows ending at the same moment, from the server's
 *     start until every one of those sales is funds_released (each release also
 *     queues a transfer and two e-mails, which compete for the same database);
 *   - e-mails: M queued state-change e-mails, until the file mailer wrote all.
 * Targets (2-core machine): due releases at 100,000 a minute on PostgreSQL
 * and 20,000 a minute on PGlite (issue 36); 5,000 e-mails in ≤ 30 s.
 *
 *   npm run bench:jobs                                   # both engines
 *   npm run bench:jobs -- --engine pglite --timers 2000 --emails 1000
 *   npm run bench:jobs -- --follow-ups      # also time the transfers and e-mails the releases cause
 *   BENCH_DATABASE_URL=postgres://user@host:5432/postgres npm run bench:jobs
 *
 * On PostgreSQL it creates a database of its own (pactum_bench_…) on that
 * server and drops it after.
 */
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { loadConfig } from '../apps/server/src/config.ts'
import type { Database } from '../apps/server/src/db/database.ts'
import { buildApp } from '../apps/server/src/http/app.ts'
import { uuidV7 } from '../apps/server/src/ids.ts'
import { JobQueue } from '../apps/server/src/jobs/job-queue.ts'
import { verifyLedger } from '../apps/server/src/ledger/verify-ledger.ts'
import { createNotificationQueue } from '../apps/server/src/modules/notifications/send-notification.ts'
import { mintAccessToken } from '../apps/server/src/modules/sign-in/oidc/token-minter.ts'
import {
  bufferedJobEffects,
  createTransactionQueues,
  jobEffectScheduler,
} from '../apps/server/src/modules/transactions/transaction-jobs.ts'
import { type BenchDatabase, type BenchEngine, benchEngines, benchPostgresReachable, postgresUrl } from './bench-database.ts'
import { deliveredSale } from './delivered-sale.ts'
import { freePort, type PactumProcess, startPactum, stopPactum } from './pactum-process.ts'

const { values: options } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite,postgres' },
    timers: { type: 'string', default: '10000' },
    emails: { type: 'string', default: '5000' },
    // Also wait for the transfers and e-mails the releases caused (minutes at 10,000).
    'follow-ups': { type: 'boolean', default: false },
  },
})
const timerCount = Number(options.timers)
const emailCount = Number(options.emails)

const engines = benchEngines('bench')

type Setup = BenchDatabase

/** One real sale through the API, up to `delivered`; its copies are what the benchmarks drain. */
async function templateSale(setup: Setup): Promise<string> {
  const config = benchConfig(setup.env)
  const app = await buildApp({ config, database: setup.database, webDistDir: path.join(setup.env.DATA_DIR!, 'no-web') })
  await app.ready()
  const token = (email: string) =>
    mintAccessToken({
      privateSigningKey: app.embeddedSigningKey!,
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      clientId: config.oidc.clientId,
      email,
    })
  const id = await deliveredSale(app, { seller: await token('seller@example.com'), buyer: await token('buyer@example.com') })
  // The same request as during a drain, with no backlog: the figure the drain's p99 is held to (issue 36: ≤ 3×).
  await new Promise((resolve) => setTimeout(resolve, 1000))
  idleLatencies = await idleLatenciesOf(() => app.inject({ method: 'GET', url: '/api/v1/health' }))
  await app.close()
  return id
}

/**
 * A request's latencies with nothing else to do: 100 of them, 20 ms apart, after 20 not counted (a
 * process just started answered its first ones in up to 100 ms: connections opened, code compiled).
 */
async function idleLatenciesOf(send: () => Promise<unknown>): Promise<number[]> {
  for (let n = 0; n < 20; n++) await send()
  const latencies: number[] = []
  for (let n = 0; n < 100; n++) {
    const sent = performance.now()
    await send()
    latencies.push(performance.now() - sent)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return latencies
}

/** GET /health's latencies on the template sale's server, idle (templateSale). */
let idleLatencies: number[] = []

function percentileOf(latencies: number[], p: number): number {
  const sorted = [...latencies].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

/**
 * `count` copies of the template sale with the complaint window over, and
 * one complaint-window timer per copy, due now, enqueued the way the engine
 * enqueues it. No worker runs meanwhile: the queue has no handlers.
 */
async function seedDueReleases(setup: Setup, count: number): Promise<string[]> {
  const ids = await copyTransaction(setup.database, await templateSale(setup), count)
  const jobs = await JobQueue.start({ database: setup.database, clock: { now: () => new Date() }, log: silentLogger() })
  await createTransactionQueues(jobs)
  await createNotificationQueue(jobs)
  const now = new Date()
  for (let start = 0; start < ids.length; start += 500) {
    // As a group of fired timers enqueues the timers it causes: one statement for the 500.
    const buffered = bufferedJobEffects(jobs)
    await setup.database.db.transaction().execute(async (trx) => {
      for (const id of ids.slice(start, start + 500))
        await buffered.scheduler.scheduleTimer(trx, { transactionId: id, kind: 'complaint_window', at: now })
      await buffered.flush(trx)
    })
  }
  await jobs.stop()
  return ids
}

/** Copies of a delivered sale, each with its own id and ledger hold, whose complaint window ended a second ago. */
async function copyTransaction(database: Database, templateId: string, count: number): Promise<string[]> {
  const { db } = database
  const columns = (
    await sql<{
      column_name: string
    }>`select column_name from information_schema.columns where table_name = 'transactions' and table_schema = current_schema()`.execute(db)
  ).rows.map((row) => row.column_name)
  // verify_code: each copy gets a fresh one from the column's default (decision 114); the template's is unique.
  const copied = columns.filter((column) => !['id', 'join_code', 'complaint_period_deadline', 'verify_code'].includes(column))
  const list = sql.join(copied.map((column) => sql.ref(column)))
  const fromTemplate = sql.join(copied.map((column) => sql.ref(`t.${column}`)))
  const hold = await db.selectFrom('ledger_entries').selectAll().where('transaction_id', '=', templateId).executeTakeFirstOrThrow()
  const ids: string[] = []
  for (let start = 0; start < count; start += 2000) {
    const batch = Array.from({ length: Math.min(2000, count - start) }, () => uuidV7(new Date()))
    const entries = batch.map(() => crypto.randomUUID())
    await db.transaction().execute(async (trx) => {
      await sql`
        insert into transactions (id, join_code, complaint_period_deadline, ${list})
        select n.id, null, now() - interval '1 second', ${fromTemplate}
        from unnest(${batch}::uuid[]) as n(id), transactions t where t.id = ${templateId}`.execute(trx)
      await sql`
        insert into ledger_entries (id, transaction_id, kind, part, reason, created_at)
        select n.entry, n.id, e.kind, e.part, e.reason, e.created_at
        from unnest(${batch}::uuid[], ${entries}::uuid[]) as n(id, entry), ledger_entries e where e.id = ${hold.id}`.execute(trx)
      await sql`
        insert into ledger_postings (entry_id, account, amount, currency)
        select n.entry, replace(p.account, ${templateId}, n.id::text), p.amount, p.currency
        from unnest(${batch}::uuid[], ${entries}::uuid[]) as n(id, entry), ledger_postings p where p.entry_id = ${hold.id}`.execute(trx)
    })
    ids.push(...batch)
  }
  return ids
}

/** `count` state-change e-mails queued as the engine queues them, two per copied sale. */
async function seedEmails(setup: Setup, count: number): Promise<void> {
  const copies = await copyTransaction(setup.database, await templateSale(setup), Math.ceil(count / 2))
  const jobs = await JobQueue.start({ database: setup.database, clock: { now: () => new Date() }, log: silentLogger() })
  await createNotificationQueue(jobs)
  const scheduler = jobEffectScheduler(jobs)
  for (let start = 0; start < copies.length; start += 250) {
    await setup.database.db.transaction().execute(async (trx) => {
      for (const [index, id] of copies.slice(start, start + 250).entries()) {
        const recipients = (['buyer', 'seller'] as const).slice(0, count - 2 * (start + index))
        await scheduler.notify(
          trx,
          recipients.map((to) => ({ transactionId: id, template: 'delivered' as const, to, key: `bench:${id}:${to}` })),
        )
      }
    })
  }
  await jobs.stop()
}

function benchConfig(env: Record<string, string>) {
  return loadConfig({ LOG_LEVEL: 'warn', PUBLIC_URL: 'http://localhost:3999', ...env })
}

function silentLogger() {
  // The queue logs through Fastify's logger interface; the bench wants none of it.
  const noop = () => undefined
  const logger = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    child: () => logger,
  }
  return logger as unknown as Parameters<typeof JobQueue.start>[0]['log']
}

/**
 * Starts the server with its workers and times how long until `progress`
 * reaches `target`, probing meanwhile how long a request waits (GET /health,
 * which reads the database) while the backlog drains.
 */
async function drain(setup: Setup, progress: () => Promise<number>, target: number, requestsOnly?: RequestsOnlyProcess) {
  const started = performance.now()
  const app = await buildApp({
    config: benchConfig(setup.env),
    database: setup.database,
    webDistDir: path.join(setup.env.DATA_DIR!, 'no-web'),
  })
  await app.ready()
  const ready = performance.now()
  const latencies: number[] = []
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  const requestsOnlyProbe = requestsOnly ? probeEvery100Ms(() => fetch(`${requestsOnly.server.baseUrl}/api/v1/health`)) : undefined
  let draining = true
  const probe = (async () => {
    while (draining) {
      const sent = performance.now()
      await app.inject({ method: 'GET', url: '/api/v1/health' })
      latencies.push(performance.now() - sent)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  let done = 0
  for (;;) {
    done = await progress()
    const elapsed = performance.now() - started
    if (done >= target || elapsed > 600_000) break
    // Asked less often while much is left: at 100,000 one count takes some 50 ms of the database, and
    // asking every 200 ms took a quarter of a core from the drain it measures. Half the time the rate
    // so far says is left, between 0.1 and 2 s: the end is still seen within about 0.1 s.
    const left = done > 0 ? ((target - done) * elapsed) / done : 1000
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, Math.max(100, left / 2))))
  }
  const finished = performance.now()
  loopDelay.disable()
  draining = false
  await probe
  const requestsOnlyLatencies = await requestsOnlyProbe?.stop()
  const percentile = (p: number) => percentileOf(latencies, p)
  const idleP99 = percentileOf(idleLatencies, 99)
  const ratio = idleP99 > 0 ? percentile(99) / idleP99 : Number.NaN
  return {
    app,
    seconds: (finished - started) / 1000,
    startSeconds: (ready - started) / 1000,
    done,
    requestWait:
      `a request meanwhile: p50 ${percentile(50).toFixed(0)} ms, p99 ${percentile(99).toFixed(0)} ms` +
      (idleLatencies.length > 0
        ? ` (idle p99 ${idleP99.toFixed(1)} ms: ${ratio.toFixed(1)}×, target ≤ 3×: ${ratio <= 3 ? 'met' : 'NOT MET'})`
        : '') +
      `; the event loop's delay meanwhile: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms` +
      (requestsOnly && requestsOnlyLatencies ? `; ${requestsOnlyWait(requestsOnly.idle, requestsOnlyLatencies)}` : ''),
  }
}

/** A server process with BACKGROUND_JOBS=off on the bench's database, and its GET /health latencies before the drain. */
interface RequestsOnlyProcess {
  server: PactumProcess
  idle: number[]
}

/**
 * PostgreSQL only: a second server process that runs no jobs (BACKGROUND_JOBS=off), asked over HTTP,
 * beside the draining one: how long a request waits when the drain is not on its event loop.
 */
async function startRequestsOnlyProcess(setup: Setup): Promise<RequestsOnlyProcess> {
  const server = await startPactum({ ...setup.env, BACKGROUND_JOBS: 'off', LOG_LEVEL: 'warn' }, await freePort())
  return { server, idle: await idleLatenciesOf(() => fetch(`${server.baseUrl}/api/v1/health`)) }
}

function requestsOnlyWait(idle: number[], during: number[]): string {
  const idleP99 = percentileOf(idle, 99)
  const ratio = percentileOf(during, 99) / idleP99
  return (
    `a request meanwhile to a process with BACKGROUND_JOBS=off: p50 ${percentileOf(during, 50).toFixed(0)} ms, ` +
    `p99 ${percentileOf(during, 99).toFixed(0)} ms (idle p99 ${idleP99.toFixed(1)} ms: ${ratio.toFixed(1)}×, target ≤ 3×: ${ratio <= 3 ? 'met' : 'NOT MET'})`
  )
}

/** Sends a request every 100 ms until stopped; answers each one's latency. */
function probeEvery100Ms(send: () => Promise<unknown>): { stop(): Promise<number[]> } {
  const latencies: number[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const sent = performance.now()
      await send()
      latencies.push(performance.now() - sent)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return latencies
    },
  }
}

async function countWhere(database: Database, query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> {
  const { rows } = await query.execute(database.db)
  return Number(rows[0]?.n ?? 0)
}

async function runTimers(engine: BenchEngine, target: number): Promise<void> {
  const setup = await engine.open()
  try {
    const ids = await seedDueReleases(setup, timerCount)
    // Every released sale in the bench's own database is a copy (the template stays delivered): counted
    // by status, not by binding 100,000 ids.
    const released = () => countWhere(setup.database, sql`select count(*) as n from transactions where status = 'funds_released'`)
    const requestsOnly = engine.name === 'postgres' ? await startRequestsOnlyProcess(setup) : undefined
    const result = await drain(setup, released, ids.length, requestsOnly).finally(async () => {
      if (requestsOnly) await stopPactum(requestsOnly.server)
    })
    const outboxLeft = await countWhere(setup.database, sql`select count(*) as n from outbox where status <> 'sent'`)
    const mailsSent = await countWhere(setup.database, sql`select count(*) as n from notifications where status = 'sent'`)
    // What the releases caused: a transfer and two e-mails each, then the provider's webhooks.
    let followUps = ''
    if (options['follow-ups']) {
      // Counted by kind, not by binding the releases' ids: only the copies are released (the template
      // stays delivered), and four counts a second over 20,000 bound ids were a fifth of PostgreSQL's
      // time in the run they measured (a seq scan hashing the array each time, 2026-12-07).
      const transfers = sql<{ n: number }>`select count(*) as n from outbox where status = 'sent' and action = 'transfer'`
      const emails = sql<{ n: number }>`select count(*) as n from notifications where status = 'sent' and template = 'funds_released'`
      // Each kind's own finish, so that the slower of the two shows: a transfer and two e-mails per release.
      const startedAt = performance.now()
      const doneAt: { transfers?: number; emails?: number } = {}
      // At Stripe's per-endpoint pace 20,000 transfers take some 15 minutes on their own.
      while ((doneAt.transfers === undefined || doneAt.emails === undefined) && performance.now() - startedAt < 1_800_000) {
        const since = result.seconds + (performance.now() - startedAt) / 1000
        if (doneAt.transfers === undefined && (await countWhere(setup.database, transfers)) >= ids.length) doneAt.transfers = since
        if (doneAt.emails === undefined && (await countWhere(setup.database, emails)) >= 2 * ids.length) doneAt.emails = since
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      const at = (seconds: number | undefined) => (seconds === undefined ? 'not within 30 min' : `${seconds.toFixed(1)} s`)
      // The floor the provider sets: every transfer is a POST /v1/transfers, paced on that endpoint's line (provider-pace.ts).
      const { providerMaxEndpointRequestsPerSecond: perEndpoint } = benchConfig(setup.env)
      const all = doneAt.transfers === undefined || doneAt.emails === undefined ? undefined : Math.max(doneAt.transfers, doneAt.emails)
      followUps =
        `every transfer and e-mail they caused done ${at(all)} after the start ` +
        `(${all === undefined ? '—' : (ids.length / all).toFixed(0)} releases' follow-ups a second; ` +
        `transfers ${at(doneAt.transfers)}, e-mails ${at(doneAt.emails)}); ` +
        `the transfers alone need ≥ ${(ids.length / perEndpoint).toFixed(0)} s at the endpoint pace of ${perEndpoint} a second ` +
        `(Stripe allows 25 a second on POST /v1/transfers unless raised: issue 36's 240 s for 20,000 needs a raised limit, decision 129)`
    }
    await result.app.close()
    const breaches = await verifyLedger(setup.database.db)
    report(engine.name, `${ids.length} due auto-releases`, result.seconds, target, result.done, ids.length, [
      `server start ${result.startSeconds.toFixed(1)} s`,
      result.requestWait,
      `${(ids.length / result.seconds).toFixed(0)} releases/s`,
      `then: ${outboxLeft} transfers still to send, ${mailsSent} e-mails sent`,
      ...(followUps ? [followUps] : []),
      `ledger ${breaches.length === 0 ? 'balanced' : `BROKEN (${breaches.length})`}`,
    ])
  } finally {
    await setup.database.close()
    await setup.dispose()
  }
}

async function runEmails(engine: BenchEngine, target: number): Promise<void> {
  const setup = await engine.open()
  try {
    await seedEmails(setup, emailCount)
    const sent = () => countWhere(setup.database, sql`select count(*) as n from notifications where status = 'sent' and key like 'bench:%'`)
    const result = await drain(setup, sent, emailCount)
    await result.app.close()
    report(engine.name, `${emailCount} queued e-mails`, result.seconds, target, result.done, emailCount, [
      `server start ${result.startSeconds.toFixed(1)} s`,
      result.requestWait,
      `${(emailCount / result.seconds).toFixed(0)} e-mails/s`,
    ])
  } finally {
    await setup.database.close()
    await setup.dispose()
  }
}

function print(line: string): void {
  process.stdout.write(`${line}\n`)
}

const results: boolean[] = []
function report(engine: string, what: string, seconds: number, target: number, done: number, expected: number, notes: string[]): void {
  const met = done >= expected && seconds <= target
  results.push(met)
  print(
    `${engine.padEnd(8)} ${what.padEnd(26)} ${seconds.toFixed(1).padStart(6)} s  (target ≤ ${target} s: ${met ? 'met' : 'NOT MET'})  ${done}/${expected} done; ${notes.join('; ')}`,
  )
}

const wanted = options.engine.split(',').map((name) => name.trim())
for (const name of wanted) {
  const engine = engines[name]
  if (!engine) throw new Error(`unknown engine ${name}: pglite or postgres`)
  if (name === 'postgres' && !(await benchPostgresReachable())) {
    print(`postgres skipped: nothing answers at ${postgresUrl} (set BENCH_DATABASE_URL)`)
    continue
  }
  // Issue 36: 100,000 due releases in 60 s on PostgreSQL, 20,000 in 60 s on PGlite, as rates for any count.
  if (timerCount > 0) await runTimers(engine, Math.max(1, Math.round(timerCount / (name === 'postgres' ? 100_000 / 60 : 20_000 / 60))))
  if (emailCount > 0) await runEmails(engine, 30)
}
process.exit(results.every(Boolean) ? 0 : 1)
