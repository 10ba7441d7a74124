/**
 * The long run of the API fuzz (apps/server/src/testing/api-fuzz.ts): every
 * operation of the OpenAPI document, FUZZ_RUNS generated requests each, on
 * a fresh in-process app; prints what was sent and answered, and every
 * failure with the request and how to replay it. Exits non-zero on a
 * failure or broken books.
 *
 *   FUZZ_RUNS=300 npm run fuzz
 *   FUZZ_SEED=123 FUZZ_OPERATIONS='POST /api/v1/transactions/{id}/track' FUZZ_PATH='4:1:0' npm run fuzz
 *
 * FUZZ_OPERATIONS keeps the operations whose name contains it. A replay runs
 * on a fresh app, so a failure that depended on what earlier operations did
 * to the caller's transactions may need the whole run with its seed.
 */
import fc from 'fast-check'
import { describeFailure, problemWith, startApiFuzz } from '../apps/server/src/testing/api-fuzz.ts'
import { createTestApp } from '../apps/server/src/testing/test-app.ts'
import { dropIdlePostgresDatabases } from '../apps/server/src/testing/test-database.ts'
import { TestClock } from '../apps/server/src/testing/test-clock.ts'

const runs = Number(process.env.FUZZ_RUNS ?? 200)
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31)
const only = process.env.FUZZ_OPERATIONS
const replayPath = process.env.FUZZ_PATH
const print = (line = '') => process.stdout.write(`${line}\n`)

const started = performance.now()
const clock = new TestClock()
const testApp = await createTestApp({ clock })
const fuzz = await startApiFuzz(testApp, clock)
const operations = fuzz.operations.filter((operation) => !only || operation.name.includes(only))
print(`API fuzz: ${operations.length} operations, ${runs} runs each, seed ${seed}${replayPath ? `, path ${replayPath}` : ''}`)

const failures: string[] = []
for (const operation of operations) {
  const result = await fc.check(
    fc.asyncProperty(fuzz.requests(operation), async (request) => {
      const problem = problemWith(await fuzz.send(request))
      if (problem) throw new Error(problem)
    }),
    { seed, numRuns: runs, ...(replayPath ? { path: replayPath } : {}) },
  )
  if (result.failed) failures.push(describeFailure(operation, result))
  for (const request of replayPath ? [] : fuzz.malformedBodies(operation)) {
    const problem = problemWith(await fuzz.send(request))
    if (problem)
      failures.push(
        `${operation.name}: ${problem}\n    request: fixed malformed body ${JSON.stringify(request.headers)} ${JSON.stringify(String(request.payload).slice(0, 80))}`,
      )
  }
}
const seconds = (performance.now() - started) / 1000

print()
print('requests  statuses                                          operation')
const totals = new Map<number, number>()
let sent = 0
for (const operation of operations) {
  const tally = fuzz.tally.get(operation.name)
  if (!tally) continue
  sent += tally.sent
  const statuses = [...tally.statuses].sort(([a], [b]) => a - b)
  for (const [status, count] of statuses) totals.set(status, (totals.get(status) ?? 0) + count)
  print(
    `${String(tally.sent).padStart(8)}  ${statuses
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')
      .padEnd(48)}  ${operation.name}`,
  )
}
print()
print(
  `${sent} requests in ${seconds.toFixed(0)} s; statuses: ${[...totals]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ')}`,
)

let booksBroken = false
try {
  await testApp.close()
  print('ledger invariants: hold')
} catch (error) {
  booksBroken = true
  print(String(error))
}
// On PostgreSQL the closed test database is kept for a next test, which this run has not.
await dropIdlePostgresDatabases()

print(failures.length === 0 ? 'failures: none' : `failures: ${failures.length}\n${failures.join('\n')}`)
// PGlite's clone keeps the process alive after close (STACK.md): leave explicitly.
process.exit(failures.length > 0 || booksBroken ? 1 : 0)
