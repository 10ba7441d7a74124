import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifySchema } from 'fastify'
import { authorizationMatrix, type Outcome, type Row } from '../authorization-matrix.ts'

/*
 * What every operation in the OpenAPI document carries so that a generated
 * client is usable (issue 35, decision 115): an operationId, a description
 * saying who may call it, its security (an explicit empty one when no token
 * is asked for) and at least one 4xx answer. Derived here, in one place,
 * from the route's method and path and from the authorization matrix, so
 * that a route file only says what is particular to it.
 */

/** The prefixes every API path shares: they add nothing to a method name. */
const apiPrefixes = ['/api/v1/', '/app_api/']

/**
 * `<method><Path>`: the HTTP method in lower case, then the path's words in
 * PascalCase, without the API prefix. A path parameter in the middle of the
 * path is left out (`POST /transactions/{id}/track` → `postTransactionsTrack`);
 * one that ends or begins the path becomes `By<Name>`, which keeps an item
 * apart from its collection (`GET /transactions/{id}` → `getTransactionsById`,
 * `GET /transactions` → `getTransactions`). The name can be read back into
 * its route, does not change when a summary is reworded, and is checked for
 * uniqueness by the test of the whole document.
 */
export function operationIdFor(method: string, url: string): string {
  const prefix = apiPrefixes.find((candidate) => url.startsWith(candidate))
  const segments = (prefix ? url.slice(prefix.length) : url).split('/').filter(Boolean)
  const words = segments.flatMap((segment, index) => {
    if (!segment.startsWith(':')) return wordsOf(segment)
    return index === 0 || index === segments.length - 1 ? ['by', ...wordsOf(segment.slice(1))] : []
  })
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')
}

function wordsOf(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-.]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
}

export type SecurityRequirement = Readonly<Record<string, readonly string[]>>

/**
 * The security an operation declares, read from the authorization matrix:
 * a bearer token where an anonymous caller is refused 401, the partner API
 * key where it is the authority, and an explicit empty requirement where no
 * credential is asked for (public calls, and those whose authority is a
 * secret in the request or a provider's signature). Undefined for a route
 * the matrix does not list (its own test fails on such a route anyway).
 */
export function securityFor(routeKey: string): readonly SecurityRequirement[] | undefined {
  const row = matrixRow(routeKey)
  if (!row) return undefined
  const outcomes = new Set(Object.values(row))
  if (outcomes.has('api_key')) return [{ partnerApiKey: [] }]
  if (row.anonymous === 'unauthenticated') return [{ bearer: [] }]
  return []
}

const refusals: Partial<Record<Outcome, string>> = {
  unauthenticated: '401 `unauthenticated` without a valid bearer token',
  not_admin: '403 `not_admin` to a caller who is not an admin',
  not_found: '404 `not_found` to a caller who is not a party (nor the owner): it is not revealed to exist',
  not_buyer: '403 `not_buyer` to the seller, as this step is the buyer’s',
  not_seller: '403 `not_seller` to the buyer, as this step is the seller’s',
  forbidden: '403 `forbidden` to the party who did not make the offer: only its creator changes it',
}

/**
 * Who may call an operation and how the others are refused, in words, from
 * its row in the authorization matrix. These refusals come before the input
 * is read (decision 020), whatever the request carries.
 */
export function whoMayCall(routeKey: string): string | undefined {
  const row = matrixRow(routeKey)
  if (!row) return undefined
  const outcomes = [...new Set(Object.values(row))]
  if (outcomes.length === 1) {
    switch (outcomes[0]) {
      case 'public':
        return 'Public: answered to anyone, without signing in.'
      case 'capability':
        return 'No sign-in: the secret in the request (a link’s token or an object’s client secret) is the authority; a wrong one answers 404 `not_found` to everyone.'
      case 'api_key':
        return 'A partner client’s API key in `X-Pactum-Api-Key` is the authority, with nobody signed in; a missing or wrong key answers 401 `invalid_api_key`.'
      case 'signature':
        return 'The provider’s signature over the raw body is the authority, not a token.'
    }
  }
  const everyoneSignedIn = row.buyer === 'allowed' && row.seller === 'allowed' && row.stranger === 'allowed' && row.admin === 'allowed'
  const lead = everyoneSignedIn ? 'Any signed-in user (bearer token).' : 'A bearer token.'
  const refused = outcomes.flatMap((outcome) => refusals[outcome] ?? [])
  return `${lead} Refused before the input is read: ${refused.join('; ')}.`
}

function matrixRow(routeKey: string): Row | undefined {
  return (authorizationMatrix as Record<string, Row>)[routeKey]
}

/** The answer declared for an operation that declares no 4xx of its own. */
const anyRefusal = {
  description: 'A refusal, in the error body (this call takes no input and refuses none in normal use).',
  content: { 'application/json': { schema: errorBodySchema } },
}

type RouteSchema = FastifySchema & { hide?: boolean }

/**
 * The route's schema with what the document needs added; what the route
 * declares itself is kept (an operationId, security or 4xx answer of its own,
 * and its own description before the sentence on who may call).
 */
export function withOperationDefaults(schema: RouteSchema, method: string, url: string): RouteSchema {
  if (schema.hide) return schema
  const routeKey = `${method} ${url}`
  const who = whoMayCall(routeKey)
  const description = [schema.description, who].filter(Boolean).join('\n\n')
  const security = schema.security ?? securityFor(routeKey)
  const response = (schema.response ?? {}) as Record<string, unknown>
  const declaresRefusal = Object.keys(response).some((status) => status.startsWith('4'))
  return {
    ...schema,
    operationId: schema.operationId ?? operationIdFor(method, url),
    ...(description ? { description } : {}),
    ...(security ? { security } : {}),
    ...(declaresRefusal ? {} : { response: { ...response, '4XX': anyRefusal } }),
  }
}

/**
 * The document without the component schemas no operation uses. The zod
 * transform registers every named schema twice (`X` for answers, `XInput`
 * for requests); a generated client would get a type for each unused one.
 */
export function withoutUnusedSchemas<T extends object>(document: T): T {
  const components = (document as { components?: { schemas?: Record<string, unknown> } }).components
  const schemas = components?.schemas
  if (!schemas) return document
  const used = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length)
        if (!used.has(name)) {
          used.add(name)
          visit(schemas[name])
        }
      } else {
        visit(value)
      }
    }
  }
  visit({ ...document, components: { ...components, schemas: {} } })
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)))
  return { ...document, components: { ...components, schemas: kept } }
}

/** What each status means across the API, for answers whose route names no description of its own. */
const statusDescriptions: Record<string, string> = {
  '200': 'Done; the answer below',
  '201': 'Created; the answer is what was made',
  '202': 'Accepted; the work goes on after this answer',
  '204': 'Done; no body',
  '400': 'The input is not valid: `code` says why, `details.field` names the field',
  '401': 'No valid bearer token or API key',
  '403': 'Signed in, but not allowed this call: `code` says why',
  '404': 'No such resource, or none the caller may see (another user’s answers the same)',
  '409': 'Refused in the resource’s present state: `code` names the refusal',
  '410': 'Gone: the link or code has expired or was used',
  '413': 'The body or file is larger than this call takes',
  '415': 'The body’s media type is not one this call takes',
  '422': 'The Idempotency-Key was used before with another request (`idempotency_key_reused`)',
  '429': 'Too many requests: try again after `Retry-After` seconds',
}

/**
 * The document with each answer the routes left undescribed ("Default
 * Response", @fastify/swagger's placeholder) described by its status, so
 * that a generated client's docs say what a 409 or a 429 means.
 */
export function withResponseDescriptions<T extends object>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> }).paths
  for (const item of Object.values(paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (answer.description === 'Default Response' && statusDescriptions[status]) answer.description = statusDescriptions[status]
      }
    }
  }
  return document
}
