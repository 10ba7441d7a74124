import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiFuzz, describeFailure, problemWith, startApiFuzz } from '../testing/api-fuzz.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { TestClock } from '../testing/test-clock.ts'

/*
 * Every operation of the OpenAPI document, called with requests generated
 * from its schemas (testing/api-fuzz.ts). A short run with a fixed seed, so
 * that `npm test` is repeatable; `npm run fuzz` runs the same generators
 * for longer with fresh seeds.
 */
const runsPerOperation = 40
const seed = 20_261_124

let testApp: TestApp
let fuzz: ApiFuzz

beforeAll(async () => {
  const clock = new TestClock()
  testApp = await createTestApp({ clock })
  fuzz = await startApiFuzz(testApp, clock)
})

// One app for the whole file (a fresh one per operation would cost more than the fuzz); its close checks the ledger.
afterAll(async () => {
  await testApp?.close()
})

describe('every operation of the API, fuzzed from its schemas', () => {
  it('covers the whole document', () => {
    expect(fuzz.operations.length).toBeGreaterThan(80)
    expect(fuzz.operations.filter((operation) => operation.multipart).map((operation) => operation.name)).toEqual([
      'POST /api/v1/me/personal/{document}',
      'POST /api/v1/transactions/{id}/messages',
      'POST /api/v1/p2p/transactions/{id}/messages',
    ])
  })

  it('never answers 5xx, and refuses bad input in the documented error shape naming the field', { timeout: 300_000 }, async () => {
    const failures: string[] = []
    for (const operation of fuzz.operations) {
      const result = await fc.check(
        fc.asyncProperty(fuzz.requests(operation), async (request) => {
          const problem = problemWith(await fuzz.send(request))
          if (problem) throw new Error(problem)
        }),
        { seed, numRuns: runsPerOperation },
      )
      if (result.failed) failures.push(describeFailure(operation, result))
    }
    expect(failures.join('\n')).toBe('')
  })

  it(
    'refuses broken JSON, wrong content types and broken multipart bodies on every POST, PUT and PATCH',
    { timeout: 300_000 },
    async () => {
      const failures: string[] = []
      for (const operation of fuzz.operations) {
        for (const request of fuzz.malformedBodies(operation)) {
          const problem = problemWith(await fuzz.send(request))
          if (problem)
            failures.push(
              `${request.method} ${request.url} ${JSON.stringify(request.headers)} ${JSON.stringify(String(request.payload).slice(0, 40))}: ${problem}`,
            )
        }
      }
      expect(failures.join('\n')).toBe('')
    },
  )
})
