import { errorBodySchema, errorStatus } from '@pactum/contracts/errors'
import type fc from 'fast-check'
import type { SchemaContext } from './json-schema-arbitrary.ts'
import type { TestApp } from './test-app.ts'
import type { TestClock } from './test-clock.ts'
import { makeTransactions } from './api-fuzz/known-values.ts'
import { type OpenApiDocument, type Operation, operationsOf } from './api-fuzz/operations.ts'
import { type FuzzRequest, malformedBodiesFor, requestsFor } from './api-fuzz/requests.ts'

/*
 * A schema-driven fuzz of every operation in the server's OpenAPI document
 * (issue 10): requests generated from each operation's JSON schemas, valid
 * and hostile, sent in-process; every answer must be below 500, and every
 * refusal in the documented error shape. Shared by api-fuzz.test.ts (short,
 * in `npm test`) and bench/api-fuzz.ts (long, `npm run fuzz`). This file
 * sends and judges; api-fuzz/ reads the operations, makes the real values
 * and generates the requests.
 */

export interface FuzzAnswer {
  status: number
  body: string
}

export interface ApiFuzz {
  operations: Operation[]
  /** Requests for one operation, from its schemas and the real values (api-fuzz/known-values.ts). */
  requests(operation: Operation): fc.Arbitrary<FuzzRequest>
  /** Fixed malformed bodies (wrong content type, broken JSON, broken multipart) for an operation that takes a body. */
  malformedBodies(operation: Operation): FuzzRequest[]
  send(request: FuzzRequest): Promise<FuzzAnswer>
  /** Requests sent and statuses answered, by operation. */
  tally: Map<string, { sent: number; statuses: Map<number, number> }>
}

/**
 * Reads the document from the app, makes the caller's transactions (so that
 * path ids sometimes point at real ones) and gets ready to fuzz. The app
 * must run on `clock`: a 429 moves it past the rate limit's window, so that
 * the rest of the run still reaches the operation.
 */
export async function startApiFuzz(testApp: TestApp, clock: TestClock): Promise<ApiFuzz> {
  const { app } = testApp
  const document = (await app.inject({ url: '/api/docs/json' })).json() as OpenApiDocument
  const operations = operationsOf(document)
  const known = await makeTransactions(testApp)
  const tokens = { user: await testApp.tokenFor('user@example.com'), admin: await testApp.tokenFor('admin@example.com', { admin: true }) }
  const context: SchemaContext = {
    resolve: (ref) => {
      const schema = document.components.schemas[ref.replace('#/components/schemas/', '')]
      if (!schema) throw new Error(`no schema ${ref}`)
      return schema
    },
    known,
  }
  const tally: ApiFuzz['tally'] = new Map()

  return {
    operations,
    tally,
    requests: (operation) => requestsFor(operation, context),
    malformedBodies: (operation) => malformedBodiesFor(operation, context),
    send: async (request) => {
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: { ...(request.caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens[request.caller]}` }), ...request.headers },
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      })
      const counts = tally.get(request.operation) ?? { sent: 0, statuses: new Map<number, number>() }
      counts.sent += 1
      counts.statuses.set(response.statusCode, (counts.statuses.get(response.statusCode) ?? 0) + 1)
      tally.set(request.operation, counts)
      if (response.statusCode === 429) await clock.moveBy(Number(response.headers['retry-after'] ?? 3600) + 1)
      return { status: response.statusCode, body: response.body }
    },
  }
}

/**
 * What is wrong with an answer, or null: never a 5xx; every 4xx in the
 * documented shape, with a code whose documented status it is; a
 * validation_failed names the field (`body.price`), and its text starts
 * with that name.
 */
export function problemWith(answer: FuzzAnswer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.slice(0, 300)}`
  if (answer.status < 400) return null
  let body: unknown
  try {
    body = JSON.parse(answer.body)
  } catch {
    return `answered ${answer.status} with a body that is not JSON: ${answer.body.slice(0, 300)}`
  }
  const parsed = errorBodySchema.safeParse(body)
  if (!parsed.success) return `answered ${answer.status} outside the error shape: ${answer.body.slice(0, 300)}`
  const { code, error, details } = parsed.data
  if (errorStatus[code] !== answer.status) return `answered ${answer.status} with code ${code}, documented as ${errorStatus[code]}`
  if (code === 'validation_failed' && answer.status === 400) {
    const fields = details?.fields
    const field: unknown = Array.isArray(fields) ? (fields[0] as { field?: unknown } | undefined)?.field : undefined
    if (typeof field !== 'string' || !/^(body|querystring|params|headers)(\.|$)/.test(field)) {
      return `validation_failed without details.fields[0].field naming the input: ${answer.body.slice(0, 300)}`
    }
    if (!error.startsWith(field)) return `validation_failed for ${field} whose text does not start with it: ${answer.body.slice(0, 300)}`
  }
  return null
}

/** One line per failed property: what was wrong, the request that showed it, and how to replay it. */
export function describeFailure(operation: Operation, result: fc.RunDetails<[FuzzRequest]>): string {
  const request = result.counterexample?.[0]
  const payload =
    request?.payload === undefined
      ? ''
      : ` ${truncated(typeof request.payload === 'string' ? request.payload : `<${request.payload.length} bytes: ${request.payload.toString('latin1')}>`)}`
  const shown = request
    ? `${request.caller} ${request.method} ${truncated(request.url)} ${JSON.stringify(request.headers)}${payload}`
    : 'no request'
  const problem = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)
  return `${operation.name}: ${problem}\n    request: ${shown}\n    replay: { seed: ${result.seed}, path: "${result.counterexamplePath}" }`
}

function truncated(text: string): string {
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…(${text.length} characters)` : text)
}
