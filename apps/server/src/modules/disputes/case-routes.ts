import { caseSchema } from '@pactum/contracts/disputes'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AppError } from '../../errors.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { kindRoutes, transactionKinds } from '../transactions/routes/kinds.ts'
import { idParams, transactionErrors } from '../transactions/routes/route-parts.ts'
import { findForParty } from '../transactions/transactions-repository.ts'
import { toCaseView } from './case-view.ts'

/** GET …/case for both kinds: a party reads the case a complaint opened; others are answered 404. */
export function caseRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    for (const kind of transactionKinds) {
      const { prefix, tag } = kindRoutes[kind]
      app.get(
        `${prefix}/transactions/:id/case`,
        {
          onRequest: app.authenticate,
          schema: {
            security: [{ bearer: [] }],
            tags: [tag],
            summary: 'The case the complaint opened: its deadlines, the settlement offers and the outcome (either party)',
            params: idParams,
            response: { 200: caseSchema, ...transactionErrors },
          },
        },
        async (request) => {
          const row = await findForParty(app.services.db, request.params.id, userOf(request).id, kind)
          const view = toCaseView(row)
          if (view === null) throw new AppError('not_found', 'No complaint was made on this transaction')
          return view
        },
      )
    }
  }
}
