import { errorBodySchema, errorStatus } from '@pactum/contracts/errors'
import fc from 'fast-check'
import { apiCaller, partyTokens } from './api-caller.ts'
import { depositAccepted, joinedF2fSale, createF2fSale } from './f2f-sale-steps.ts'
import { tinyPng } from './identity-upload.ts'
import { fuzzValue, type JsonSchema, type SchemaContext, validValue } from './json-schema-arbitrary.ts'
import { createSale, joinedSale, payByCard } from './sale-steps.ts'
import type { TestApp } from './test-app.ts'
import type { TestClock } from './test-clock.ts'

/*
 * A schema-driven fuzz of every operation in the server's OpenAPI document
 * (issue 10): requests generated from each operation's JSON schemas, valid
 * and hostile, sent in-process; every answer must be below 500, and every
 * refusal in the documented error shape. Shared by api-fuzz.test.ts (short,
 * in `npm test`) and bench/api-fuzz.ts (long, `npm run fuzz`).
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Operation {
  /** `POST /api/v1/transactions/{id}/track`, as the document names it. */
  name: string
  method: Method
  path: string
  pathParameters: JsonSchema
  queryParameters: JsonSchema
  body: JsonSchema | undefined
  /** The document says the operation takes multipart/form-data (identity uploads). */
  multipart: boolean
  signedIn: boolean
  admin: boolean
}

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

export interface FuzzAnswer {
  status: number
  body: string
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { schemas: Record<string, JsonSchema> }
}

interface OpenApiOperation {
  parameters?: Array<{ in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema }>
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  security?: unknown[]
  description?: string
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? []
      const parametersIn = (place: 'path' | 'query'): JsonSchema => {
        const listed = parameters.filter((parameter) => parameter.in === place)
        return {
          type: 'object',
          properties: Object.fromEntries(listed.map((parameter) => [parameter.name, parameter.schema])),
          required: listed.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        }
      }
      const content = operation.requestBody?.content ?? {}
      const unexpected = Object.keys(content).filter((type) => type !== 'application/json')
      if (unexpected.length > 0) throw new Error(`${method} ${path}: request body of type ${unexpected.join(', ')} is not fuzzed yet`)
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Method,
        path,
        pathParameters: parametersIn('path'),
        queryParameters: parametersIn('query'),
        body: content['application/json']?.schema,
        multipart: operation.description?.includes('multipart/form-data') ?? false,
        signedIn: (operation.security?.length ?? 0) > 0,
        admin: path.startsWith('/api/v1/admin/'),
      })
    }
  }
  return operations
}

export interface ApiFuzz {
  operations: Operation[]
  /** Requests for one operation, from its schemas and the real values below. */
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
  const payload = request?.payload === undefined ? '' : ` ${truncated(typeof request.payload === 'string' ? request.payload : `<${request.payload.length} bytes: ${request.payload.toString('latin1')}>`)}`
  const shown = request ? `${request.caller} ${request.method} ${truncated(request.url)} ${JSON.stringify(request.headers)}${payload}` : 'no request'
  const problem = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)
  return `${operation.name}: ${problem}\n    request: ${shown}\n    replay: { seed: ${result.seed}, path: "${result.counterexamplePath}" }`
}

function truncated(text: string): string {
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…(${text.length} characters)` : text)
}

/**
 * The caller's transactions, and values only a real caller knows, by the
 * name of the property or parameter that carries them.
 */
async function makeTransactions(testApp: TestApp): Promise<Record<string, unknown[]>> {
  const tokens = await partyTokens(testApp.tokenFor, { user: {}, buyer: {}, stranger: {} })
  // The fuzzed user sells in some transactions and buys in others.
  const asSeller = apiCaller(testApp.app, { seller: tokens.user, buyer: tokens.buyer })
  const asBuyer = apiCaller(testApp.app, { seller: tokens.stranger, buyer: tokens.user })
  const strangers = apiCaller(testApp.app, { seller: tokens.stranger, buyer: tokens.buyer })

  const sold = await joinedSale(asSeller)
  const { intentId, clientSecret } = await payByCard(asSeller, sold.id)
  const bought = await joinedSale(asBuyer)
  const soldF2f = await joinedF2fSale(asSeller)
  await depositAccepted(asSeller, soldF2f.id)
  const boughtF2f = await joinedF2fSale(asBuyer)
  const ownOpen = await createSale(asSeller)
  const othersOpen = await createSale(strangers)
  const othersOpenF2f = await createF2fSale(strangers)
  const othersJoined = await joinedSale(strangers)
  // Bank linking is for users in the US.
  await asSeller('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'us' })
  const linkToken = await asSeller('seller', 'GET', '/api/v1/me/plaid/link_token')
  if (linkToken.status !== 200) throw new Error(`no link token: ${JSON.stringify(linkToken.body)}`)
  // Payments the user has opened and not yet confirmed with the provider.
  const openPayment = (await asBuyer('buyer', 'POST', `/api/v1/transactions/${bought.id}/pay`)).body
  const openDeposit = (await asBuyer('buyer', 'POST', `/api/v1/p2p/transactions/${boughtF2f.id}/pay_deposit`)).body

  const ids = [sold.id, bought.id, soldF2f.id, boughtF2f.id, ownOpen.id, othersOpen.id, othersOpenF2f.id, othersJoined.id]
  return {
    id: ids,
    after_id: ids,
    code: [ownOpen.joinCode, othersOpen.joinCode, othersOpenF2f.joinCode],
    join_code: [ownOpen.joinCode, othersOpen.joinCode, othersOpenF2f.joinCode],
    payment_intent_id: [intentId, openPayment.payment_intent_id, openDeposit.payment_intent_id],
    client_secret: [clientSecret, openPayment.client_secret, openDeposit.client_secret],
    link_token: [linkToken.body.link_token],
    price: [sold.quote.price],
    charge: [sold.quote.charge],
    charge_calculator_version: [sold.quote.charge_calculator_version],
    deposit_price: [soldF2f.quote.price],
    deposit_charge: [soldF2f.quote.charge],
    currency: ['eur'],
    carrier: ['dhl', 'royal-mail'],
    card_number: ['4242424242424242', '4000000000000002'],
    country_code: ['de', 'us', 'ie'],
    // GET /me/batch: the first screen's reads, and ones with a bad query passed on to their route.
    get: [
      ['/me/transactions?limit=50', '/me/personal', '/me/personal/payout_requirements', '/me/guided_tour', '/me'],
      ['/me/transactions?limit=0&filter=%00', '/me/guided_tour'],
      [`/me/transactions?after_id=${ids[0]}`],
    ],
  }
}

const jsonHeaders = { 'content-type': 'application/json' }

function requestsFor(operation: Operation, generalContext: SchemaContext): fc.Arbitrary<FuzzRequest> {
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
          { weight: 8, arbitrary: fuzzValue(operation.body, context).map((value) => ({ payload: JSON.stringify(value), headers: jsonHeaders })) },
          { weight: 1, arbitrary: fc.constantFrom(...malformedJson, ...wrongContentTypes, { headers: {} }) },
        )
      : takesBody
        ? fc.oneof(
            { weight: 8, arbitrary: fc.constant({ headers: {} }) },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ payload: JSON.stringify(value), headers: jsonHeaders })) },
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
          'idempotency-key': fc.oneof(fc.constantFrom('fuzz-key-1', 'fuzz-key-2'), fc.uuid(), fc.constantFrom('', ' ', 'a b', 'k'.repeat(300), "' OR 1=1", '../..')),
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
        { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '..', '.', ';', 'a;b=c', '~', '%25').map((raw) => new RawSegment(raw)) },
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

class RawSegment {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** The sandbox provider's ids are payment intents, not transactions. */
function contextFor(operation: Operation, context: SchemaContext): SchemaContext {
  if (!operation.path.startsWith('/sandbox/v1/payment_intents/')) return context
  return { ...context, known: { ...context.known, id: context.known?.payment_intent_id ?? [] } }
}

/** Path parameters into the path; a value that is not an object of them (hostile) fills every one. */
function fillPath(path: string, values: unknown): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (values instanceof RawSegment) return values.text
    const value = isRecord(values) ? values[name] : values
    return encodeURIComponent(asText(value))
  })
}

function queryString(values: unknown): string {
  if (values === undefined) return ''
  if (!isRecord(values)) return encodeURIComponent(asText(values))
  const pairs: string[] = []
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue
    if (value === null) pairs.push(encodeURIComponent(name))
    else if (Array.isArray(value)) for (const item of value) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(asText(item))}`)
    else pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(asText(value))}`)
  }
  return pairs.join('&')
}

/** As a client would put a value into a URL: text as it is, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  return typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : JSON.stringify(value)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// `encodeURIComponent` refuses lone surrogates; a client's library would send U+FFFD.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const encodeURIComponent = (text: string): string => globalThis.encodeURIComponent(text.replace(loneSurrogate, '\uFFFD'))

const malformedJson: Array<{ payload: string; headers: Record<string, string> }> = [
  '{', '{"a":', '{"price": 12,}', "{'single': 'quotes'}", 'nul', '', ' ', 'null', '[]', '"text"', '12', 'true',
  '{"price": 1e999}', '{"price": -0}', '{"price": 123456789012345678901234567890}', '{"description": "\\ud800"}',
  '{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {"admin": true}}}', '{"a": 1, "a": 2}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`, '\uFEFF{}', '{"description": "\u0000"}',
].map((payload) => ({ payload, headers: jsonHeaders }))

const wrongContentTypes: Array<{ payload: string; headers: Record<string, string> }> = [
  { payload: '{"price": 100}', headers: { 'content-type': 'text/plain' } },
  { payload: '<price>100</price>', headers: { 'content-type': 'application/xml' } },
  { payload: 'price=100&currency=eur&description=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { payload: 'price[a]=1&price=2&__proto__[x]=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { payload: '{"price": 100}', headers: { 'content-type': 'application/json; charset=latin1' } },
  { payload: '{"price": 100}', headers: { 'content-type': 'multipart/form-data' } },
  { payload: '{"price": 100}', headers: { 'content-type': '' } },
  { payload: '{"price": 100}', headers: { 'content-type': 'application/json, text/plain' } },
]

/**
 * A multipart/form-data body, written by hand so that it can be made wrong
 * in every way a client or an attacker might: parts missing, repeated,
 * mislabelled, cut short, over the limits.
 */
function multipart(parts: Array<{ name: string; fileName?: string; type?: string; content: string | Buffer }>, options: { boundary?: string; cut?: number; headerBoundary?: string | null } = {}) {
  const boundary = options.boundary ?? 'fuzzboundary'
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`
    const type = part.type === undefined ? '' : `\r\nContent-Type: ${part.type}`
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.content), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  const whole = Buffer.concat(chunks)
  const headerBoundary = options.headerBoundary === undefined ? boundary : options.headerBoundary
  return {
    payload: options.cut === undefined ? whole : whole.subarray(0, Math.floor(whole.length * options.cut)),
    headers: { 'content-type': headerBoundary === null ? 'multipart/form-data' : `multipart/form-data; boundary=${headerBoundary}` },
  }
}

const png = { name: 'file', fileName: 'passport.png', type: 'image/png', content: tinyPng }

const multipartBody = fc
  .record({
    side: fc.option(fc.oneof(fc.constantFrom('front', 'back'), fc.constantFrom('', 'FRONT', 'side\u0000', 'x'.repeat(200), '😀'))),
    file: fc.oneof(
      fc.constant(png),
      fc.constantFrom(
        { ...png, content: Buffer.alloc(0) },
        { ...png, content: 'not an image at all', type: 'text/plain', fileName: 'notes.txt' },
        { ...png, content: '%PDF-1.4 cut short' },
        { ...png, fileName: '../../etc/passwd' },
        { ...png, fileName: 'nul\u0000.png' },
        { ...png, fileName: '' },
        { ...png, name: 'document' },
        { ...png, content: tinyPng.subarray(0, 20) },
      ),
    ),
    extra: fc.constantFrom([], [{ name: 'file', fileName: 'second.png', type: 'image/png', content: tinyPng }], [{ name: 'side', content: 'back' }, { name: 'side', content: 'front' }], [{ name: 'x', content: 'y' }, { name: 'z', content: 'w' }, { name: 'v', content: 'u' }, { name: 'w', content: 'v' }]),
    shape: fc.constantFrom<Parameters<typeof multipart>[1]>({}, {}, {}, { cut: 0.5 }, { cut: 0.95 }, { headerBoundary: 'another' }, { headerBoundary: null }, { boundary: '' }),
  })
  .map(({ side, file, extra, shape }) => multipart([...(side === null ? [] : [{ name: 'side', content: side }]), file, ...extra], shape))

function malformedBodiesFor(operation: Operation, generalContext: SchemaContext): FuzzRequest[] {
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
      Object.entries(parameters.properties ?? {}).map(([name, schema]) => [name, context.known?.[name]?.[0] ?? fc.sample(validValue(schema, context), { seed: 1, numRuns: 1 })[0]]),
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
