import fc from 'fast-check'
import { type JsonSchema, type SchemaContext, fuzzValue, validValue } from '../json-schema-arbitrary.ts'
import { jsonHeaders, malformedJson, multipart, multipartBody, png, wrongContentTypes } from './hostile-bodies.ts'
import type { Method, Operation } from './operations.ts'
import { fillPath, queryString, RawSegment } from './urls.ts'

/*
 * The API fuzz's requests for one operation: generated from its schemas
 * (valid and hostile values, another caller now and then, odd paths,
 * queries and headers), and a fixed set of malformed bodies.
 */

/** Who calls: the operation's intended caller most of the time, sometimes another. */
export type Caller = 'user' | 'admin' | 'anonymous'

export interface FuzzRequest {
  operation: string
  caller: Caller
  method: Method
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
}

export function requestsFor(operation: Operation, generalContext: SchemaContext): fc.Arbitrary<FuzzRequest> {
  const context = contextFor(operation, generalContext)
  const intended: Caller = operation.admin ? 'admin' : 'user'
  const caller = fc.oneof(
    { weight: 12, arbitrary: fc.constant(intended) },
    { weight: 1, arbitrary: fc.constantFrom<Caller>('anonymous', operation.admin ? 'user' : 'admin') },
  )
  const takesBody = operation.method !== 'GET' && operation.method !== 'DELETE'
  const body: fc.Arbitrary<{ payload?: string | Buffer; headers: Record<string, string> }> = operation.multipart
    ? fc.oneof({ weight: 4, arbitrary: multipartBody }, { weight: 1, arbitrary: fc.constantFrom(...malformedJson) })
    : operation.body
      ? fc.oneof(
          {
            weight: 8,
            arbitrary: fuzzValue(operation.body, context).map((value) => ({ payload: JSON.stringify(value), headers: jsonHeaders })),
          },
          { weight: 1, arbitrary: fc.constantFrom(...malformedJson, ...wrongContentTypes, { headers: {} }) },
        )
      : takesBody
        ? fc.oneof(
            { weight: 8, arbitrary: fc.constant({ headers: {} }) },
            {
              weight: 1,
              arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ payload: JSON.stringify(value), headers: jsonHeaders })),
            },
            { weight: 1, arbitrary: fc.constantFrom(...malformedJson, ...wrongContentTypes) },
          )
        : fc.constant({ headers: {} })
  // Now and then: a key reused across requests is refused (422) before the use case runs.
  const extraHeaders = fc.oneof(
    { weight: 5, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          'idempotency-key': fc.oneof(
            fc.constantFrom('fuzz-key-1', 'fuzz-key-2'),
            fc.uuid(),
            fc.constantFrom('', ' ', 'a b', 'k'.repeat(300), "' OR 1=1", '../..'),
          ),
          'x-request-id': fc.oneof(fc.uuid(), fc.constantFrom('', 'x'.repeat(500), '<script>')),
        },
        { requiredKeys: [] },
      ),
    },
  )
  return fc
    .record({
      caller,
      path: fc.oneof(
        { weight: 9, arbitrary: fuzzValue(operation.pathParameters, context) },
        // Sent as they are, not encoded: what a hand-written or hostile client puts in a path.
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '..', '.', ';', 'a;b=c', '~', '%25')
            .map((raw) => new RawSegment(raw)),
        },
      ),
      query: fuzzValue(operation.queryParameters, context),
      queryTail: fc.constantFrom('', '', '', '&', '&%', '&%zz=1', '&=x', '&a[b]=c', '&%00=1'),
      body,
      extraHeaders: takesBody ? extraHeaders : fc.constant({}),
    })
    .map(({ caller, path, query, queryTail, body, extraHeaders }) => {
      const search = queryString(query) + queryTail
      return {
        operation: operation.name,
        caller,
        method: operation.method,
        url: fillPath(operation.path, path) + (search ? `?${search.replace(/^&/, '')}` : ''),
        headers: { ...body.headers, ...extraHeaders },
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      }
    })
}

/** The sandbox provider's ids are payment intents, not transactions. */
function contextFor(operation: Operation, context: SchemaContext): SchemaContext {
  if (!operation.path.startsWith('/sandbox/v1/payment_intents/')) return context
  return { ...context, known: { ...context.known, id: context.known?.payment_intent_id ?? [] } }
}

export function malformedBodiesFor(operation: Operation, generalContext: SchemaContext): FuzzRequest[] {
  const context = contextFor(operation, generalContext)
  if (operation.method === 'GET' || operation.method === 'DELETE') return []
  const bodies = [...malformedJson, ...wrongContentTypes, { payload: Buffer.alloc(1_100_000, 'a'), headers: jsonHeaders }]
  if (operation.multipart) {
    bodies.push(
      multipart([png], { cut: 0.3 }),
      multipart([{ name: 'side', content: 'front' }]),
      multipart([png], { headerBoundary: null }),
      multipart([png, png]),
      multipart([{ ...png, content: Buffer.alloc(10_000_001, 1) }]),
    )
  }
  // Everything but the body right, the first path id the caller's own transaction.
  const typical = (parameters: JsonSchema) =>
    Object.fromEntries(
      Object.entries(parameters.properties ?? {}).map(([name, schema]) => [
        name,
        context.known?.[name]?.[0] ?? fc.sample(validValue(schema, context), { seed: 1, numRuns: 1 })[0],
      ]),
    )
  const query = queryString(typical(operation.queryParameters))
  const url = fillPath(operation.path, typical(operation.pathParameters)) + (query ? `?${query}` : '')
  return bodies.map((body) => ({
    operation: operation.name,
    caller: operation.admin ? 'admin' : 'user',
    method: operation.method,
    url,
    headers: body.headers,
    payload: body.payload,
  }))
}
