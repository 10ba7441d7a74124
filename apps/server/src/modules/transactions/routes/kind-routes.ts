import { errorBodySchema } from '@pactum/contracts/errors'
import {
  anyTransactionListOrSummariesSchema,
  anyTransactionSchema,
  type CreateF2fTransactionBody,
  createF2fTransactionBodySchema,
  f2fTransactionListOrSummariesSchema,
  f2fTransactionSchema,
} from '@pactum/contracts/f2f-transactions'
import {
  type CreateTransactionBody,
  createTransactionBodySchema,
  listTransactionsQuerySchema,
  partyDetailsSchema,
  shippingDetailsSchema,
} from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { knownClientId } from '../../partner-clients/known-client.ts'
import { type CreateDeps, createF2fTransactionFor, createTransaction } from '../create-transaction.ts'
import type { CurrentUser } from '../../sign-in/users.ts'
import { pendingInvitationFor, pendingInvitationOf } from '../../guests/guest-invitations.ts'
import { partyDetails, shippingDetails } from '../transaction-details.ts'
import type { TransactionDeps } from '../engine/apply-event.ts'
import { toAnyTransactionView, toTransactionSummary, type ViewContext } from '../transaction-view.ts'
import { listForUser, listSummariesForUser } from '../transactions-repository.ts'
import { userOf } from '../../../http/plugins/authentication.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'
import { checkAfterId, idParams, perUserLimit, transactionErrors } from './route-parts.ts'

/**
 * What each kind's routes differ in beyond its prefix: the online paths
 * reach transactions of both kinds (the list and one transaction), the
 * face-to-face ones only their own; and each kind is created from its body
 * (checked against that kind's schema before `use` sees it).
 */
const kindSpecifics = {
  online: {
    reach: undefined,
    one: { schema: anyTransactionSchema, summary: 'One of my transactions, of either kind' },
    list: { schema: anyTransactionListOrSummariesSchema, summary: 'My transactions of both kinds, newest first' },
    create: {
      body: createTransactionBodySchema,
      summary: 'Create an online transaction as buyer or seller',
      use: (createDeps: CreateDeps, user: CurrentUser, body: unknown, clientId: string | null) =>
        createTransaction(createDeps, user, body as CreateTransactionBody, clientId),
    },
    addresses: ['shipping', 'billing'],
  },
  f2f: {
    reach: 'f2f',
    one: { schema: f2fTransactionSchema, summary: 'One of my face-to-face transactions' },
    list: { schema: f2fTransactionListOrSummariesSchema, summary: 'My face-to-face transactions, newest first' },
    create: {
      body: createF2fTransactionBodySchema,
      summary: 'Create a face-to-face transaction with its deposit, as buyer or seller',
      use: (createDeps: CreateDeps, user: CurrentUser, body: unknown, clientId: string | null) =>
        createF2fTransactionFor(createDeps, user, body as CreateF2fTransactionBody, clientId),
    },
    addresses: ['billing'],
  },
} as const

/**
 * Spec §7's calls that both kinds have (create, list, get, the parties'
 * details and the buyer's address), registered once for each kind.
 * Thin: each hands over to one use case.
 */
export function kindRoutesPlugin(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })
    for (const kind of transactionKinds) {
      const { prefix, tag, view } = kindRoutes[kind]
      const { reach, one, list, create, addresses } = kindSpecifics[kind]
      const secured = { security: [{ bearer: [] }], tags: [tag] }

      app.post(
        `${prefix}/me/transactions`,
        {
          onRequest: app.authenticate,
          // The creator's hourly limit is counted by the create itself (create-transaction.ts), in its own write.
          preHandler: app.idempotent,
          schema: {
            ...secured,
            summary: create.summary,
            body: create.body,
            querystring: z.object({ client_id: z.string().max(64).optional() }),
            response: { 201: kindRoutes[kind].schema, ...transactionErrors, 429: errorBodySchema },
          },
        },
        async (request, reply) => {
          const user = userOf(request)
          const createDeps = { ...deps(), idempotency: request.idempotencyClaim, config: app.services.config, mailer: app.services.mailer }
          const clientId = await knownClientId(app.services.db, request.query.client_id)
          const row = await create.use(createDeps, user, request.body, clientId)
          // Only a sale created with an invitation has one to show: no read for the others.
          const invited = 'counterparty_email' in request.body && request.body.counterparty_email
          const invitation = invited ? await pendingInvitationFor(app.services.db, row, user.id) : null
          return reply.status(201).send(view(row, user, context(), { invitation }))
        },
      )

      app.get(
        `${prefix}/me/transactions`,
        {
          onRequest: app.authenticate,
          preHandler: perUserLimit(app, 'list_reads'),
          schema: {
            ...secured,
            summary: list.summary,
            querystring: listTransactionsQuerySchema,
            response: { 200: list.schema, ...transactionErrors, 429: errorBodySchema },
          },
        },
        async (request) => {
          const user = userOf(request)
          const { after_id: afterId, limit, filter, search, view: shape } = request.query
          checkAfterId(afterId)
          const query = { userId: user.id, limit, afterId, filter, search, ...(reach ? { kind: reach } : {}) }
          // The replica once it holds everything committed before this request, the user's own last action included.
          return app.services.replicaReads.read(async (db) => {
            // Each row carries the lister's unread messages, counted in the page's own statement.
            if (shape === 'summary')
              return (await listSummariesForUser(db, query)).map((row) => toTransactionSummary(row, user, row.unread_messages ?? 0))
            return (await listForUser(db, query)).map((row) =>
              toAnyTransactionView(row, user, context(), { unreadMessages: row.unread_messages ?? 0 }),
            )
          })
        },
      )

      app.get(
        `${prefix}/transactions/:id`,
        {
          onRequest: app.authenticate,
          schema: { ...secured, summary: one.summary, params: idParams, response: { 200: one.schema, ...transactionErrors } },
        },
        async (request) => {
          const user = userOf(request)
          const { row, unclaimedInvitation, unreadMessages } = await app.services.transactionReads.findForParty(
            request.params.id,
            user.id,
            reach,
          )
          return toAnyTransactionView(row, user, context(), {
            invitation: pendingInvitationOf(row, user.id, unclaimedInvitation),
            unreadMessages,
          })
        },
      )

      for (const party of ['seller', 'buyer'] as const) {
        app.get(
          `${prefix}/transactions/:id/${party}_details`,
          {
            onRequest: app.authenticate,
            schema: {
              ...secured,
              summary: `The ${party}’s name and e-mail (null until they joined)`,
              params: idParams,
              response: { 200: partyDetailsSchema, ...transactionErrors },
            },
          },
          async (request) => partyDetails(app.services.db, userOf(request), request.params.id, party),
        )
      }

      for (const address of addresses) {
        app.get(
          `${prefix}/transactions/:id/${address}_details`,
          {
            onRequest: app.authenticate,
            schema: {
              ...secured,
              summary: `The buyer’s ${address} address as given at checkout`,
              params: idParams,
              response: { 200: shippingDetailsSchema, ...transactionErrors },
            },
          },
          async (request) => shippingDetails(app.services.db, userOf(request), request.params.id),
        )
      }
    }
  }
}
