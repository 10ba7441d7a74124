import type { FastifyRequest } from 'fastify'

/**
 * A route's limit per signed-in person and hour (per address for a caller
 * without a token), for calls that check a password, e-mail someone or fill
 * the disk: `config: perPersonHourly('contact_us', 5)`. Counted in
 * preHandler, after authentication (onRequest) has found the person; `name`
 * keeps each route's count apart.
 */
export function perPersonHourly(name: string, max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: '1 hour',
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) => `${name}:${request.currentUser?.id ?? request.ip}`,
    },
  }
}
