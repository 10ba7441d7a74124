import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../../errors.ts'
import { uuidPattern } from '../../../ids.ts'
import { type UsageReason, usageLimit, useWithinLimit } from '../../../usage-limits.ts'
import { userOf } from '../../../http/plugins/authentication.ts'

/** What the transaction routes of both kinds share: error answers, the id parameter, limits. */

export const transactionErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
}

export const idParams = z.object({ id: z.string() })

/**
 * Join codes are guessable secrets: look-ups are rate-limited per signed-in
 * user. Counted after authentication (the preHandler hook), so that the key
 * is the user, never an address a proxy header could change.
 */
export const joinRateLimit = {
  rateLimit: {
    max: 20,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (request: { currentUser: { id: string } | null; ip: string }) => request.currentUser?.id ?? request.ip,
  },
}

/**
 * A signed-in user's pace on one kind of call (usage-limits.ts): a
 * preHandler, so after authentication, keyed by the user. Put it before
 * the idempotency claim, so that a refused call claims no key.
 */
export function perUserLimit(app: FastifyInstance, reason: UsageReason) {
  return async (request: FastifyRequest): Promise<void> => {
    const { db, clock, config } = app.services
    await useWithinLimit(db, clock.now(), usageLimit(config.limits, reason), `user:${userOf(request).id}`)
  }
}

/** Keyset paging: `after_id` must be the id of a transaction (or of what else the list holds) from the previous page. */
export function checkAfterId(afterId: string | undefined, of: 'transaction' | 'message' = 'transaction'): void {
  if (afterId !== undefined && !uuidPattern.test(afterId)) {
    throw new AppError('invalid_after_id', `after_id must be the id of a ${of} from the previous page`, {
      details: { field: 'after_id' },
    })
  }
}
