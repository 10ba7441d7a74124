import type { FastifyInstance, FastifyRequest } from 'fastify'
import { usageLimit, useWithinLimit } from '../../usage-limits.ts'
import { apiKeyHeader, clientOfApiKey } from './partner-api-key.ts'

export interface PartnerCaller {
  id: string
  name: string
}

/**
 * The partner behind a `/partner/…` call: its API key checked, and the call
 * counted against the client's own pace (PARTNER_REQUESTS_PER_MINUTE).
 */
export async function partnerClientOf(app: FastifyInstance, request: FastifyRequest): Promise<PartnerCaller> {
  const { db, clock, config } = app.services
  const client = await clientOfApiKey(db, request.headers[apiKeyHeader] as string | undefined)
  await useWithinLimit(db, clock.now(), usageLimit(config.limits, 'partner_requests'), `client:${client.id}`)
  return client
}

const checkedCallers = new WeakMap<FastifyRequest, PartnerCaller>()

/**
 * A preParsing hook for calls with a body or path parameters: the key is
 * checked (and counted) before the input is read, as a bearer token is, and
 * after the rate limit's own onRequest hook, so wrong keys are counted too.
 * The handler then reads the client with `checkedPartnerOf`.
 */
export function partnerKeyFirst(app: FastifyInstance) {
  return async <Payload>(request: FastifyRequest, _reply: unknown, payload: Payload): Promise<Payload> => {
    checkedCallers.set(request, await partnerClientOf(app, request))
    return payload
  }
}

/** The client `partnerKeyFirst` checked for this request. */
export function checkedPartnerOf(request: FastifyRequest): PartnerCaller {
  const caller = partnerCallerOf(request)
  if (!caller) throw new Error('the route checks no partner key: add partnerKeyFirst as its preParsing hook')
  return caller
}

/** The same, or undefined on a route that takes no partner key. */
export function partnerCallerOf(request: FastifyRequest): PartnerCaller | undefined {
  return checkedCallers.get(request)
}

/** Wrong keys are counted per address (no one is signed in); a right one per client, by `partnerClientOf`. */
export const apiKeyRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute', hook: 'onRequest' as const } }

export const partnerSecured = { security: [{ partnerApiKey: [] }], tags: ['partner'] }
