import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'

/**
 * The sandbox's own browser pages and calls (the card form, the P24 bank,
 * the Identity page) in a scope of their own, with the rate limiter.
 */
export async function sandboxPageScope(plain: FastifyInstance) {
  const scope = plain.withTypeProvider<ZodTypeProvider>()
  if (!scope.hasDecorator('rateLimit')) await scope.register(rateLimit, { global: false })
  return scope
}

/** Per object and address: enough for a person retrying, too few to try client secrets. */
export const perObjectAndAddress = {
  max: 20,
  timeWindow: '1 minute',
  keyGenerator: (request: { ip: string; params: unknown }) => `${request.ip}:${(request.params as { id?: string }).id ?? ''}`,
}
