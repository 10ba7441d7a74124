import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../errors.ts'
import { adminOf } from '../../http/plugins/authentication.ts'
import { findOutboxRow } from '../notifications/outbox-delivery-repository.ts'
import { jobEffectScheduler } from '../transactions/transaction-jobs.ts'

const outboxRetrySchema = z
  .object({
    id: z.string(),
    status: z.string().meta({ description: '`sent` when the provider had accepted it already (nothing was sent again)' }),
    requeued: z.boolean(),
  })
  .meta({ id: 'OutboxRetry' })

/**
 * An outbox call whose job gave up (20 failed attempts) stays pending with
 * its last error (docs/operations.md, "Outbox failing"). Once the cause is
 * mended, an admin sends it again: the same job with the same idempotency
 * key, so the provider answers its first result rather than moving money
 * twice. A row already sent is left alone.
 */
export const adminOutboxRetryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/outbox/:id/retry',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Sends a pending outbox call (a transfer, refund or reversal) to the payment provider again, with its idempotency key',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid() }),
        response: { 200: outboxRetrySchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const admin = adminOf(request)
      const { db, jobs } = app.services
      const row = await findOutboxRow(db, request.params.id)
      if (!row) throw new AppError('not_found', 'No such outbox call')
      if (row.status === 'sent') return { id: row.id, status: row.status, requeued: false }
      await jobEffectScheduler(jobs).dispatchOutbox(db, row.id)
      request.log.warn({ outboxId: row.id, action: row.action, adminId: admin.id }, 'an admin sent an outbox call again')
      return { id: row.id, status: row.status, requeued: true }
    },
  )
}
