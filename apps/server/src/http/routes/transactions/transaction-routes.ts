import { errorBodySchema } from '@pactum/contracts/errors'
import {
  chargeQuerySchema,
  chargeQuoteSchema,
  createTransactionBodySchema,
  descriptionBodySchema,
  joinCodeQuerySchema,
  joinPreviewSchema,
  joinQuerySchema,
  listTransactionsQuerySchema,
  trackBodySchema,
  transactionChargeQuerySchema,
  transactionSchema,
} from '@pactum/contracts/transactions'
import { anyTransactionListOrSummariesSchema, anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import type { OnlineEvent } from '@pactum/domain/transactions/online-transaction'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { answerListingSale } from '../../../services/listings/answer-listing-sale.ts'
import { actAsParty } from '../../../services/transactions/act-as-party.ts'
import type { TransactionDeps } from '../../../transactions/apply-event.ts'
import { createTransaction } from '../../../services/transactions/create-transaction.ts'
import { pendingInvitationFor, pendingInvitationOf, resendInvitation } from '../../../services/transactions/guest-invitations.ts'
import { joinTransaction, previewJoin, rejectTransaction } from '../../../services/transactions/join-transaction.ts'
import { quoteOrRefuse } from '../../../services/transactions/quote.ts'
import { trackShipment } from '../../../services/transactions/track-shipment.ts'
import { toAnyTransactionView, toTransactionSummary, toTransactionView, type ViewContext } from '../../../transactions/transaction-view.ts'
import { findForParty, listForUser, listSummariesForUser } from '../../../transactions/transactions-repository.ts'
import { userOf } from '../../plugins/authentication.ts'
import { checkAfterId, idParams, joinRateLimit, perUserLimit, transactionErrors } from './route-parts.ts'
import { toQuoteView } from './quote-view.ts'
import { knownClientId } from '../../../services/known-client.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['transactions'] }

/**
 * The online transaction calls of spec §7 (create, join, list, get, and the
 * parties' actions). Thin: each hands over to one use case.
 */
export function transactionRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.get(
      '/charge',
      { schema: { tags: ['transactions'], summary: 'Fee quote (public)', querystring: chargeQuerySchema, response: { 200: chargeQuoteSchema, 400: errorBodySchema } } },
      async (request) =>
        toQuoteView(quoteOrRefuse({ price: request.query.price, currency: request.query.currency, paymentMethod: request.query.payment_method })),
    )

    app.get(
      '/transactions/:id/charge',
      {
        onRequest: app.authenticate,
        schema: { ...secured, summary: 'Fee quote for a new price or method of this transaction', params: idParams, querystring: transactionChargeQuerySchema, response: { 200: chargeQuoteSchema, ...errors } },
      },
      async (request) => {
        const row = await findForParty(app.services.db, request.params.id, userOf(request).id, 'online')
        return toQuoteView(quoteOrRefuse({ price: request.query.price, currency: row.currency, paymentMethod: request.query.payment_method }))
      },
    )

    app.post(
      '/me/transactions',
      {
        onRequest: app.authenticate,
        preHandler: [perUserLimit(app, 'transaction_creates'), app.idempotent],
        schema: {
          ...secured,
          summary: 'Create an online transaction as buyer or seller',
          body: createTransactionBodySchema,
          querystring: z.object({ client_id: z.string().max(64).optional() }),
          response: { 201: transactionSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const user = userOf(request)
        const row = await createTransaction({ ...deps(), idempotency: request.idempotencyClaim, config: app.services.config, mailer: app.services.mailer }, user, request.body, await knownClientId(app.services.db, request.query.client_id))
        // Only a sale created with an invitation has one to show: no read for the others.
        const invitation = request.body.counterparty_email ? await pendingInvitationFor(app.services.db, row, user.id) : null
        return reply.status(201).send(toTransactionView(row, user, context(), { invitation }))
      },
    )

    app.get(
      '/me/transactions',
      {
        onRequest: app.authenticate,
        preHandler: perUserLimit(app, 'list_reads'),
        schema: { ...secured, summary: 'My transactions of both kinds, newest first', querystring: listTransactionsQuerySchema, response: { 200: anyTransactionListOrSummariesSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        const { after_id: afterId, limit, filter, search, view } = request.query
        checkAfterId(afterId)
        const query = { userId: user.id, limit, afterId, filter, search }
        if (view === 'summary') return (await listSummariesForUser(app.services.db, query)).map((row) => toTransactionSummary(row, user))
        return (await listForUser(app.services.db, query)).map((row) => toAnyTransactionView(row, user, context()))
      },
    )

    app.get(
      '/transactions/:id',
      { onRequest: app.authenticate, schema: { ...secured, summary: 'One of my transactions, of either kind', params: idParams, response: { 200: anyTransactionSchema, ...errors } } },
      async (request) => {
        const user = userOf(request)
        const { row, unclaimedInvitation } = await app.services.transactionReads.findForParty(request.params.id, user.id)
        return toAnyTransactionView(row, user, context(), { invitation: pendingInvitationOf(row, user.id, unclaimedInvitation) })
      },
    )

    app.get(
      '/transactions',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Preview the transaction behind a join code', querystring: joinCodeQuerySchema, response: { 200: joinPreviewSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => previewJoin(app.services.db, userOf(request), request.query.join_code),
    )

    app.put(
      '/transactions',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Join as the other party (optionally stating the terms shown)', querystring: joinQuerySchema, response: { 200: transactionSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        const { join_code: code, ...expected } = request.query
        return toTransactionView(await joinTransaction(deps(), user, code, 'online', expected), user, context())
      },
    )

    app.post(
      '/transactions/:id/reject',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Decline a transaction offered by join code', params: idParams, body: joinCodeQuerySchema, response: { 200: transactionSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        return toTransactionView(await rejectTransaction(deps(), user, request.params.id, request.body.join_code, 'online'), user, context())
      },
    )

    const partyAction = <B extends z.ZodType | undefined>(
      path: string,
      summary: string,
      body: B,
      toEvent: (body: B extends z.ZodType ? z.infer<B> : undefined) => OnlineEvent,
    ) =>
      app.post(
        `/transactions/:id/${path}`,
        {
          onRequest: app.authenticate,
        preHandler: app.idempotent,
          schema: { ...secured, summary, params: idParams, ...(body ? { body } : {}), response: { 200: transactionSchema, ...errors } },
        },
        async (request) => {
          const user = userOf(request)
          const event = toEvent(request.body as B extends z.ZodType ? z.infer<B> : undefined)
          return toTransactionView(await actAsParty({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, event, 'online'), user, context())
        },
      )

    for (const answer of ['accept', 'reject'] as const) {
      app.post(
        `/transactions/:id/${answer}_listing_transaction`,
        {
          onRequest: app.authenticate,
          preHandler: app.idempotent,
          schema: {
            ...secured,
            summary: answer === 'accept' ? 'Accept the buyer of a purchase from my listing (seller)' : 'Reject a purchase from my listing (seller)',
            params: idParams,
            response: { 200: transactionSchema, ...errors },
          },
        },
        async (request) => {
          const user = userOf(request)
          const row = await answerListingSale({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, answer, 'online')
          return toTransactionView(row, user, context())
        },
      )
    }
    app.post(
      '/transactions/:id/resend_invitation',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Send the e-mail invitation again with a new link (creator, while unclaimed; at most once a minute, within the invitation limits)',
          params: idParams,
          response: { 200: transactionSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request) => {
        const user = userOf(request)
        const row = await resendInvitation({ ...deps(), mailer: app.services.mailer, publicUrl: app.services.config.publicUrl, limits: app.services.config.limits.invitations }, user, request.params.id, 'online')
        return toTransactionView(row, user, context(), { invitation: await pendingInvitationFor(app.services.db, row, user.id) })
      },
    )
    partyAction('cancel', 'Cancel (creator before joining; either party before paying; the seller after payment refunds the buyer)', undefined, () => ({ type: 'cancel' }))
    app.post(
      '/transactions/:id/track',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Add the carrier and tracking code (seller)', params: idParams, body: trackBodySchema, response: { 200: transactionSchema, ...errors } },
      },
      async (request) => {
        const user = userOf(request)
        const shipment = { carrier: request.body.carrier, trackingCode: request.body.tracking_code.toUpperCase() }
        return toTransactionView(await trackShipment({ ...deps(), idempotency: request.idempotencyClaim, carrierTracker: app.services.carrierTracker }, user, request.params.id, shipment), user, context())
      },
    )
    partyAction('confirm_delivery', 'Confirm the item arrived (buyer)', undefined, () => ({ type: 'confirm_delivery' }))
    partyAction('complain_with_description', 'Complain within the complaint window (buyer)', descriptionBodySchema, (body) => ({
      type: 'complain',
      description: body.description,
    }))
    partyAction('submit_order_issue', 'Report a problem with the order before it ships (buyer)', descriptionBodySchema, (body) => ({
      type: 'submit_order_issue',
      description: body.description,
    }))
    partyAction('end_complaint_period', 'Release the money now, giving up the rest of the complaint window (buyer)', undefined, () => ({
      type: 'end_complaint_period',
    }))
    partyAction('accept_complaint', 'Accept the complaint and refund the buyer (seller)', undefined, () => ({ type: 'accept_complaint' }))
  }
}
