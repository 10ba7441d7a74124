import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { crashPoint } from '../../crash-points.ts'
import { AppError } from '../../errors.ts'
import { userOf } from './authentication.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler (after `authenticate`) for money-moving POSTs: honours an
     * `Idempotency-Key` header. A replay gets the stored answer; the same key
     * with another body is refused with 422 `idempotency_key_reused`.
     */
    idempotent: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>
  }
  interface FastifyRequest {
    idempotencyKey: { userId: string; key: string } | null
  }
}

const acceptableKey = /^[A-Za-z0-9._:-]{1,255}$/

export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotencyKey', null)

  app.decorate('idempotent', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key']
    if (header === undefined) return undefined
    const key = Array.isArray(header) ? header[0] : header
    if (!key || !acceptableKey.test(key)) {
      throw new AppError('validation_failed', 'Idempotency-Key: 1-255 characters of letters, digits and ._:-', {
        details: { fields: [{ field: 'headers.idempotency-key' }] },
      })
    }
    const user = userOf(request)
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`
    const requestHash = createHash('sha256')
      .update(JSON.stringify([request.method, request.url, request.body ?? null]))
      .digest('hex')
    const { db, clock } = app.services
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ user_id: user.id, key, route, request_hash: requestHash, created_at: clock.now(), response_body: null })
      .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst()
    if (claimed) {
      request.idempotencyKey = { userId: user.id, key }
      return undefined
    }
    const stored = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('key', '=', key)
      .executeTakeFirstOrThrow()
    if (stored.request_hash !== requestHash) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used for a different request')
    }
    if (stored.status_code === null) {
      throw new AppError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being handled', {
        headers: { 'retry-after': '1' },
      })
    }
    reply.header('idempotent-replayed', 'true')
    return reply.status(stored.status_code).send(stored.response_body)
  })

  // Keep the answer for replays; a server error frees the key so a retry can run again.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyKey
    if (!claim) return payload
    crashPoint('idempotency.before-store')
    const query = app.services.db
    if (reply.statusCode >= 500) {
      await query.deleteFrom('idempotency_keys').where('user_id', '=', claim.userId).where('key', '=', claim.key).execute()
      return payload
    }
    const body = typeof payload === 'string' ? payload : null
    await query
      .updateTable('idempotency_keys')
      .set({ status_code: reply.statusCode, response_body: body && isJson(body) ? body : null })
      .where('user_id', '=', claim.userId)
      .where('key', '=', claim.key)
      .execute()
    return payload
  })
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
