import { errorBodySchema } from '@pactum/contracts/errors'
import { anyJoinPreviewSchema, f2fJoinPreviewSchema } from '@pactum/contracts/f2f-transactions'
import { joinCodeQuerySchema, joinQuerySchema, type JoinExpectedTerms } from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { joinTransaction, previewF2fJoin, previewJoin } from '../join-transaction.ts'
import type { TransactionDeps } from '../engine/apply-event.ts'
import type { ViewContext } from '../transaction-view.ts'
import { userOf } from '../../../http/plugins/authentication.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'
import { joinRateLimit, transactionErrors } from './route-parts.ts'

const codeParams = z.object({ code: z.string().trim().min(1).max(32) })

/**
 * Where each kind takes its join code (spec §7): an online sale's in the
 * query of `/transactions` (the join may state the terms the person saw),
 * a face-to-face sale's in the path.
 */
const byCode = {
  online: {
    preview: {
      method: 'GET',
      url: '/transactions',
      input: { querystring: joinCodeQuerySchema },
      summary: 'Preview the transaction of either kind behind a join code (`type` says which)',
      schema: anyJoinPreviewSchema,
      read: previewJoin,
    },
    join: {
      method: 'PUT',
      url: '/transactions',
      input: { querystring: joinQuerySchema },
      summary: 'Join as the other party (optionally stating the terms shown)',
    },
  },
  f2f: {
    preview: {
      method: 'GET',
      url: '/p2p/transactions_by_join_code/:code',
      input: { params: codeParams },
      summary: 'Preview the face-to-face transaction behind a join code',
      schema: f2fJoinPreviewSchema,
      read: previewF2fJoin,
    },
    join: {
      method: 'POST',
      url: '/p2p/transactions_by_join_code/:code/join',
      input: { params: codeParams },
      summary: 'Join as the other party',
    },
  },
} as const

/** The code and, online, the terms the person saw, from wherever this kind carries them. */
function codeAndTerms(request: { query: unknown; params: unknown }): { code: string; expected: JoinExpectedTerms } {
  const params = request.params as { code?: string }
  if (params.code !== undefined) return { code: params.code, expected: {} }
  const { join_code: code, ...expected } = request.query as { join_code: string } & JoinExpectedTerms
  return { code, expected }
}

/**
 * The counterparty's preview and join by code, for both kinds; rate-limited
 * per user, since codes are guessable. Declining is the catalogue action
 * `reject`.
 */
export function joinRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })
    for (const kind of transactionKinds) {
      const { tag, schema, view } = kindRoutes[kind]
      const { preview, join } = byCode[kind]
      const secured = { security: [{ bearer: [] }], tags: [tag] }
      app.route({
        method: preview.method,
        url: preview.url,
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: {
          ...secured,
          summary: preview.summary,
          ...preview.input,
          response: { 200: preview.schema, ...transactionErrors, 429: errorBodySchema },
        },
        handler: async (request) => preview.read(app.services.db, userOf(request), codeAndTerms(request).code),
      })
      app.route({
        method: join.method,
        url: join.url,
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: join.summary, ...join.input, response: { 200: schema, ...transactionErrors, 429: errorBodySchema } },
        handler: async (request) => {
          const user = userOf(request)
          const { code, expected } = codeAndTerms(request)
          return view(await joinTransaction(deps(), user, code, kind, expected), user, context())
        },
      })
    }
  }
}
