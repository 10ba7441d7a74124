/**
 * The three-process run (issue 13 #4), as one script that passes or fails:
 *
 *   1. starts three server processes on one fresh PostgreSQL database with
 *      nginx in front (npm run cluster's code; the processes start together,
 *      so they race through the migrations and the job queue's install);
 *   2. runs browser tests through nginx (E2E_BASE_URL): by default a subset
 *      that covers sign-in and registration, both kinds of sale to the
 *      release, e-mail links and the admin console (`--e2e all`: the whole
 *      suite, some 10 minutes more on two cores; `--e2e none` skips them);
 *   3. checks that limits counted in the database hold whichever process
 *      nginx hands a request to: an API rate limit (join-code look-ups) and
 *      the embedded sign-in's password throttle (a browser posts five wrong
 *      passwords, then the right one, which must be refused);
 *   4. runs a mixed load through nginx (whole sales, creates, reads) and
 *      kills one process with SIGKILL part-way, starting it again 2 s later;
 *   5. checks the books in the database: nothing acknowledged lost, every
 *      sale released, every timer, outbox call and e-mail done once, ledger
 *      invariants, nothing stuck. Prints a table; exits 1 if a check failed.
 *
 * With a read replica (`--replica auto`, the default: when this machine has
 * the PostgreSQL server's pg_basebackup and pg_ctl; `on`; `off`), a
 * streaming replica of the PostgreSQL server is made on `--replica-port`
 * (scripts/cluster/read-replica.ts) and every process reads its lists from
 * it (DATABASE_READ_URL). The load then checks that each user's list after
 * each of their actions shows that action (decision 123), and the run that
 * the replica served lists and holds what the primary holds.
 *
 *   npm run test:cluster
 *   npm run test:cluster -- --e2e none --seconds 60 --port 3351
 *   npm run test:cluster -- --e2e none --replica on --replica-port 5433
 *   CLUSTER_DATABASE_URL=postgres://user@host:5432/postgres npm run test:cluster
 *
 * Not part of `npm test`: it takes minutes and needs nginx and PostgreSQL.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { loadConfig } from '../apps/server/src/config.ts'
import { openPostgres } from '../apps/server/src/db/database.ts'
import { replicaState } from '../apps/server/src/db/replica-reads.ts'
import { postgresReachable } from '../apps/server/src/db/postgres-admin.ts'
import { mintAccessToken, readSigningKeyFile } from '../apps/server/src/modules/sign-in/oidc/token-minter.ts'
import { e2eServerEnv } from '../e2e/support/server-env.ts'
import { Cluster } from './cluster/cluster.ts'
import { defaultServerUrl, throwawayDatabase } from './cluster/cluster-database.ts'
import { LoadClient } from './cluster/load-client.ts'
import { runMixedLoad } from './cluster/mixed-load.ts'
import { type ReadReplica, replicaTools, startReadReplica, waitForReplay } from './cluster/read-replica.ts'
import { sharedSignInThrottle } from './cluster/shared-sign-in-throttle.ts'
import {
  accessLogSummary,
  type Check,
  checkBooks,
  processesTried,
  type RunningJob,
  runningJobs,
  waitUntilSettled,
} from './cluster/settled-checks.ts'

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '3351' },
    processes: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '40' },
    e2e: { type: 'string', default: 'subset' },
    'e2e-workers': { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    replica: { type: 'string', default: 'auto' },
    'replica-port': { type: 'string', default: '5433' },
  },
})
if (!['auto', 'on', 'off'].includes(options.replica)) {
  console.error('--replica is auto, on or off')
  process.exit(2)
}
const e2eSubset = [
  'shell.spec.ts',
  'online-sale.spec.ts',
  'face-to-face-sale.spec.ts',
  'email-confirmation.spec.ts',
  'admin-console.spec.ts',
]
const e2eFiles = options.e2e === 'all' ? [] : options.e2e === 'none' ? null : options.e2e === 'subset' ? e2eSubset : options.e2e.split(',')
const port = Number(options.port)
const serverUrl = process.env.CLUSTER_DATABASE_URL ?? defaultServerUrl
const print = (line: string) => process.stdout.write(`${line}\n`)
const log = (line: string) => print(`… ${line}`)

if (!(await postgresReachable(serverUrl))) {
  console.error(`nothing answers at ${serverUrl}: set CLUSTER_DATABASE_URL to a PostgreSQL server`)
  process.exit(2)
}
const database = await throwawayDatabase(serverUrl, 'cluster')
const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-cluster-'))
const publicUrl = `http://localhost:${port}`
const { PUBLIC_URL: _publicUrl, DATA_DIR: _dataDir, ...serverEnv } = e2eServerEnv({ publicUrl, dataDir })
const checks: Check[] = []
let cluster: Cluster | undefined
const db = openPostgres(database.url)
let replica: ReadReplica | undefined
/** Each process's metrics, on a port of its own: the replica's reads are counted there. */
const metricsPort = (index: number) => port + 100 + index

try {
  log(`database ${new URL(database.url).pathname.slice(1)}, DATA_DIR ${dataDir}`)
  if (options.replica !== 'off') {
    const tools = await replicaTools(serverUrl)
    if ('bin' in tools)
      replica = await startReadReplica({ primaryUrl: serverUrl, bin: tools.bin, port: Number(options['replica-port']), log })
    else if (options.replica === 'on') throw new Error(`--replica on: ${tools.missing}`)
    else log(`no read replica: ${tools.missing}`)
  }
  cluster = await Cluster.start({
    port,
    processes: Number(options.processes),
    databaseUrl: database.url,
    dataDir,
    runDir: path.join(dataDir, 'run'),
    env: { ...serverEnv, ...(replica ? { DATABASE_READ_URL: replica.urlFor(database.url) } : {}) },
    processEnv: (index) => ({ METRICS_PORT: String(metricsPort(index)) }),
    log,
  })
  const migrations = Number((await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(db.db)).rows[0]?.n)
  checks.push({
    name: 'processes started together on a fresh database',
    ok: migrations > 0,
    detail: `${migrations} migrations applied, ${cluster.servers.length} processes healthy`,
  })

  if (e2eFiles) checks.push(await runBrowserTests(cluster.url, e2eFiles))

  const config = loadConfig({ PUBLIC_URL: publicUrl, DATA_DIR: dataDir })
  const signingKey = await readSigningKeyFile(dataDir)
  const token = (email: string, admin = false) =>
    mintAccessToken({
      privateSigningKey: signingKey,
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      clientId: config.oidc.clientId,
      email,
      admin,
      ttlSeconds: 3600,
    })
  const client = new LoadClient(cluster.url)
  checks.push(await sharedRateLimit(client, await token('cluster-guesser@example.com'), cluster.front.accessLog))
  checks.push(await sharedSignInThrottle(cluster.url, cluster.front.accessLog, dataDir))
  const victim = cluster.servers[1] ?? cluster.servers[0]!
  let runningAtKill: RunningJob[] = []
  let restartedAt: Date | undefined
  log(`mixed load for ${options.seconds} s; ${victim.name} is killed part-way`)
  const load = await runMixedLoad({
    client,
    token,
    seconds: Number(options.seconds),
    saleWorkers: 4,
    createWorkers: 2,
    readWorkers: 2,
    disruptAt: 0.35,
    disrupt: async () => {
      runningAtKill = await runningJobs(db.db)
      victim.kill('SIGKILL')
      const exit = await victim.exited
      log(`${victim.name} killed (${exit.signal}) with ${runningAtKill.length} jobs running across the processes`)
      await sleep(2000)
      await cluster!.restart(victim)
      // The access log's times are whole seconds: count from the next one.
      restartedAt = new Date(Math.ceil(Date.now() / 1000) * 1000)
    },
    log,
  })
  log('waiting for every sale to be released and the queues to empty')
  const settled = await waitUntilSettled(db.db, load.sales, 180)
  const ledger = await client.call(await token('cluster-admin@example.com', true), 'GET', '/api/v1/admin/ledger/verify')
  checks.push(...(await checkBooks({ db: db.db, load, settled, ledgerThroughApi: ledger, runningAtKill, dataDir })))

  checks.push({
    name: 'every user’s next list showed their own last action',
    ok: load.ownWrites.checked > 0 && load.ownWrites.older.length === 0,
    detail:
      `${load.ownWrites.checked} actions each followed by the actor's list${replica ? ' (replica or primary, decision 123)' : ''}; ` +
      (load.ownWrites.older.length ? `older: ${load.ownWrites.older.slice(0, 3).join('; ')}` : 'none older'),
  })
  if (replica) checks.push(...(await replicaChecks(replica, cluster)))

  const counts = client.counts
  checks.push({
    name: 'the client never gave up on a request',
    ok: counts.gaveUp === 0,
    detail: `${counts.requests} requests; ${counts.cutOff} attempts cut off or 502 and sent again, ${counts.inProgressWaits} waits on a key in progress`,
  })
  await sleep(1500) // nginx flushes its access log every second
  const traffic = await accessLogSummary(cluster.front.accessLog, restartedAt ?? new Date())
  const servedAfter = traffic.perProcessSince[victim.address] ?? 0
  checks.push({
    name: 'the killed process came back and serves',
    ok: restartedAt !== undefined && victim.running && servedAfter > 0,
    detail: `${victim.name} served ${servedAfter} requests after its restart; requests per process ${JSON.stringify(traffic.perProcess)}; nginx sent ${traffic.failedOver} on to another process, answered ${traffic.gatewayErrors} with a gateway error`,
  })
} catch (error) {
  checks.push({ name: 'the run itself', ok: false, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) })
} finally {
  await cluster?.stop()
  await db.close()
  await replica?.stop()
  if (options.keep) log(`kept: DATA_DIR ${dataDir}, database ${database.url}`)
  else {
    await database.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

print('')
for (const check of checks) print(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}: ${check.detail}`)
const failed = checks.filter((check) => !check.ok).length
print(failed ? `\n${failed} of ${checks.length} checks failed` : `\nall ${checks.length} checks passed`)
process.exit(failed ? 1 : 0)

/**
 * The replica served lists (counted by each process's metrics; the killed
 * process's only since its restart), and once it has replayed everything
 * it holds the primary's sales and ledger.
 */
async function replicaChecks(replica: ReadReplica, running: Cluster): Promise<Check[]> {
  const served = { replica: 0, primary: 0 }
  for (const [index, server] of running.servers.entries()) {
    if (!server.running) continue
    const text = await (await fetch(`http://127.0.0.1:${metricsPort(index)}/metrics`)).text()
    for (const match of text.matchAll(/^pactum_replica_reads_total\{served_by="(replica|primary)"\} (\d+)/gm)) {
      served[match[1] as 'replica' | 'primary'] += Number(match[2])
    }
  }
  const total = served.replica + served.primary
  const share = total ? Math.round((served.replica / total) * 100) : 0
  const lagAtEnd = await waitForReplay(replica, database.url, 30)
  const replicaDb = openPostgres(replica.urlFor(database.url))
  const countsOf = async (kysely: typeof db.db) =>
    (
      await sql<{ sales: number; entries: number }>`
        select (select count(*)::int from transactions) as sales, (select count(*)::int from ledger_entries) as entries
      `.execute(kysely)
    ).rows[0]
  let same: { primary: unknown; replica: unknown }
  let state: { standby: boolean; behindBytes: number }
  try {
    same = { primary: await countsOf(db.db), replica: await countsOf(replicaDb.db) }
    // What `cli doctor` reports of DATABASE_READ_URL, asked of a real standby.
    state = await replicaState(db.db, replicaDb.db)
  } finally {
    await replicaDb.close()
  }
  return [
    {
      name: 'lists were read from the streaming replica',
      ok: served.replica > 0,
      detail: `${served.replica} of ${total} lists and verification pages served by the replica (${share} %), ${served.primary} by the primary while the replica had not yet replayed the primary's position`,
    },
    {
      name: 'the replica holds what the primary holds',
      ok: state.standby && lagAtEnd === 0 && JSON.stringify(same.primary) === JSON.stringify(same.replica),
      detail: `${state.standby ? 'a standby' : 'NOT a standby'}, replayed to the primary's position (${lagAtEnd} bytes behind); primary ${JSON.stringify(same.primary)}, replica ${JSON.stringify(same.replica)}`,
    },
  ]
}

/** Playwright from the e2e workspace, against nginx instead of a server of its own. */
async function runBrowserTests(baseUrl: string, files: string[]): Promise<Check> {
  log(`browser tests through nginx: ${files.length ? files.join(' ') : 'the whole suite'}`)
  const child = spawn('npx', ['playwright', 'test', ...files, '--retries', '0'], {
    cwd: path.resolve(import.meta.dirname, '../e2e'),
    env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_DATA_DIR: dataDir, E2E_WORKERS: options['e2e-workers'] },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  return {
    name: 'browser tests through nginx',
    ok: code === 0,
    detail: code === 0 ? `${files.join(', ') || 'all'} passed` : `playwright exited with ${code} (report in e2e/artifacts/report)`,
  }
}

/**
 * Join-code look-ups allow 20 a minute per user. nginx spreads the calls
 * over the processes, so only a count kept in the database stops the 21st;
 * one per process would let 60 through.
 */
async function sharedRateLimit(client: LoadClient, guesser: string, accessLog: string): Promise<Check> {
  const statuses: number[] = []
  for (let attempt = 0; attempt < 21; attempt++) {
    statuses.push((await client.call(guesser, 'GET', '/api/v1/transactions?join_code=ABCDEFGH')).status)
  }
  await sleep(1500) // nginx flushes its access log every second
  const served = (await readFile(accessLog, 'utf8')).split('\n').filter((line) => line.includes('join_code=ABCDEFGH'))
  // The process that answered: nginx may have tried another first.
  const processes = new Set(served.flatMap((line) => processesTried(line).slice(-1)))
  const limited = statuses.at(-1) === 429 && statuses.slice(0, 20).every((status) => status === 404)
  return {
    name: 'rate limits are shared by the processes',
    ok: limited && processes.size > 1,
    detail: `20 look-ups answered ${[...new Set(statuses.slice(0, 20))].join('/')}, the 21st ${statuses.at(-1)}; served by ${processes.size} processes`,
  }
}
