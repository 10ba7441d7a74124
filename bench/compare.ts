/**
 * This working tree's server beside another commit's, in alternated rounds
 * (issue 13): for changes smaller than how much a shared machine varies
 * from one run to the next. Each side runs as `npm start` runs it, on a
 * database of its own on the same PostgreSQL, with the same load; the two
 * take turns, each pair in the other order from the last, and the figure
 * to read is the median of the pairs' ratios (working tree ÷ base).
 *
 *   npm run bench:compare -- --base HEAD~1                       # GET, 14 pairs of 3 s
 *   npm run bench:compare -- --base HEAD~2 --what create --pairs 12
 *   npm run bench:compare -- --base HEAD                         # the same code on both sides: how far pairs stray here
 *
 * The base is checked out in a temporary git worktree with this tree's
 * installed dependencies (its own packages/ included) and removed after.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchClient, creatingSellers, plainCreate, pollingSpread } from './bench-client.ts'
import { benchPostgresReachable, openBenchDatabase, postgresUrl } from './bench-database.ts'
import { measureLoad } from './http-load.ts'
import { freePort, startPactum, stopPactum } from './pactum-process.ts'

const { values: options } = parseArgs({
  options: {
    base: { type: 'string' },
    what: { type: 'string', default: 'get' },
    pairs: { type: 'string', default: '14' },
    seconds: { type: 'string', default: '3' },
  },
})
const pairs = Number(options.pairs)
const seconds = Number(options.seconds)
if (!options.base || !['get', 'create'].includes(options.what) || !(pairs >= 1) || !(seconds >= 1)) {
  console.error('usage: npm run bench:compare -- --base <commit> [--what get|create] [--pairs 14] [--seconds 3]')
  process.exit(2)
}
if (!(await benchPostgresReachable())) {
  console.error(`nothing answers at ${postgresUrl}: set BENCH_DATABASE_URL to a PostgreSQL server`)
  process.exit(2)
}

const root = path.resolve(import.meta.dirname, '..')
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
const connections = 8
const progress = (line: string) => process.stderr.write(`… ${line}\n`)

/** The base commit in a worktree that uses this tree's node_modules, but its own workspace packages. */
async function checkOut(commit: string): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'pactum-compare-')), 'tree')
  git('worktree', 'add', '--detach', dir, commit)
  const modules = path.join(dir, 'node_modules')
  await mkdir(path.join(modules, '@pactum'), { recursive: true })
  for (const entry of await readdir(path.join(root, 'node_modules'))) {
    if (entry !== '@pactum') await symlink(path.join(root, 'node_modules', entry), path.join(modules, entry))
  }
  // The workspace packages, linked as npm links them here (../../packages/domain…), but into the worktree.
  for (const name of await readdir(path.join(root, 'node_modules', '@pactum'))) {
    const target = await readlink(path.join(root, 'node_modules', '@pactum', name))
    await symlink(target, path.join(modules, '@pactum', name))
  }
  return {
    dir,
    async dispose() {
      git('worktree', 'remove', '--force', dir)
      await rm(path.dirname(dir), { recursive: true, force: true })
    },
  }
}

/** CPU time (user + system) of a process in 1/100 s (Linux's USER_HZ). */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}

interface Round {
  requestsPerSecond: number
  /** The server's CPU time per answered request. */
  serverMicroseconds: number
}

interface Side {
  round(): Promise<Round>
  dispose(): Promise<void>
}

async function startSide(name: string, sourceRoot: string): Promise<Side> {
  const database = await openBenchDatabase('postgres', 'compare', { migrate: false })
  const port = await freePort()
  const server = await startPactum(database.env, port, undefined, sourceRoot)
  const client = await benchClient(server.baseUrl, database.env, port)
  const seller = await client.token('seller@example.com')
  const { body: createBody } = await plainCreate(client, seller)
  const spread = options.what === 'get' ? await pollingSpread(client, createBody) : await creatingSellers(client)
  progress(`${name}: ${sourceRoot} on port ${port}`)
  return {
    async round(): Promise<Round> {
      const before = await cpuTicks(server.child.pid!)
      const load =
        options.what === 'create'
          ? await measureLoad({
              url: `${server.baseUrl}/api/v1/me/transactions`,
              method: 'POST',
              connections,
              seconds,
              body: JSON.stringify(createBody),
              spread,
            })
          : await measureLoad({ url: `${server.baseUrl}${spread[0]!.path}`, connections, seconds, spread })
      if (load.failed) throw new Error(`${name} failed requests: ${load.failures}`)
      const ticks = (await cpuTicks(server.child.pid!)) - before
      return { requestsPerSecond: load.requestsPerSecond, serverMicroseconds: (ticks * 10_000) / load.ok }
    },
    async dispose() {
      await stopPactum(server)
      await database.dispose()
    },
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length / 2
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const baseCommit = git('rev-parse', '--short', options.base)
const checkout = await checkOut(baseCommit)
// A server process may run faster or slower than another of the same code for as long as it
// lives (which one started first mattered here): each half of the pairs gets new processes,
// started in the other order.
const sessions = pairs > 1 ? 2 : 1
const results: { base: Round; tree: Round }[] = []
try {
  for (let session = 0; session < sessions; session++) {
    const sessionPairs = Math.ceil((pairs - results.length) / (sessions - session))
    const order = session % 2 === 0 ? (['base', 'tree'] as const) : (['tree', 'base'] as const)
    const started: Partial<Record<'base' | 'tree', Side>> = {}
    try {
      for (const which of order)
        started[which] = await startSide(which === 'base' ? `base ${baseCommit}` : 'working tree', which === 'base' ? checkout.dir : root)
      const { base, tree } = started as Record<'base' | 'tree', Side>
      progress(`session ${session + 1}: warming both up, then ${sessionPairs} pairs of ${seconds} s ${options.what.toUpperCase()} rounds`)
      await base.round()
      await tree.round()
      for (let pair = 0; pair < sessionPairs; pair++) {
        const baseFirst = pair % 2 === 0
        const first = await (baseFirst ? base : tree).round()
        const second = await (baseFirst ? tree : base).round()
        const result = baseFirst ? { base: first, tree: second } : { base: second, tree: first }
        results.push(result)
        progress(
          `pair ${results.length}: base ${result.base.requestsPerSecond.toFixed(0)} req/s (${result.base.serverMicroseconds.toFixed(0)} µs), ` +
            `working tree ${result.tree.requestsPerSecond.toFixed(0)} req/s (${result.tree.serverMicroseconds.toFixed(0)} µs)`,
        )
      }
    } finally {
      for (const side of Object.values(started)) await side.dispose()
    }
  }
} finally {
  await checkout.dispose()
}

const ratios = results.map((result) => result.tree.requestsPerSecond / result.base.requestsPerSecond)
const cpuRatios = results.map((result) => result.tree.serverMicroseconds / result.base.serverMicroseconds)
const changed = git('status', '--porcelain') ? ' (with changes)' : ''
const lines = [
  '',
  `${options.what.toUpperCase()}, ${results.length} alternated pairs of ${seconds} s in ${sessions} session(s), ${connections} connections: base ${baseCommit}, working tree at ${git('rev-parse', '--short', 'HEAD')}${changed}`,
  '',
  '| | base | working tree |',
  '|---|---|---|',
  `| median req/s | ${median(results.map((r) => r.base.requestsPerSecond)).toFixed(0)} | ${median(results.map((r) => r.tree.requestsPerSecond)).toFixed(0)} |`,
  `| median server CPU per request | ${median(results.map((r) => r.base.serverMicroseconds)).toFixed(0)} µs | ${median(results.map((r) => r.tree.serverMicroseconds)).toFixed(0)} µs |`,
  '',
  `working tree ÷ base, per pair: throughput median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), server CPU per request median ${median(cpuRatios).toFixed(3)}`,
  '',
]
process.stdout.write(lines.join('\n'))
