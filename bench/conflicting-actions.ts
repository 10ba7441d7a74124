/**
 * Parallel conflicting actions on every money path, on both engines
 * (issue 10, "tests that stay", the long version). For each of `--sales`
 * sales, made through the HTTP API of a real server listening on a port,
 * it brings the sale to a state where actions conflict and fires
 * `--requests` concurrent requests at it that race over the same money:
 * both parties and the admin, several routes, with and without
 * Idempotency-Keys, the provider's webhook redelivered, and the complaint
 * window's timer firing (the window is a few seconds). Then it waits until
 * every job has drained and checks:
 *   - the ledger verifies (GET /api/v1/admin/ledger/verify);
 *   - the day reconciles with the sandbox provider's balance without a
 *     difference (POST /api/v1/admin/reconciliation/runs, issue 34);
 *   - each sale reached one end its race allows, none is stuck, and its
 *     status, transaction row and ledger agree (held/released/refunded);
 *   - at the sandbox provider: at most one transfer a sale, of the seller's
 *     share; refunds never above a payment, and exactly what was charged
 *     but not held (each recorded on its sale) plus what the ledger refunded;
 *   - no answer was a 5xx (the client's and the server's own count, which
 *     includes the sandbox's webhook deliveries), and every refusal carries
 *     a documented code, with that code's status, on a status its route
 *     documents; every answer named only a state the sale really was in.
 * It prints one line per race kind and engine (requests, successes,
 * replays, refusals by code, where the sales ended and what decided them),
 * the checks per engine with wall time, and "all checks passed" or the
 * failures; the exit status is non-zero on any failure.
 *
 *   npm run bench:conflicts                                   # both engines, 100 sales × 20 requests
 *   npm run bench:conflicts -- --engine pglite --sales 22 --requests 10
 *   npm run bench:conflicts -- --only f2f --parallel 8 --window 8   # face-to-face kinds, 8 sales at a time
 *   BENCH_DATABASE_URL=postgres://user@host:5432/postgres npm run bench:conflicts
 *
 * On PostgreSQL it creates a database of its own (pactum_conflicts_…) on
 * that server and drops it after; PGlite runs in a temporary directory.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { loadConfig } from '../apps/server/src/config.ts'
import { buildApp } from '../apps/server/src/http/app.ts'
import { mintAccessToken } from '../apps/server/src/modules/sign-in/oidc/token-minter.ts'
import { type BenchEngine, benchEngines, benchPostgresReachable, postgresUrl } from './bench-database.ts'
import {
  checkAnswers,
  checkSale,
  documentedStatuses,
  type Failure,
  pendingWork,
  type SaleOutcome,
  troubledJobs,
} from './conflicts/checks.ts'
import { type Answer, ApiClient } from './conflicts/client.ts'
import { raceKinds } from './conflicts/races.ts'
import { type Prepared, Sale, SetupError } from './conflicts/sale.ts'

const { values: options } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite,postgres' },
    sales: { type: 'string', default: '100' },
    requests: { type: 'string', default: '20' },
    /** Sales set up and raced at the same time. */
    parallel: { type: 'string', default: '4' },
    /** The complaint window, in seconds. */
    window: { type: 'string', default: '5' },
    /** Only the race kinds whose name contains this. */
    only: { type: 'string', default: '' },
  },
})
const saleCount = Number(options.sales)
const requestCount = Number(options.requests)
const parallel = Math.max(1, Number(options.parallel))
const windowSeconds = Number(options.window)
const kinds = raceKinds.filter((kind) => kind.name.includes(options.only))
if (kinds.length === 0) throw new Error(`no race kind matches ${options.only}`)
if (requestCount < 10) throw new Error('--requests must be at least 10: the payment races alone send 7')
const webhookSecret = `whsec_bench_${randomBytes(12).toString('hex')}`

const engines = benchEngines('conflicts')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

interface RaceRecord {
  sale: Sale
  setupError: string | null
  outcome: SaleOutcome | null
}

async function runEngine(engine: BenchEngine): Promise<Failure[]> {
  const wallStarted = performance.now()
  const setup = await engine.open()
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const config = loadConfig({
    ...setup.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    SANDBOX_WEBHOOK_SECRET: webhookSecret,
    SANDBOX_SEPA_DELAY_SECONDS: '1',
    SANDBOX_REFUND_DELAY_SECONDS: '1',
    SANDBOX_TRACKING_IN_TRANSIT_SECONDS: '1',
    SANDBOX_TRACKING_DELIVERED_SECONDS: '3',
    COMPLAINT_PERIOD_SECONDS: String(windowSeconds),
    // Everyone is a company user (DESIGN §2), so that the races may pay by SEPA.
    COMPANY_EMAIL_DOMAIN: 'bench.example',
  })
  const app = await buildApp({ config, database: setup.database, webDistDir: path.join(setup.env.DATA_DIR!, 'no-web') })
  // The server's own count of 5xx answers: it also sees the sandbox's webhook deliveries, made in-process.
  const serverErrors: string[] = []
  const thrown = new WeakMap<object, string>()
  app.addHook('onError', async (request, _reply, error) => {
    thrown.set(request, error.message)
  })
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500)
      serverErrors.push(`${request.method} ${request.url} answered ${reply.statusCode}: ${thrown.get(request) ?? ''}`)
  })
  await app.listen({ port, host: '127.0.0.1' })
  const failures: Failure[] = []
  const db = setup.database.db
  try {
    const token = (email: string, admin = false) =>
      mintAccessToken({
        privateSigningKey: app.embeddedSigningKey!,
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        clientId: config.oidc.clientId,
        email,
        emailVerified: true,
        admin,
        ttlSeconds: 4 * 3600,
      })
    const adminToken = await token('admin@bench.example', true)
    const api = new ApiClient(baseUrl, webhookSecret)
    const openapi = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as Parameters<typeof documentedStatuses>[0]

    const sales = await Promise.all(
      Array.from({ length: saleCount }, async (_, index) => {
        const kind = kinds[index % kinds.length]!
        const tokens = {
          seller: await token(`seller-${index}@bench.example`),
          buyer: await token(`buyer-${index}@bench.example`),
          admin: adminToken,
        }
        return new Sale(kind, index, tokens, api, db)
      }),
    )
    const records: RaceRecord[] = sales.map((sale) => ({ sale, setupError: null, outcome: null }))
    const raceStarted = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < records.length) {
          const record = records[next++]!
          try {
            await race(record.sale)
          } catch (error) {
            if (!(error instanceof SetupError)) throw error
            record.setupError = error.message
          }
        }
      }),
    )
    const racesSeconds = (performance.now() - raceStarted) / 1000

    const drainStarted = performance.now()
    const ids = sales.filter((sale) => sale.id).map((sale) => sale.id)
    let pending = await pendingWork(db, ids)
    for (let calm = 0; calm < 2 && performance.now() - drainStarted < 180_000;) {
      await sleep(500)
      pending = await pendingWork(db, ids)
      calm = Object.values(pending).every((count) => count === 0) ? calm + 1 : 0
    }
    const drainSeconds = (performance.now() - drainStarted) / 1000
    for (const [what, count] of Object.entries(pending)) {
      if (count > 0) failures.push({ check: 'stuck', detail: `${count} ${what} after waiting ${drainSeconds.toFixed(0)} s` })
    }

    const verified = await api.call(
      { race: 'checks', saleId: '', phase: 'setup', tokens: { buyer: '', seller: '', admin: adminToken } },
      'admin',
      'GET',
      '/api/v1/admin/ledger/verify',
      {
        label: 'ledger verify',
      },
    )
    const verification = verified.body as {
      ok?: boolean
      breaches?: Array<{ rule: string; transaction_id: string | null; detail: string }>
    }
    if (verified.status !== 200 || verification.ok !== true) {
      failures.push({ check: 'ledger verify', detail: `${verified.status}: ${JSON.stringify(verification.breaches ?? verification)}` })
    }

    // Issue 34: a day of conflicting requests reconciles with the provider's records without a difference.
    const day = new Date().toISOString().slice(0, 10)
    const reconciled = await api.call(
      { race: 'checks', saleId: '', phase: 'setup', tokens: { buyer: '', seller: '', admin: adminToken } },
      'admin',
      'POST',
      '/api/v1/admin/reconciliation/runs',
      { label: 'reconciliation', body: { date: day } },
    )
    const differences = (reconciled.body as { differences?: Array<{ kind: string; detail?: string }> }).differences ?? []
    if (reconciled.status !== 200)
      failures.push({ check: 'reconciliation', detail: `${reconciled.status}: ${JSON.stringify(reconciled.body)}` })
    for (const difference of differences) failures.push({ check: 'reconciliation', detail: JSON.stringify(difference) })

    const now = new Date()
    for (const record of records) {
      if (record.setupError) {
        failures.push({ check: 'setup', saleId: record.sale.id, detail: `${record.sale.kind.name}: ${record.setupError}` })
        continue
      }
      const answers = api.answers.filter((answer) => answer.saleId === record.sale.id)
      const checked = await checkSale(db, record.sale, answers, now)
      record.outcome = checked.outcome
      failures.push(...checked.failures)
    }
    failures.push(...checkAnswers(api.answers, documentedStatuses(openapi)))
    for (const error of new Set(serverErrors)) failures.push({ check: '5xx', detail: `server: ${error}` })

    for (const kind of kinds)
      printKind(
        engine.name,
        kind.name,
        kind.summary,
        records.filter((record) => record.sale.kind === kind),
        api.answers,
      )
    const jobs = await troubledJobs(db)
    for (const job of jobs.filter((candidate) => candidate.state === 'failed'))
      failures.push({ check: 'job', detail: `${job.name} gave up: ${job.error}` })
    const raceAnswers = api.answers.filter((answer) => answer.phase === 'race')
    const fivexx = api.answers.filter((answer) => answer.status >= 500).length + serverErrors.length
    const ended = records.filter((record) => record.outcome).length
    const money = failures.filter((failure) => ['ledger', 'ledger verify', 'provider'].includes(failure.check)).length
    print(
      `${engine.name.padEnd(8)} checks: ledger ${verification.ok ? 'verified' : 'BROKEN'}; reconciliation of ${day}: ${differences.length} differences; ${ended}/${records.length} sales at one allowed end, ` +
        `${failures.filter((failure) => failure.check === 'stuck').length} stuck; money (ledger/row/provider) ${money === 0 ? 'consistent' : `${money} breaches`}; ` +
        `${api.answers.length} answers (${raceAnswers.length} in races), ${fivexx} 5xx, ${failures.filter((failure) => failure.check === 'undocumented').length} undocumented; ` +
        `jobs retried after an error ${jobs.length}${jobs.length > 0 ? ` (${summariseJobs(jobs)})` : ''}`,
    )
    print(
      `${engine.name.padEnd(8)} wall ${((performance.now() - wallStarted) / 1000).toFixed(1)} s: races ${racesSeconds.toFixed(1)} s (${saleCount} sales, ${parallel} at a time), ` +
        `drained in ${drainSeconds.toFixed(1)} s`,
    )
  } finally {
    await app.close()
    await setup.database.close()
    await setup.dispose()
  }
  return failures.map((failure) => ({ ...failure, check: `${engine.name} ${failure.check}` }))
}

/**
 * Sets the sale up, then fires its race: the requests in an order of their
 * own for each sale, either all at once or each within a few hundred
 * milliseconds (so that different requests get there first), or spread
 * around the complaint deadline so that the window's timer races too.
 */
async function race(sale: Sale): Promise<void> {
  const prepared: Prepared = await sale.kind.setup(sale)
  const random = seededRandom(sale.index + 1)
  const lanes = shuffle(sale.kind.lanes(sale, requestCount, prepared), random)
  const round = Math.floor(sale.index / kinds.length)
  let startAt: (index: number) => number
  if (prepared.deadline) {
    // Sales of one kind take turns at firing before, at and after the deadline
    // (the timer fires at it or within the worker's polling second after).
    const shifts = [-400, 0, 400, 800, 1200]
    const first = prepared.deadline.getTime() + shifts[round % shifts.length]! - 200
    startAt = (index) => first + (400 * index) / lanes.length
  } else {
    // A payment (open, confirm at the provider, report) takes three round
    // trips: it starts at once, and the other requests, in some rounds, a
    // little later, so that either side gets there first.
    const now = Date.now()
    const spread = [0, 300, 1000, 2500][round % 4]!
    startAt = (index) => (lanes[index]!.calls > 1 ? now : now + random() * spread)
  }
  const times = lanes.map((_, index) => startAt(index))
  sale.raceStartedAt = new Date(Math.min(Date.now(), ...times))
  await Promise.all(
    lanes.map(async (lane, index) => {
      const wait = times[index]! - Date.now()
      if (wait > 0) await sleep(wait)
      await lane.run()
    }),
  )
}

/** A small seeded generator (mulberry32), so that a run can be repeated. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[items[index], items[other]] = [items[other]!, items[index]!]
  }
  return items
}

function printKind(engine: string, name: string, summary: string, records: RaceRecord[], allAnswers: Answer[]): void {
  const ids = new Set(records.map((record) => record.sale.id))
  const answers = allAnswers.filter((answer) => answer.phase === 'race' && ids.has(answer.saleId))
  const succeeded = answers.filter((answer) => answer.status >= 200 && answer.status < 300)
  const replays = answers.filter((answer) => answer.replayed).length
  const refused = answers.filter((answer) => answer.status >= 400 && answer.status < 500)
  const fivexx = answers.filter((answer) => answer.status >= 500 || answer.networkError).length
  const notSent = records.reduce((total, record) => total + record.sale.notSent, 0)
  const setupFailed = records.filter((record) => record.setupError).length
  print(
    `${engine.padEnd(8)} ${name.padEnd(21)} ${String(records.length).padStart(3)} sales ${String(answers.length).padStart(5)} requests` +
      `${notSent ? ` (+${notSent} not sent)` : ''}: ${succeeded.length} succeeded, ${refused.length} refused (${replays} answers replayed), ${fivexx} 5xx` +
      `${setupFailed ? `, ${setupFailed} SETUP FAILED` : ''} | ends ${tally(records.map((record) => record.outcome?.status ?? 'unchecked'))}` +
      ` | decided by ${tally(records.map((record) => record.outcome?.decidedBy ?? 'unchecked'))}` +
      ` | refusals ${tally(refused.map((answer) => answer.code ?? '?'))} | ${summary}`,
  )
}

function tally(values: string[]): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([value, count]) => `${value} ${count}`)
    .join(', ')
}

function summariseJobs(jobs: Awaited<ReturnType<typeof troubledJobs>>): string {
  return tally(jobs.map((job) => `${job.name}: ${job.error.slice(0, 80)}`))
}

function print(line: string): void {
  process.stdout.write(`${line}\n`)
}

const failures: Failure[] = []
for (const name of options.engine.split(',').map((item) => item.trim())) {
  const engine = engines[name]
  if (!engine) throw new Error(`unknown engine ${name}: pglite or postgres`)
  if (name === 'postgres' && !(await benchPostgresReachable())) {
    print(`postgres skipped: nothing answers at ${postgresUrl} (set BENCH_DATABASE_URL)`)
    continue
  }
  failures.push(...(await runEngine(engine)))
}
if (failures.length === 0) {
  print('all checks passed')
} else {
  print(`${failures.length} FAILURES:`)
  // The same failure on many sales is shown once, with how often and one sale to look at.
  const shown = new Map<string, { count: number; saleId: string | undefined }>()
  for (const failure of failures) {
    const key = `${failure.check}: ${failure.saleId ? failure.detail.replaceAll(failure.saleId, '<sale>') : failure.detail}`
    const seen = shown.get(key)
    shown.set(key, { count: (seen?.count ?? 0) + 1, saleId: seen?.saleId ?? failure.saleId })
  }
  for (const [line, { count, saleId }] of [...shown.entries()].slice(0, 60)) {
    print(`  ${line}${count > 1 ? ` (×${count})` : ''}${saleId ? ` [sale ${saleId}]` : ''}`)
  }
  if (shown.size > 60) print(`  … and ${shown.size - 60} more kinds of failure`)
}
process.exit(failures.length === 0 ? 0 : 1)
