import { errorBodySchema } from '@pactum/contracts/errors'
import { catalogue, type KindRoute, type TransactionActionEntry, type TransactionActionName } from '@pactum/contracts/transaction-actions'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actAsParty } from '../act-as-party.ts'
import type { PaymentDeps } from '../pay.ts'
import type { ViewContext } from '../transaction-view.ts'
import { userOf } from '../../../http/plugins/authentication.ts'
import { type ActionCall, type ActionOutcome, actionUseCases, type UseCaseActionName } from './action-use-cases.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'
import { idParams, joinRateLimit, transactionErrors } from './route-parts.ts'

/**
 * Every action of the catalogue (`@pactum/contracts/transaction-actions`)
 * that answers with the transaction, for both kinds, in one loop: the kind's
 * prefix, the entry's body schema, its idempotency and limit, and the kind's
 * view. An action with a domain event goes to the one writer as the caller;
 * the others to their use case (`action-use-cases.ts`).
 */
export function actionRoutes(deps: () => PaymentDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const useCases = actionUseCases(app, deps)
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })
    const perform = (name: TransactionActionName, entry: TransactionActionEntry, call: ActionCall): Promise<ActionOutcome> => {
      const { event } = entry
      if (!event) return useCases[name as UseCaseActionName](call)
      const body = call.body as Parameters<typeof event>[0]
      const params = call.params as Parameters<typeof event>[1]
      return actAsParty({ ...deps(), idempotency: call.idempotency }, call.user, call.id, event(body, params), call.kind).then((row) => ({
        row,
      }))
    }

    for (const [name, entry] of catalogue) {
      if (entry.answers !== 'transaction') continue
      for (const kind of transactionKinds) {
        const route = entry[kind]
        if (!route) continue
        const { prefix, schema, view } = kindRoutes[kind]
        app.route({
          method: entry.method ?? 'POST',
          url: `${prefix}/transactions/:id${route.path ? `/${route.path}` : ''}`,
          onRequest: app.authenticate,
          ...guards(app, entry),
          schema: {
            security: [{ bearer: [] }],
            tags: [tagOf(kind, route)],
            summary: route.summary,
            params: route.params ?? idParams,
            ...(route.body ? { body: route.body } : {}),
            response: { 200: schema, ...transactionErrors, ...(entry.limit ? { 429: errorBodySchema } : {}) },
          },
          handler: async (request) => {
            const user = userOf(request)
            const call = {
              user,
              id: (request.params as { id: string }).id,
              kind,
              body: request.body,
              params: request.params,
              idempotency: request.idempotencyClaim,
            }
            const { row, invitation } = await perform(name, entry, call)
            return view(row, user, context(), invitation === undefined ? {} : { invitation })
          },
        })
      }
    }
  }
}

/** The entry's idempotency hook and join-code rate limit. */
function guards(app: FastifyInstance, entry: TransactionActionEntry) {
  return {
    ...(entry.idempotency === 'key'
      ? { preHandler: app.idempotent }
      : entry.idempotency === 'repeatable'
        ? { preHandler: app.idempotentRepeatable }
        : {}),
    ...(entry.limit === 'join_code' ? { config: joinRateLimit } : {}),
  }
}

function tagOf(kind: TransactionKind, route: KindRoute): string {
  return route.tag ?? kindRoutes[kind].tag
}
