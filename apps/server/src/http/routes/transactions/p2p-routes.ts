import { errorBodySchema } from '@pactum/contracts/errors'
import {
  cancelWithDescriptionBodySchema,
  createF2fTransactionBodySchema,
  f2fJoinPreviewSchema,
  f2fTransactionListOrSummariesSchema,
  f2fTransactionSchema,
  remainderChargeQuerySchema,
  setPriceBodySchema,
  updateF2fTransactionBodySchema,
} from '@pactum/contracts/f2f-transactions'
import {
  chargeQuerySchema,
  chargeQuoteSchema,
  confirmPaymentBodySchema,
  descriptionBodySchema,
  joinCodeQuerySchema,
  listTransactionsQuerySchema,
  partyDetailsSchema,
  payResponseSchema,
  setPaymentMethodBodySchema,
  shippingDetailsSchema,
} from '@pactum/contracts/transactions'
import type { PaymentMethod } from '@pactum/domain/currencies'
import type { F2fEvent } from '@pactum/domain/transactions/f2f-transaction'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { answerListingSale } from '../../../services/listings/answer-listing-sale.ts'
import { actAsParty } from '../../../services/transactions/act-as-party.ts'
import { createF2fTransactionFor } from '../../../services/transactions/create-transaction.ts'
import { pendingInvitationFor, pendingInvitationOf, resendInvitation } from '../../../services/transactions/guest-invitations.ts'
import { joinTransaction, previewF2fJoin, rejectTransaction } from '../../../services/transactions/join-transaction.ts'
import { confirmPayment, openPaymentIntent, type PaymentDeps, type PaymentPart, pay, setPaymentMethod } from '../../../services/transactions/pay.ts'
import { quoteOrRefuse } from '../../../services/transactions/quote.ts'
import { setRemainderPrice } from '../../../services/transactions/set-remainder-price.ts'
import { partyDetails, shippingDetails } from '../../../services/transactions/transaction-details.ts'
import { toF2fTransactionView, toTransactionSummary, type ViewContext } from '../../../transactions/transaction-view.ts'
import { findForParty, listForUser, listSummariesForUser } from '../../../transactions/transactions-repository.ts'
import { f2fChange, updateTransaction } from '../../../services/transactions/update-transaction.ts'
import { userOf } from '../../plugins/authentication.ts'
import { checkAfterId, idParams, joinRateLimit, perUserLimit, transactionErrors } from './route-parts.ts'
import { toQuoteView } from './quote-view.ts'
import { knownClientId } from '../../../services/known-client.ts'

const errors = transactionErrors
const codeParams = z.object({ code: z.string().trim().min(1).max(32) })
const secured = { security: [{ bearer: [] }], tags: ['face-to-face'] }

/**
 * The face-to-face calls of spec §7 under /p2p: create, update, get, list,
 * join by code, fee quotes for the deposit and the remainder, the deposit
 * and remainder payments, and the parties' steps. Thin: each hands over to
 * one use case, and every change goes through the one transaction engine.
 */
export function p2pRoutes(deps: () => PaymentDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.get(
      '/p2p/charge',
      { schema: { tags: ['face-to-face'], summary: 'Fee quote for a deposit (public)', querystring: chargeQuerySchema, response: { 200: chargeQuoteSchema, 400: errorBodySchema } } },
      async (request) =>
        toQuoteView(quoteOrRefuse({ price: request.query.price, currency: request.query.currency, paymentMethod: request.query.payment_method })),
    )

    app.get(
      '/p2p/transactions/:id/charge',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Fee quote for the remainder of a total price (price is the total, deposit included)',
          params: idParams,
          querystring: remainderChargeQuerySchema,
          response: { 200: chargeQuoteSchema, ...errors },
        },
      },
      async (request) => {
        const row = await findForParty(app.services.db, request.params.id, userOf(request).id, 'f2f')
        const paymentMethod = request.query.payment_method ?? (row.payment_method as PaymentMethod | null) ?? 'card'
        const remainder = quoteOrRefuse({ price: request.query.price - row.price, currency: row.currency, paymentMethod })
        // The body names the total, as the caller did; the charge is the remainder's.
        return { ...toQuoteView(remainder), price: request.query.price }
      },
    )

    app.post(
      '/p2p/me/transactions',
      {
        onRequest: app.authenticate,
        preHandler: [perUserLimit(app, 'transaction_creates'), app.idempotent],
        schema: {
          ...secured,
          summary: 'Create a face-to-face transaction with its deposit, as buyer or seller',
          body: createF2fTransactionBodySchema,
          querystring: z.object({ client_id: z.string().max(64).optional() }),
          response: { 201: f2fTransactionSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const user = userOf(request)
        const row = await createF2fTransactionFor({ ...deps(), idempotency: request.idempotencyClaim, config: app.services.config, mailer: app.services.mailer }, user, request.body, await knownClientId(app.services.db, request.query.client_id))
        return reply.status(201).send(toF2fTransactionView(row, user, context(), { invitation: await pendingInvitationFor(app.services.db, row, user.id) }))
      },
    )

    app.get(
      '/p2p/me/transactions',
      {
        onRequest: app.authenticate,
        preHandler: perUserLimit(app, 'list_reads'),
        schema: { ...secured, summary: 'My face-to-face transactions, newest first', querystring: listTransactionsQuerySchema, response: { 200: f2fTransactionListOrSummariesSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        const { after_id: afterId, limit, filter, search, view } = request.query
        checkAfterId(afterId)
        const query = { userId: user.id, limit, afterId, filter, search, kind: 'f2f' as const }
        if (view === 'summary') return (await listSummariesForUser(app.services.db, query)).map((row) => toTransactionSummary(row, user))
        return (await listForUser(app.services.db, query)).map((row) => toF2fTransactionView(row, user, context()))
      },
    )

    app.get(
      '/p2p/transactions/:id',
      { onRequest: app.authenticate, schema: { ...secured, summary: 'One of my face-to-face transactions', params: idParams, response: { 200: f2fTransactionSchema, ...errors } } },
      async (request) => {
        const user = userOf(request)
        const { row, unclaimedInvitation } = await app.services.transactionReads.findForParty(request.params.id, user.id, 'f2f')
        return toF2fTransactionView(row, user, context(), { invitation: pendingInvitationOf(row, user.id, unclaimedInvitation) })
      },
    )

    app.post(
      '/p2p/transactions/:id/resend_invitation',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Send the e-mail invitation again with a new link (creator, while unclaimed; at most once a minute, within the invitation limits)',
          params: idParams,
          response: { 200: f2fTransactionSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request) => {
        const user = userOf(request)
        const row = await resendInvitation({ ...deps(), mailer: app.services.mailer, publicUrl: app.services.config.publicUrl, limits: app.services.config.limits.invitations }, user, request.params.id, 'f2f')
        return toF2fTransactionView(row, user, context(), { invitation: await pendingInvitationFor(app.services.db, row, user.id) })
      },
    )

    app.patch(
      '/p2p/transactions/:id',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Change the description, currency or deposit before anyone joined (creator)',
          params: idParams,
          body: updateF2fTransactionBodySchema,
          response: { 200: f2fTransactionSchema, ...errors },
        },
      },
      async (request) => {
        const user = userOf(request)
        const row = await updateTransaction({ ...deps(), config: app.services.config }, user, request.params.id, 'f2f', f2fChange(request.body))
        return toF2fTransactionView(row, user, context())
      },
    )

    app.get(
      '/p2p/transactions_by_join_code/:code',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Preview the face-to-face transaction behind a join code', params: codeParams, response: { 200: f2fJoinPreviewSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => previewF2fJoin(app.services.db, userOf(request), request.params.code),
    )

    app.post(
      '/p2p/transactions_by_join_code/:code/join',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Join as the other party', params: codeParams, response: { 200: f2fTransactionSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        return toF2fTransactionView(await joinTransaction(deps(), user, request.params.code, 'f2f'), user, context())
      },
    )

    app.post(
      '/p2p/transactions/:id/reject',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Decline a face-to-face transaction offered by join code', params: idParams, body: joinCodeQuerySchema, response: { 200: f2fTransactionSchema, ...errors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        return toF2fTransactionView(await rejectTransaction(deps(), user, request.params.id, request.body.join_code, 'f2f'), user, context())
      },
    )

    app.post(
      '/p2p/transactions/:id/set_deposit_payment_method',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Choose how the deposit (and the remainder) is paid; reprices the deposit', params: idParams, body: setPaymentMethodBodySchema, response: { 200: f2fTransactionSchema, ...errors } },
      },
      async (request) => {
        const user = userOf(request)
        return toF2fTransactionView(await setPaymentMethod({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, 'f2f', request.body.payment_method), user, context())
      },
    )

    const payment = (part: Exclude<PaymentPart, 'payment'>) => {
      app.post(
        `/p2p/transactions/:id/pay_${part}`,
        {
          onRequest: app.authenticate,
        preHandler: app.idempotentRepeatable,
          schema: { ...secured, summary: `Open the payment of the ${part} and its fee (buyer)`, params: idParams, response: { 200: payResponseSchema, ...errors } },
        },
        async (request) => {
          const { row, intent } = await pay({ ...deps(), idempotency: request.idempotencyClaim }, userOf(request), request.params.id, part)
          return { payment_intent_id: intent.id, client_secret: intent.clientSecret, charge: chargeOf(row, part) }
        },
      )
      app.get(
        `/p2p/transactions/:id/${part}_stripe_client_secret`,
        {
          onRequest: app.authenticate,
          schema: { ...secured, summary: `The open payment of the ${part} again`, params: idParams, response: { 200: payResponseSchema, ...errors } },
        },
        async (request) => {
          const { row, intent } = await openPaymentIntent(deps(), userOf(request), request.params.id, part)
          return { payment_intent_id: intent.id, client_secret: intent.clientSecret, charge: chargeOf(row, part) }
        },
      )
    }
    payment('deposit')
    payment('remainder')

    app.post(
      '/p2p/transactions/:id/confirm_payment',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Tell the server the browser confirmed the deposit or remainder payment', params: idParams, body: confirmPaymentBodySchema, response: { 200: f2fTransactionSchema, ...errors } },
      },
      async (request) => {
        const user = userOf(request)
        return toF2fTransactionView(await confirmPayment({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, 'f2f', request.body.payment_intent_id), user, context())
      },
    )

    app.post(
      '/p2p/transactions/:id/set_price',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Set the total price; the buyer then pays the remainder (seller)', params: idParams, body: setPriceBodySchema, response: { 200: f2fTransactionSchema, ...errors } },
      },
      async (request) => {
        const user = userOf(request)
        return toF2fTransactionView(await setRemainderPrice({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, request.body), user, context())
      },
    )

    const partyAction = <B extends z.ZodType | undefined>(
      path: string,
      summary: string,
      body: B,
      toEvent: (body: B extends z.ZodType ? z.infer<B> : undefined) => F2fEvent,
    ) =>
      app.post(
        `/p2p/transactions/:id/${path}`,
        {
          onRequest: app.authenticate,
        preHandler: app.idempotent,
          schema: { ...secured, summary, params: idParams, ...(body ? { body } : {}), response: { 200: f2fTransactionSchema, ...errors } },
        },
        async (request) => {
          const user = userOf(request)
          const event = toEvent(request.body as B extends z.ZodType ? z.infer<B> : undefined)
          return toF2fTransactionView(await actAsParty({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, event, 'f2f'), user, context())
        },
      )

    for (const answer of ['accept', 'reject'] as const) {
      app.post(
        `/p2p/transactions/:id/${answer}_listing_transaction`,
        {
          onRequest: app.authenticate,
          preHandler: app.idempotent,
          schema: {
            ...secured,
            summary: answer === 'accept' ? 'Accept the buyer of a purchase from my listing (seller)' : 'Reject a purchase from my listing (seller)',
            params: idParams,
            response: { 200: f2fTransactionSchema, ...errors },
          },
        },
        async (request) => {
          const user = userOf(request)
          const row = await answerListingSale({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, answer, 'f2f')
          return toF2fTransactionView(row, user, context())
        },
      )
    }
    partyAction('accept_deposit', 'Accept the deposit (seller)', undefined, () => ({ type: 'accept_deposit' }))
    partyAction('skip_remainder', 'Nothing more is paid through Pactum (seller)', undefined, () => ({ type: 'skip_remainder' }))
    partyAction('confirm_handover', 'Confirm the item was handed over (seller; the buyer too)', undefined, () => ({ type: 'confirm_handover' }))
    partyAction('end_complaint_period', 'Release the money now, giving up the rest of the complaint window (buyer)', undefined, () => ({
      type: 'end_complaint_period',
    }))
    partyAction('complain', 'Complain within the complaint window (buyer)', descriptionBodySchema, (body) => ({ type: 'complain', description: body.description }))
    partyAction('accept_complaint', 'Accept the complaint and refund the buyer (seller)', undefined, () => ({ type: 'accept_complaint' }))
    partyAction(
      'cancel_with_description',
      'Cancel (the creator before joining; either party until the remainder is paid; after the deposit the buyer gets it back less its fee)',
      cancelWithDescriptionBodySchema,
      (body) => ({ type: 'cancel', description: body.description }),
    )

    for (const party of ['seller', 'buyer'] as const) {
      app.get(
        `/p2p/transactions/:id/${party}_details`,
        {
          onRequest: app.authenticate,
          schema: { ...secured, summary: `The ${party}’s name and e-mail (null until they joined)`, params: idParams, response: { 200: partyDetailsSchema, ...errors } },
        },
        async (request) => partyDetails(app.services.db, userOf(request), request.params.id, party),
      )
    }
    app.get(
      '/p2p/transactions/:id/billing_details',
      {
        onRequest: app.authenticate,
        schema: { ...secured, summary: 'The buyer’s billing address as given at checkout', params: idParams, response: { 200: shippingDetailsSchema, ...errors } },
      },
      async (request) => shippingDetails(app.services.db, userOf(request), request.params.id),
    )
  }
}

/** The fee of the part being paid, as the buyer was shown it. */
function chargeOf(row: { charge: number; remainder_charge: number | null }, part: Exclude<PaymentPart, 'payment'>): number {
  return part === 'deposit' ? row.charge : (row.remainder_charge ?? 0)
}
