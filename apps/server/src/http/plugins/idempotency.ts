import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { crashPoint } from '../../crash-points.ts'
import { AppError, fieldError } from '../../errors.ts'
import { claimKey, type IdempotencyClaim, purgeIdempotencyKeys, releaseClaim, storeAnswer } from '../../idempotency/idempotency-claims.ts'
import { findById } from '../../modules/transactions/transactions-repository.ts'
import { toAnyTransactionView, type ViewContext } from '../../modules/transactions/transaction-view.ts'
import { partnerCallerOf } from '../../modules/partner-clients/partner-caller-routes.ts'
import { userOf } from './authentication.ts'

type IdempotencyHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler (after `authenticate`) for money-moving POSTs that answer a
     * transaction: honours an `Idempotency-Key` header. A replay gets the
     * stored answer; the same key with another body is refused with 422
     * `idempotency_key_reused`; a retry after the process died mid-request
     * gets the transaction as its work left it, or has the work done once.
     */
    idempotent: IdempotencyHook
    /**
     * The same for work that is idempotent by itself (opening a payment
     * answers the payment already open): a retry after a crash runs it again.
     */
    idempotentRepeatable: IdempotencyHook
  }
  interface FastifyRequest {
    /** The key this request holds; use cases write their work onto it (TransactionDeps.idempotency). */
    idempotencyClaim: IdempotencyClaim | null
  }
}

const acceptableKey = /^[A-Za-z0-9._:-]{1,255}$/

export function registerIdempotency(app: FastifyInstance, options: Pick<ViewContext, 'policy' | 'publicUrl'>): void {
  app.decorateRequest('idempotencyClaim', null)

  const hook =
    (afterCrash: 'replay_transaction' | 'run_again'): IdempotencyHook =>
    async (request, reply) => {
      const header = request.headers['idempotency-key']
      if (header === undefined) return undefined
      const key = Array.isArray(header) ? header[0] : header
      if (!key || !acceptableKey.test(key)) {
        throw fieldError('headers.idempotency-key', 'an Idempotency-Key is 1-255 characters of letters, digits and ._:-')
      }
      const owner = keyOwnerOf(request)
      const { db, clock } = app.services
      const now = clock.now()
      const outcome = await claimKey(
        db,
        {
          userId: owner,
          key,
          route: `${request.method} ${request.routeOptions.url ?? request.url}`,
          requestHash: createHash('sha256')
            .update(JSON.stringify([request.method, request.url, request.body ?? null]))
            .digest('hex'),
        },
        now,
      )
      switch (outcome.kind) {
        case 'reused':
          throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used for a different request')
        case 'in_progress':
          throw new AppError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being handled', {
            headers: { 'retry-after': String(outcome.retryAfterSeconds) },
          })
        case 'answered':
          reply.header('idempotent-replayed', 'true')
          return reply.status(outcome.statusCode).send(outcome.body)
        case 'claimed':
          request.idempotencyClaim = outcome.claim
          return undefined
        case 'committed': {
          if (afterCrash === 'run_again') {
            request.idempotencyClaim = outcome.claim
            return undefined
          }
          // The work committed and its answer was lost with the process:
          // answer with the transaction as that work left it (or as it
          // stands since), and keep that answer for later replays.
          const row = await findById(db, outcome.transactionId)
          const asAdmin = (request.routeOptions.url ?? '').includes('/admin/')
          const body = JSON.stringify(
            toAnyTransactionView(row, { id: owner, asAdmin }, { now, policy: options.policy, publicUrl: options.publicUrl }),
          )
          const statusCode = successStatusOf(request)
          await storeAnswer(db, outcome.claim, statusCode, body)
          reply.header('idempotent-replayed', 'true')
          return reply.status(statusCode).type('application/json').send(body)
        }
      }
    }
  app.decorate('idempotent', hook('replay_transaction'))
  app.decorate('idempotentRepeatable', hook('run_again'))

  // Keep the answer for replays. After a server error the key is let go at
  // once: a retry learns from the claim whether the work had committed. A
  // 429 is let go too: a use counted beyond its limit wrote nothing, and the
  // same request is welcome again once the window has passed.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim
    if (!claim) return payload
    crashPoint('idempotency.before-store')
    const { db, clock } = app.services
    if (reply.statusCode >= 500 || reply.statusCode === 429) {
      await releaseClaim(db, claim, clock.now())
      return payload
    }
    const body = typeof payload === 'string' && isJson(payload) ? payload : null
    await storeAnswer(db, claim, reply.statusCode, body)
    return payload
  })

  const purge = setInterval(() => {
    purgeIdempotencyKeys(app.services.db, app.services.clock.now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge old idempotency keys'),
    )
  }, 3_600_000)
  purge.unref()
  app.addHook('onClose', async () => clearInterval(purge))
}

/**
 * Whose keys these are: the signed-in user's, or a partner client's (its
 * key checked by `partnerKeyFirst`), under a UUID derived from the client's
 * id: `idempotency_keys.user_id` is a uuid, and a random user id cannot
 * meet a SHA-256-derived one. A partner's replay after a crash reads the
 * transaction as someone who is no party, as the partner API shows it.
 */
function keyOwnerOf(request: FastifyRequest): string {
  const partner = partnerCallerOf(request)
  if (!partner) return userOf(request).id
  const hex = createHash('sha256').update(`partner-client:${partner.id}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** What the route answers when its work succeeds: 201 where it creates, else 200. */
function successStatusOf(request: FastifyRequest): number {
  const responses = (request.routeOptions.schema?.response ?? {}) as Record<string, unknown>
  return '201' in responses ? 201 : 200
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
