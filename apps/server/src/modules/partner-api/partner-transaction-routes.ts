import { anyStatusSchema } from '@pactum/contracts/admin'
import { errorBodySchema } from '@pactum/contracts/errors'
import { anyTransactionListSchema, anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import { partnerGuestTransactionBodySchema, partnerGuestTransactionSchema } from '@pactum/contracts/guest-transactions'
import {
  type PartnerTransactionCreated,
  partnerTransactionBodySchema,
  partnerTransactionCreatedSchema,
} from '@pactum/contracts/partner-transactions'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../errors.ts'
import {
  apiKeyRateLimit,
  checkedPartnerOf,
  partnerClientOf,
  partnerKeyFirst,
  partnerSecured,
} from '../partner-clients/partner-caller-routes.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import { checkAfterId } from '../transactions/routes/route-parts.ts'
import { toAnyTransactionView, type ViewContext } from '../transactions/transaction-view.ts'
import { clientTransaction, clientTransactions } from './partner-transactions-repository.ts'
import { cancelPartnerTransaction } from './cancel-partner-transaction.ts'
import { createPartnerTransaction } from './create-partner-transaction.ts'

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema }
// 422: an Idempotency-Key used before for another request.
const createErrors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema, 429: errorBodySchema }
const cancelErrors = { ...errors, 409: errorBodySchema, 422: errorBodySchema }

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  after_id: z.string().max(100).optional().meta({ description: 'the last id of the previous page' }),
  status: anyStatusSchema.optional(),
})

/**
 * A partner reads the transactions made under its client (issue 35 #3),
 * as the webhooks carry them: the view of someone who is neither party
 * (no join code, no actions). Another client's answer 404, as none.
 * It creates them on behalf of its users, by e-mail, and calls off one
 * that nobody has paid (docs/decisions/116-partner-creates-and-cancels.md).
 */
export function partnerTransactionRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })
    const partnerView = { id: '' }

    // An Idempotency-Key makes a retry answer as the first call did (http/plugins/idempotency.ts), keyed per client.
    const createOptions = {
      config: apiKeyRateLimit,
      preParsing: partnerKeyFirst(app),
      preHandler: app.idempotent,
    }
    const create = async (request: FastifyRequest, body: Parameters<typeof createPartnerTransaction>[2]) => {
      const { row, invited } = await createPartnerTransaction(
        { ...deps(), idempotency: request.idempotencyClaim, config: app.services.config, mailer: app.services.mailer },
        checkedPartnerOf(request),
        body,
      )
      const created: PartnerTransactionCreated = {
        ...toAnyTransactionView(row, partnerView, context()),
        seller_email: invited.seller,
        buyer_email: invited.buyer,
        join_code: row.join_code,
      }
      return { row, created }
    }

    app.post(
      '/partner/transactions',
      {
        ...createOptions,
        schema: {
          ...partnerSecured,
          summary: 'Create a transaction on behalf of the seller, the buyer or both, invited by e-mail',
          description:
            'Each invited party gets an e-mail with their own claim link and takes their place once signed in. ' +
            'With one party invited, the other takes theirs with the answer’s `join_code` (show it on your site). ' +
            'The answer is the transaction as `GET /partner/transactions/{id}` shows it, with the invited addresses and the code. ' +
            'Invitations count against your invitation limits (429 `too_many_invitations`, `too_many_invitations_to_recipient`); ' +
            'an address whose owner stopped invitations answers 409 `invitations_stopped_by_recipient`.',
          body: partnerTransactionBodySchema,
          response: { 201: partnerTransactionCreatedSchema, ...createErrors },
        },
      },
      async (request, reply) => reply.status(201).send((await create(request, request.body)).created),
    )

    app.post(
      '/partner/guest_transactions',
      {
        ...createOptions,
        schema: {
          ...partnerSecured,
          summary: 'Create a transaction for two guests (both invited by e-mail): POST /partner/transactions with both e-mails',
          description:
            'Kept for the integrations that use it: the same call as `POST /partner/transactions` with `seller_email` and ' +
            '`buyer_email` both required, answering the fields it always answered.',
          body: partnerGuestTransactionBodySchema,
          response: { 201: partnerGuestTransactionSchema, ...createErrors },
        },
      },
      async (request, reply) => {
        const client = checkedPartnerOf(request)
        const { row, created } = await create(request, request.body)
        const { buyer_email, seller_email } = request.body
        return reply.status(201).send({
          id: row.id,
          type: created.type,
          status: row.status,
          client_id: client.id,
          price: row.price,
          charge: row.charge,
          currency: created.currency,
          description: row.description,
          buyer_email,
          seller_email,
        })
      },
    )

    app.post(
      '/partner/transactions/:id/cancel',
      {
        config: apiKeyRateLimit,
        preParsing: partnerKeyFirst(app),
        preHandler: app.idempotent,
        schema: {
          ...partnerSecured,
          summary: 'Call off one of your transactions that nobody has paid',
          description:
            'Before any payment only: once paid, 409 `already_paid`; while a payment is being processed (SEPA), 409 ' +
            '`payment_in_progress` (face-to-face: `deposit_payment_in_review`); once over, 409 `already_cancelled` or ' +
            '`funds_already_released`. The parties who have taken their place are told by e-mail, and your webhooks ' +
            'receive `transaction.cancelled`. Another client’s transaction answers 404, as an unknown one.',
          params: z.object({ id: z.uuid() }),
          response: { 200: anyTransactionSchema, ...cancelErrors },
        },
      },
      async (request) => {
        const row = await cancelPartnerTransaction(
          { ...deps(), idempotency: request.idempotencyClaim },
          checkedPartnerOf(request),
          request.params.id,
        )
        return toAnyTransactionView(row, partnerView, context())
      },
    )

    app.get(
      '/partner/transactions',
      {
        config: apiKeyRateLimit,
        schema: {
          ...partnerSecured,
          summary: "Your client's transactions, newest first, 50 a page (after_id pages on)",
          querystring: listQuerySchema,
          response: { 200: anyTransactionListSchema, ...errors },
        },
      },
      async (request) => {
        const client = await partnerClientOf(app, request)
        checkAfterId(request.query.after_id)
        const rows = await clientTransactions(app.services.db, {
          clientId: client.id,
          afterId: request.query.after_id,
          status: request.query.status,
          limit: request.query.limit,
        })
        return rows.map((row) => toAnyTransactionView(row, partnerView, context()))
      },
    )

    app.get(
      '/partner/transactions/:id',
      {
        config: apiKeyRateLimit,
        schema: {
          ...partnerSecured,
          summary: 'One of your transactions',
          params: z.object({ id: z.uuid() }),
          response: { 200: anyTransactionSchema, ...errors },
        },
      },
      async (request) => {
        const client = await partnerClientOf(app, request)
        const row = await clientTransaction(app.services.db, client.id, request.params.id)
        if (!row) throw new AppError('not_found', 'No such transaction')
        return toAnyTransactionView(row, partnerView, context())
      },
    )
  }
}
