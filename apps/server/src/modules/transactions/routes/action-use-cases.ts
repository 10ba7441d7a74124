import type { SetPriceBody, UpdateF2fTransactionBody } from '@pactum/contracts/f2f-transactions'
import type { transactionActions } from '@pactum/contracts/transaction-actions'
import type { PaymentMethod, PendingInvitation, UpdateTransactionBody } from '@pactum/contracts/transactions'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { FastifyInstance } from 'fastify'
import type { IdempotencyClaim } from '../../../idempotency/idempotency-claims.ts'
import { answerListingSale } from '../../listings/answer-listing-sale.ts'
import { pendingInvitationFor, resendInvitation } from '../../guests/guest-invitations.ts'
import { rejectTransaction } from '../join-transaction.ts'
import { confirmPayment, type PaymentDeps, setPaymentMethod } from '../pay.ts'
import { setRemainderPrice } from '../set-remainder-price.ts'
import { trackShipment } from '../track-shipment.ts'
import { f2fChange, onlineChange, updateTransaction } from '../update-transaction.ts'
import type { CurrentUser } from '../../sign-in/users.ts'
import type { TransactionRow } from '../engine/transaction-state.ts'

/** One call of a catalogue action, its body already checked against the entry's schema. */
export interface ActionCall {
  readonly user: CurrentUser
  readonly id: string
  readonly kind: TransactionKind
  readonly body: unknown
  /** The path's parameters (`offer_id` of an answer to a settlement offer). */
  readonly params?: unknown
  readonly idempotency: IdempotencyClaim | null
}

/** The transaction after the action, and the invitation where the answer shows it. */
export interface ActionOutcome {
  readonly row: TransactionRow
  readonly invitation?: PendingInvitation | null
}

type Catalogue = typeof transactionActions
/** The catalogue's actions answered with the transaction whose event a use case of its own builds. */
export type UseCaseActionName = {
  [N in keyof Catalogue]: Catalogue[N] extends { readonly event: unknown }
    ? never
    : Catalogue[N] extends { readonly answers: 'payment' }
      ? never
      : N
}[keyof Catalogue]

/**
 * The actions that need more than the caller's event: a price to compute,
 * a carrier to check, an e-mail to send, a join code to check. Each hands
 * over to its use case; the plain ones go straight to `actAsParty`.
 */
export function actionUseCases(
  app: FastifyInstance,
  deps: () => PaymentDeps,
): Record<UseCaseActionName, (call: ActionCall) => Promise<ActionOutcome>> {
  const withClaim = (call: ActionCall) => ({ ...deps(), idempotency: call.idempotency })
  return {
    set_price: async (call) => ({ row: await setRemainderPrice(withClaim(call), call.user, call.id, call.body as SetPriceBody) }),
    track: async (call) => {
      const body = call.body as { carrier: string; tracking_code: string }
      const shipment = { carrier: body.carrier, trackingCode: body.tracking_code.toUpperCase() }
      return { row: await trackShipment({ ...withClaim(call), carrierTracker: app.services.carrierTracker }, call.user, call.id, shipment) }
    },
    update: async (call) => {
      const change =
        call.kind === 'online' ? onlineChange(call.body as UpdateTransactionBody) : f2fChange(call.body as UpdateF2fTransactionBody)
      return { row: await updateTransaction({ ...deps(), config: app.services.config }, call.user, call.id, call.kind, change) }
    },
    accept_listing_transaction: async (call) => ({
      row: await answerListingSale(withClaim(call), call.user, call.id, 'accept', call.kind),
    }),
    reject_listing_transaction: async (call) => ({
      row: await answerListingSale(withClaim(call), call.user, call.id, 'reject', call.kind),
    }),
    set_payment_method: async (call) => {
      const { payment_method: method } = call.body as { payment_method: PaymentMethod }
      return { row: await setPaymentMethod(withClaim(call), call.user, call.id, call.kind, method) }
    },
    confirm_payment: async (call) => {
      const { payment_intent_id: intentId } = call.body as { payment_intent_id: string }
      return { row: await confirmPayment(withClaim(call), call.user, call.id, call.kind, intentId) }
    },
    resend_invitation: async (call) => {
      const { config, mailer, db } = app.services
      const row = await resendInvitation(
        { ...deps(), mailer, publicUrl: config.publicUrl, supportEmail: config.supportEmail, limits: config.limits.invitations },
        call.user,
        call.id,
        call.kind,
      )
      return { row, invitation: await pendingInvitationFor(db, row, call.user.id) }
    },
    reject: async (call) => ({
      row: await rejectTransaction(deps(), call.user, call.id, (call.body as { join_code: string }).join_code, call.kind),
    }),
  }
}
