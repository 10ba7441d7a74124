/**
 * Pactum beside the physical limit (issue 13): in one run, on one machine,
 * PostgreSQL's own throughput (pgbench), pgbench's statements through the
 * thinnest Node server (Fastify and pg, bench/pg-fastify.ts), a bare Fastify
 * hello world and PostgreSQL-backed Pactum at the same concurrency, each
 * Pactum figure with its ratio to the floor it is compared with and whether
 * its target is met.
 *
 *   npm run bench                 # full scale: 10 s per measurement, 1,000,000 rows, 10,000 timers
 *   npm run bench -- --quick      # 3 s, 10,000 rows, 1,000 timers: for trying changes out
 *   npm run bench -- --seconds 5 --rows 100000 --timers 2000
 *   npm run bench -- --quick --profile /tmp/prof   # also a CPU profile of the server under the load (.cpuprofile)
 *   npm run bench -- --quick --only create,get      # some figures only: create get list sales restart drain
 *   BENCH_DATABASE_URL=postgres://user@host:5432/postgres npm run bench
 *   npm run bench -- --quick --cluster 3   # Pactum as 3 processes behind nginx (npm run cluster); no restart figure
 *
 * Pactum runs as `npm start` runs it (its own process, default log level);
 * its database and pgbench's are created on that server and dropped after.
 * Figures go into docs/performance.md by hand, with the commit.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { benchClient, creatingSellers, plainCreate, pollingSpread } from './bench-client.ts'
import { benchPostgresReachable, openBenchDatabase, postgresUrl } from './bench-database.ts'
import { type LoadResult, measureLoad } from './http-load.ts'
import { seedListRows } from './list-rows.ts'
import { runOnlineSales } from './online-sales.ts'
import { Cluster } from '../scripts/cluster/cluster.ts'
import { freePort, type PactumProcess, residentMegabytes, startPactum, stopPactum } from './pactum-process.ts'
import { preparePgbench } from './pgbench.ts'
import { type Row, printTable } from './result-table.ts'
import { timerDrainSeconds } from './timer-drain.ts'

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    rows: { type: 'string' },
    timers: { type: 'string' },
    // A directory for V8 CPU profiles of the server (open them in Chrome DevTools or speedscope).
    profile: { type: 'string' },
    // A comma-separated subset of: create, get, list, sales, restart, drain (for trying a change on one figure).
    only: { type: 'string' },
    // Measure Pactum as this many processes behind nginx (scripts/cluster), on the same database.
    cluster: { type: 'string' },
  },
})
const clusterSize = options.cluster === undefined ? 0 : Number(options.cluster)
if (options.cluster !== undefined && !(Number.isInteger(clusterSize) && clusterSize >= 1 && clusterSize <= 16)) {
  console.error(`--cluster: 1 to 16 processes, not ${options.cluster}`)
  process.exit(2)
}
const figures = ['create', 'get', 'list', 'sales', 'restart', 'drain'] as const
const only = options.only?.split(',').map((name) => name.trim())
for (const name of only ?? []) {
  if (!(figures as readonly string[]).includes(name)) throw new Error(`--only: unknown figure ${name} (one of ${figures.join(', ')})`)
}
const wanted = (figure: (typeof figures)[number]) => !only || only.includes(figure)
const scale = {
  seconds: Number(options.seconds ?? (options.quick ? 3 : 10)),
  rows: Number(options.rows ?? (options.quick ? 10_000 : 1_000_000)),
  timers: Number(options.timers ?? (options.quick ? 1_000 : 10_000)),
  pgbenchScale: options.quick ? 1 : 10,
}
// The issue's setting: 8 concurrent clients everywhere, 50 for the list.
const connections = 8
const listConnections = 50

const progress = (line: string) => process.stderr.write(`… ${line}\n`)

if (!(await benchPostgresReachable())) {
  console.error(`nothing answers at ${postgresUrl}: set BENCH_DATABASE_URL to a PostgreSQL server`)
  process.exit(2)
}
const rows: Row[] = []

let simpleUpdate = Number.NaN
let selectOnly = Number.NaN
let hello = { requestsPerSecond: Number.NaN, p99: Number.NaN }
// pgbench's statements through Fastify and pg (bench/pg-fastify.ts): the most a Node server on pg could give.
const floor: { simpleUpdate?: LoadResult; selectOnly?: LoadResult; page?: LoadResult } = {}
if (wanted('create') || wanted('get') || wanted('list')) {
  progress(`pgbench, scale ${scale.pgbenchScale}, ${connections} clients, ${scale.seconds} s each`)
  const pgbench = await preparePgbench(postgresUrl, scale.pgbenchScale)
  try {
    if (wanted('create')) simpleUpdate = await pgbench.tps('simple-update', connections, scale.seconds)
    if (wanted('get')) selectOnly = await pgbench.tps('select-only', connections, scale.seconds)
    progress("pgbench's statements through Fastify and pg")
    await withServer('pg-fastify.ts', { DATABASE_URL: pgbench.url }, async (url) => {
      if (wanted('create'))
        floor.simpleUpdate = await measureLoad({ url: `${url}/simple-update`, method: 'POST', connections, seconds: scale.seconds })
      if (wanted('get')) floor.selectOnly = await measureLoad({ url: `${url}/select-only`, connections, seconds: scale.seconds })
      if (wanted('list')) floor.page = await measureLoad({ url: `${url}/page`, connections: listConnections, seconds: scale.seconds })
    })
  } finally {
    await pgbench.dispose()
  }
  if (wanted('create') || wanted('get')) {
    progress('bare Fastify hello world')
    hello = await withServer('hello-fastify.ts', {}, (url) => measureLoad({ url: `${url}/`, connections, seconds: scale.seconds }))
  }
}

progress('Pactum')
const setup = await openBenchDatabase('postgres', 'bench')
const port = await freePort()
// Short complaint window so that a whole sale (create → release) fits in a benchmark.
const env = { ...setup.env, COMPLAINT_PERIOD_SECONDS: '1' }
let server: PactumProcess | undefined
let cluster: Cluster | undefined
if (clusterSize > 0) {
  const { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...settings } = env as Record<string, string>
  cluster = await Cluster.start({
    port,
    processes: clusterSize,
    databaseUrl: databaseUrl!,
    dataDir: dataDir!,
    runDir: path.join(dataDir!, 'run'),
    env: settings,
  })
} else {
  server = await startPactum(env, port, options.profile)
}
const baseUrl = cluster?.url ?? server!.baseUrl
try {
  const client = await benchClient(baseUrl, env, port)
  const { token, api } = client
  const seller = await token('seller@example.com')
  const { quote, body: createBody } = await plainCreate(client, seller)
  const authorised = (who: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who}`, ...extra })

  if (wanted('create')) {
    progress('create transaction')
    const create = await measureLoad({
      url: `${baseUrl}/api/v1/me/transactions`,
      method: 'POST',
      connections,
      seconds: scale.seconds,
      body: JSON.stringify(createBody),
      spread: await creatingSellers(client),
    })
    rows.push({
      figure: `create transaction (${connections} conn, 16 sellers)`,
      pactum: `${create.requestsPerSecond.toFixed(0)} req/s, p99 ${create.p99} ms`,
      reference: `the floor ${floor.simpleUpdate!.requestsPerSecond.toFixed(0)} req/s (pgbench simple-update ${simpleUpdate.toFixed(0)} TPS)`,
      // Issue 36: against the floor measured in the same run (Node on pg), not pgbench itself.
      ratio: create.requestsPerSecond / floor.simpleUpdate!.requestsPerSecond,
      target: { text: '≥ 0.6 of the floor', met: create.requestsPerSecond / floor.simpleUpdate!.requestsPerSecond >= 0.6 },
      note: [
        failures(create),
        `${pct(create.requestsPerSecond / hello.requestsPerSecond)} of a bare Fastify's ${hello.requestsPerSecond.toFixed(0)} req/s`,
      ]
        .filter(Boolean)
        .join('; '),
    })
    rows.push(
      floorRow(
        `pgbench's simple-update through Fastify and pg (${connections} conn)`,
        floor.simpleUpdate!,
        `pgbench simple-update ${simpleUpdate.toFixed(0)} TPS`,
        simpleUpdate,
        create,
      ),
    )
  }

  if (wanted('get')) {
    progress('GET transaction')
    const spread = await pollingSpread(client, createBody)
    const get = await measureLoad({ url: `${baseUrl}${spread[0]!.path}`, connections, seconds: scale.seconds, spread })
    rows.push({
      figure: `GET transaction (${connections} conn)`,
      pactum: `${get.requestsPerSecond.toFixed(0)} req/s, p99 ${get.p99} ms`,
      reference: `the floor ${floor.selectOnly!.requestsPerSecond.toFixed(0)} req/s (pgbench select-only ${selectOnly.toFixed(0)} TPS)`,
      ratio: get.requestsPerSecond / floor.selectOnly!.requestsPerSecond,
      target: { text: '≥ 0.75 of the floor', met: get.requestsPerSecond / floor.selectOnly!.requestsPerSecond >= 0.75 },
      note: [
        failures(get),
        `${pct(get.requestsPerSecond / hello.requestsPerSecond)} of a bare Fastify's ${hello.requestsPerSecond.toFixed(0)} req/s`,
      ]
        .filter(Boolean)
        .join('; '),
    })
    rows.push(
      floorRow(
        `pgbench's select-only through Fastify and pg (${connections} conn)`,
        floor.selectOnly!,
        `pgbench select-only ${selectOnly.toFixed(0)} TPS`,
        selectOnly,
        get,
      ),
    )
    // The same floor with the GET's own row (row-floor.ts): how much of the gap is the row's width, not Pactum's code.
    progress("a transaction's row through Fastify and pg")
    const rowSpread = spread.map(({ path }) => ({ path: path.replace('/api/v1', ''), headers: {} }))
    const rowFloor = await withServer('row-floor.ts', { DATABASE_URL: setup.env.DATABASE_URL! }, (url) =>
      measureLoad({ url: `${url}${rowSpread[0]!.path}`, connections, seconds: scale.seconds, spread: rowSpread }),
    )
    rows.push({
      figure: `a transaction's row through Fastify and pg (${connections} conn)`,
      pactum: `${rowFloor.requestsPerSecond.toFixed(0)} req/s, p99 ${rowFloor.p99} ms`,
      reference: `the floor ${floor.selectOnly!.requestsPerSecond.toFixed(0)} req/s`,
      ratio: rowFloor.requestsPerSecond / floor.selectOnly!.requestsPerSecond,
      note: [
        `the floor with Pactum's row for pgbench's integer; Pactum's GET is ${pct(get.requestsPerSecond / rowFloor.requestsPerSecond)} of it`,
        failures(rowFloor),
      ]
        .filter(Boolean)
        .join('; '),
    })
  }

  const lister = await token('lister@example.com')
  let tableRows = 0
  if (wanted('list') || wanted('restart')) {
    progress(`My transactions with ${scale.rows.toLocaleString('en')} rows (seeding)`)
    const template = await api(lister, 'POST', '/api/v1/me/transactions', createBody)
    const listerId = (
      await setup.database.db.selectFrom('users').select('id').where('email', '=', 'lister@example.com').executeTakeFirstOrThrow()
    ).id
    await seedListRows(setup.database.db, { templateId: template.id!, listerId, total: scale.rows })
    tableRows = Number((await sql<{ n: string }>`select count(*) as n from transactions`.execute(setup.database.db)).rows[0]?.n)
  }
  if (wanted('list')) {
    // The page's own request (rows as summaries), which the target is for; then the same page with every field.
    for (const view of ['summary', 'full'] as const) {
      progress(`My transactions, ${view} rows (measuring)`)
      const list = await measureLoad({
        url: `${baseUrl}/api/v1/me/transactions?limit=50&view=${view}`,
        connections: listConnections,
        seconds: scale.seconds,
        headers: authorised(lister),
      })
      rows.push({
        figure: `list My transactions, first page${view === 'full' ? ' of full transactions' : ''}, ${tableRows.toLocaleString('en')} rows (${listConnections} conn)`,
        pactum: `p50 ${list.p50} ms, p99 ${list.p99} ms`,
        reference: `${list.requestsPerSecond.toFixed(0)} req/s`,
        ...(view === 'summary'
          ? { target: { text: `p99 ≤ 2 × the floor's (${2 * floor.page!.p99} ms)`, met: list.p99 <= 2 * floor.page!.p99 } }
          : {}),
        note: [
          view === 'summary' ? 'rows as the page asks for them (view=summary)' : 'no target: for comparison',
          'the lister is a party to 1 in 10',
          failures(list),
        ]
          .filter(Boolean)
          .join('; '),
      })
    }
    const page = floor.page!
    rows.push({
      figure: `a page of 50 pgbench accounts through Fastify and pg (${listConnections} conn)`,
      pactum: `p50 ${page.p50} ms, p99 ${page.p99} ms`,
      reference: `${page.requestsPerSecond.toFixed(0)} req/s`,
      note: ['the floor for the list: no authentication, 4 columns, no schema', failures(page)].filter(Boolean).join('; '),
    })
  }

  if (wanted('sales')) {
    progress(`whole online sales, ${connections} side by side for ${scale.seconds} s`)
    let buyers = 0
    const sales = await runOnlineSales({
      baseUrl,
      db: setup.database.db,
      parties: { seller, buyer: () => token(`buyer-${(buyers += 1)}@example.com`) },
      quote: { charge: quote.charge, charge_calculator_version: quote.charge_calculator_version },
      workers: connections,
      seconds: scale.seconds,
    })
    rows.push({
      figure: `whole online sale, create → release (${connections} side by side)`,
      pactum: `${sales.perSecond.toFixed(1)} sales/s`,
      reference: `${sales.sales} sales, API part ${(sales.apiSecondsMedian * 1000).toFixed(0)} ms median`,
      target: { text: '≥ 30 sales/s', met: sales.perSecond >= 30 && sales.failed === 0 },
      note: `complaint window 1 s${sales.failed ? `; ${sales.failed} FAILED: ${sales.firstFailure}` : ''}`,
    })
  }

  const rss = server ? await residentMegabytes(server) : await clusterMegabytes(cluster!)

  if (server && wanted('restart')) {
    progress('restart to healthy')
    const stopping = performance.now()
    await stopPactum(server)
    const stopSeconds = (performance.now() - stopping) / 1000
    server = await startPactum(env, port, options.profile)
    const after = await api(lister, 'GET', '/api/v1/me/transactions?limit=50')
    const present = Array.isArray(after) && after.length === 50
    rows.push({
      figure: `restart to healthy (SIGTERM, start, /health 200)`,
      pactum: `${server.startSeconds.toFixed(2)} s`,
      reference: `${tableRows.toLocaleString('en')} transactions in the table`,
      target: { text: '≤ 2 s', met: server.startSeconds <= 2 && present },
      note: `${present ? 'data present after it' : 'DATA MISSING after it'}; the SIGTERM stop took ${stopSeconds.toFixed(2)} s more`,
    })
  }
  rows.push({
    figure: cluster ? `server RSS after the load above, ${clusterSize} processes together` : 'server RSS after the load above',
    pactum: `${rss.toFixed(0)} MB`,
    reference: '',
    ...(cluster ? { note: 'through nginx; restart not measured with --cluster' } : {}),
  })
} finally {
  if (server) await stopPactum(server)
  await cluster?.stop()
  await setup.database.close()
  await setup.dispose()
}

if (wanted('drain')) {
  progress(`the ${scale.timers.toLocaleString('en')}-timer drain (npm run bench:jobs)`)
  const drain = await timerDrainSeconds(scale.timers)
  rows.push({
    figure: `${scale.timers.toLocaleString('en')} due timers drained (issue 10)`,
    pactum: `${drain.seconds.toFixed(1)} s`,
    reference: `${(drain.released / drain.seconds).toFixed(0)} releases/s`,
    ...(scale.timers === 10_000 ? { target: { text: '≤ 30 s', met: drain.seconds <= 30 && drain.released === scale.timers } } : {}),
    note: drain.released === scale.timers ? '' : `only ${drain.released} released`,
  })
}

printTable(rows, { connections, scale: options.quick ? 'quick' : 'full', seconds: scale.seconds })
process.exit(rows.every((row) => row.target?.met !== false) ? 0 : 1)

/** The processes' resident memory together (VmRSS in /proc; Linux only). */
async function clusterMegabytes(running: Cluster): Promise<number> {
  let total = 0
  for (const process of running.servers) {
    const status = await readFile(`/proc/${process.pid}/status`, 'utf8')
    total += Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) / 1024
  }
  return total
}

function failures(load: LoadResult): string {
  return load.failed > 0 ? `${load.failed} requests FAILED or not 2xx (${load.failures})` : ''
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(0)} %`
}

/**
 * A floor beside Pactum's figure: what the same database work gives through
 * the thinnest Node server (its ratio to pgbench is the most Pactum's could
 * be), and how much of that Pactum reaches.
 */
function floorRow(figure: string, load: LoadResult, reference: string, pgbenchFigure: number, pactum: LoadResult): Row {
  return {
    figure,
    pactum: `${load.requestsPerSecond.toFixed(0)} req/s, p99 ${load.p99} ms`,
    reference,
    ratio: load.requestsPerSecond / pgbenchFigure,
    note: [`the floor for Node on pg; Pactum is ${pct(pactum.requestsPerSecond / load.requestsPerSecond)} of it`, failures(load)]
      .filter(Boolean)
      .join('; '),
  }
}

/** One of the floors' servers (hello-fastify.ts, pg-fastify.ts) in its own process, for as long as `measure` runs. */
async function withServer<T>(script: string, env: Record<string, string>, measure: (url: string) => Promise<T>): Promise<T> {
  const serverPort = await freePort()
  const child: ChildProcess = spawn(process.execPath, [new URL(`./${script}`, import.meta.url).pathname], {
    env: { ...process.env, ...env, PORT: String(serverPort) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve())
      child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
    })
    return await measure(`http://127.0.0.1:${serverPort}`)
  } finally {
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  }
}
