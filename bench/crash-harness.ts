/**
 * The crash harness (issue 10): for each named crash point
 * (apps/server/src/crash-points.ts), starts the real server as a child
 * process with CRASH_POINT set, drives a burst of sales over HTTP as a
 * client would (payment, tracking, delivery, releases, cancellations and
 * refunds, with Idempotency-Keys), lets the server kill itself at the point,
 * restarts it without, waits for everything to settle and checks the books:
 * the ledger verifies, no transfer or refund was made twice at the sandbox
 * provider, no state change or e-mail was lost, every job the crash cut off
 * ran again within 30 s of the restart, and every request the crash cut off
 * got, on retry with its Idempotency-Key, the stored result or its work
 * done once. Prints a table and exits 1 if any check failed.
 *
 *   npm run crash-harness                                  # both engines, every point
 *   npm run crash-harness -- --engine pglite --sales 6 --point outbox.after-provider-call:2
 *   CRASH_DATABASE_URL=postgres://user@host:5432/postgres npm run crash-harness -- --engine postgres
 *
 * On PostgreSQL each scenario gets a database of its own (pactum_crash_…)
 * on that server, dropped after; on PGlite a temporary DATA_DIR.
 */
import { parseArgs } from 'node:util'
import { crashPointNames } from '../apps/server/src/crash-points.ts'
import { runCrashScenario } from '../apps/server/src/testing/crash-run.ts'
import type { CrashRunReport } from '../apps/server/src/testing/crash-run/scenario.ts'
import { postgresReachable } from '../apps/server/src/db/postgres-admin.ts'
import { type CrashEngine, pgliteEngine, postgresEngine } from '../apps/server/src/testing/crash-server.ts'

const { values: options } = parseArgs({
  options: {
    engine: { type: 'string', default: 'pglite,postgres' },
    sales: { type: 'string', default: '18' },
    point: { type: 'string', multiple: true },
    verbose: { type: 'boolean', default: false },
  },
})

/**
 * Which arrival at each point kills the server: late enough that the burst
 * is under way (other sales mid-flight, jobs running side by side), early
 * enough that a burst of 18 sales gets there.
 */
const defaultPoints: Record<(typeof crashPointNames)[number], number> = {
  'outbox.before-provider-call': 2,
  'outbox.after-provider-call': 2,
  'webhook.after-commit': 12,
  'notification.after-send': 10,
  'timer.after-commit': 1,
  'idempotency.before-store': 30,
  'partner-webhook.before-post': 20,
  'partner-webhook.after-post': 20,
}

const points = options.point ?? crashPointNames.map((name) => `${name}:${defaultPoints[name]}`)
const sales = Number(options.sales)
const postgresUrl = process.env.CRASH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

function print(line = ''): void {
  process.stdout.write(`${line}\n`)
}

const engines: Record<string, () => Promise<CrashEngine>> = {
  pglite: pgliteEngine,
  postgres: () => postgresEngine(postgresUrl),
}

const rows: { engine: string; report: CrashRunReport }[] = []
for (const name of options.engine.split(',').map((engine) => engine.trim())) {
  const open = engines[name]
  if (!open) throw new Error(`unknown engine ${name}: pglite or postgres`)
  if (name === 'postgres' && !(await postgresReachable(postgresUrl))) {
    print(`postgres skipped: nothing answers at ${postgresUrl} (set CRASH_DATABASE_URL)`)
    continue
  }
  for (const point of points) {
    const engine = await open()
    let keep = false
    try {
      print(`${name} ${point}: ${sales} sales…`)
      const report = await runCrashScenario({
        engine,
        crashPoint: point,
        sales,
        log: (line) => print(`  ${line}`),
      })
      rows.push({ engine: name, report })
      for (const check of report.checks)
        if (!check.ok || options.verbose) print(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`)
      for (const request of report.retriedRequests)
        if (options.verbose)
          print(`  retried ${request.label}: ${request.status}${request.replayed ? ' (replayed)' : ''}${request.stuck ? ' STUCK' : ''}`)
      keep = report.checks.some((check) => !check.ok)
    } catch (error) {
      print(`  the scenario broke off: ${error instanceof Error ? error.stack : String(error)}`)
      keep = true
    } finally {
      if (keep && engine.name === 'pglite') print(`  database and server logs kept in ${engine.dataDir}`)
      else await engine.dispose()
    }
  }
}

print()
print('engine   point                           sales  restart  settle  in flight (max s)  due (max s)  retried keys  checks')
for (const { engine, report } of rows) {
  const passed = report.checks.filter((check) => check.ok).length
  const keyed = report.retriedRequests.filter((request) => request.key)
  const s = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} s`)
  print(
    [
      engine.padEnd(8),
      report.point.padEnd(31),
      String(report.sales).padStart(5),
      s(report.restartSeconds).padStart(8),
      s(report.settleSeconds).padStart(7),
      `${report.inFlightJobs.count} (${s(report.inFlightJobs.maxSeconds)})`.padStart(18),
      `${report.dueJobs.count} (${s(report.dueJobs.maxSeconds)})`.padStart(12),
      String(keyed.length).padStart(13),
      ` ${passed}/${report.checks.length} passed${
        passed < report.checks.length
          ? ` — FAILED: ${report.checks
              .filter((check) => !check.ok)
              .map((check) => check.name)
              .join('; ')}`
          : ''
      }`,
    ].join(' '),
  )
}
const failed = rows.some(({ report }) => report.checks.some((check) => !check.ok)) || rows.length === 0
process.exit(failed ? 1 : 0)
