import type { FastifyInstance, FastifyRequest } from 'fastify'
import { usageLimit, useWithinLimit } from '../../usage-limits.ts'
import { apiKeyHeader, clientOfApiKey } from './partner-api-key.ts'

/**
 * The partner behind a `/partner/…` call: its API key checked, and the call
 * counted against the client's own pace (PARTNER_REQUESTS_PER_MINUTE).
 */
export async function partnerClientOf(app: FastifyInstance, request: FastifyRequest): Promise<{ id: string; name: string }> {
  const { db, clock, config } = app.services
  const client = await clientOfApiKey(db, request.headers[apiKeyHeader] as string | undefined)
  await useWithinLimit(db, clock.now(), usageLimit(config.limits, 'partner_requests'), `client:${client.id}`)
  return client
}

/** Wrong keys are counted per address (no one is signed in); a right one per client, by `partnerClientOf`. */
export const apiKeyRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute', hook: 'onRequest' as const } }

export const partnerSecured = { security: [{ partnerApiKey: [] }], tags: ['partner'] }
