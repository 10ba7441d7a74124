import type { PaymentMethod } from '@pactum/domain/currencies'
import { highValueRequiresVerification } from '@pactum/domain/high-value'
import { transition } from '@pactum/domain/online-transaction'
import type { PaymentIntent, PaymentProvider } from '../adapters/payment-provider/port.ts'
import { AppError } from '../http/app-error.ts'
import type { CurrentUser } from '../services/users.ts'
import { actAsParty } from './act-as-party.ts'
import { applyOnlineEvent, type TransactionDeps } from './apply-online-event.ts'
import { toOnlineState } from './online-state.ts'
import { quoteOrRefuse } from './quote.ts'
import { findForParty, lockForParty } from './transactions-repository.ts'
import { roleOf, type TransactionRow } from './transaction-view.ts'

export type PaymentDeps = TransactionDeps & {
  paymentProvider: PaymentProvider
  /** Whether the user has passed identity verification (services/verification.ts). */
  isIdentityVerified: (userId: string) => Promise<boolean>
}

const openStatuses = new Set(['requires_payment_method', 'requires_action', 'processing'])

/** The buyer picks (or changes) the method: the fee is recomputed for it. */
export async function setPaymentMethod(deps: PaymentDeps, user: CurrentUser, id: string, paymentMethod: PaymentMethod): Promise<TransactionRow> {
  const current = await findForParty(deps.db, id, user.id)
  const quote = quoteOrRefuse({ price: current.price, currency: current.currency, paymentMethod })
  return actAsParty(deps, user, id, {
    type: 'set_payment_method',
    paymentMethod,
    charge: quote.charge,
    chargeCalculatorVersion: quote.chargeCalculatorVersion,
  })
}

/**
 * Opens (or returns the open) payment intent for price + fee. The provider
 * is called outside any database transaction; its idempotency key, derived
 * from the transaction and the amount and method, makes concurrent or
 * repeated calls return the same intent.
 */
export async function pay(deps: PaymentDeps, user: CurrentUser, id: string): Promise<{ row: TransactionRow; intent: PaymentIntent }> {
  const row = await findForParty(deps.db, id, user.id)
  const role = roleOf(row, user.id)
  if (role !== 'buyer') throw new AppError('not_buyer', 'Only the buyer pays')
  if (!row.payment_method) {
    throw new AppError('invalid_payment_method', 'Choose a payment method first', { details: { field: 'payment_method' } })
  }
  // Ask the domain whether paying is possible now, without changing anything.
  const probe = transition(toOnlineState(row), { type: 'payment_started', paymentIntentId: 'probe' }, { kind: 'buyer' }, deps.clock.now(), deps.policy)
  if (!probe.ok && !(probe.code === 'invalid_state' && row.is_payment_in_progress)) {
    throw new AppError(probe.code, `Cannot pay while the transaction is ${row.status}`, { details: { status: row.status } })
  }
  await requireVerifiedParties(deps, row)
  if (row.payment_intent_id) {
    const existing = await deps.paymentProvider.retrievePaymentIntent(row.payment_intent_id)
    const sameTerms = existing.amount === row.price + row.charge && existing.paymentMethod === row.payment_method
    if (openStatuses.has(existing.status) && (sameTerms || existing.status === 'processing')) return { row, intent: existing }
    if (existing.status === 'succeeded') throw new AppError('already_paid', 'This transaction is already paid')
    if (openStatuses.has(existing.status)) {
      // The buyer changed the method: the old intent must not be paid as well.
      await deps.paymentProvider.cancelPaymentIntent({ paymentIntentId: existing.id, idempotencyKey: `${row.id}:cancel:${existing.id}` })
    }
  }
  const intent = await deps.paymentProvider.createPaymentIntent({
    amount: row.price + row.charge,
    currency: row.currency,
    paymentMethod: row.payment_method as PaymentMethod,
    transactionId: row.id,
    idempotencyKey: `${row.id}:pay:${row.payment_method}:${row.price + row.charge}:${row.payment_intent_id ?? 'first'}`,
    metadata: { transaction_id: row.id },
  })
  const updated = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockForParty(trx, id, user.id)
    if (locked.status !== 'joined' || locked.is_payment_in_progress) return locked
    return trx.updateTable('transactions').set({ payment_intent_id: intent.id }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  })
  return { row: updated, intent }
}

/**
 * DESIGN §2: a high-value transaction of our own clients needs the buyer
 * and the seller verified before the buyer pays. Checked before any money
 * is asked for; the answer names who is still missing.
 */
async function requireVerifiedParties(deps: PaymentDeps, row: TransactionRow): Promise<void> {
  if (!row.high_value || !highValueRequiresVerification(row.client_id)) return
  const parties = [
    { role: 'buyer', id: row.buyer_id },
    { role: 'seller', id: row.seller_id },
  ] as const
  const unverified: string[] = []
  for (const party of parties) {
    if (!party.id || !(await deps.isIdentityVerified(party.id))) unverified.push(party.role)
  }
  if (unverified.length > 0) {
    throw new AppError('identity_verification_required', `A high-value sale needs both parties' identity verified first (missing: ${unverified.join(', ')})`, {
      details: { unverified },
    })
  }
}

/** The open intent's client secret again (a reload of the checkout). */
export async function openPaymentIntent(deps: PaymentDeps, user: CurrentUser, id: string): Promise<PaymentIntent> {
  const row = await findForParty(deps.db, id, user.id)
  if (roleOf(row, user.id) !== 'buyer') throw new AppError('not_buyer', 'Only the buyer pays')
  if (!row.payment_intent_id) throw new AppError('invalid_state', 'No payment has been started', { details: { status: row.status } })
  return deps.paymentProvider.retrievePaymentIntent(row.payment_intent_id)
}

/**
 * The browser reports that it confirmed the payment. We ask the provider
 * (never trust the browser) and apply what it says; the webhook brings the
 * same news, and whichever arrives first takes effect, once.
 */
export async function confirmPayment(deps: PaymentDeps, user: CurrentUser, id: string, paymentIntentId: string): Promise<TransactionRow> {
  const row = await findForParty(deps.db, id, user.id)
  if (roleOf(row, user.id) !== 'buyer') throw new AppError('not_buyer', 'Only the buyer pays')
  if (row.payment_intent_id !== paymentIntentId) {
    throw new AppError('validation_failed', 'This is not the payment of this transaction', { details: { field: 'payment_intent_id' } })
  }
  const intent = await deps.paymentProvider.retrievePaymentIntent(paymentIntentId)
  if (intent.transactionId !== row.id) {
    throw new AppError('validation_failed', 'This is not the payment of this transaction', { details: { field: 'payment_intent_id' } })
  }
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockForParty(trx, id, user.id)
    const system = { actor: { kind: 'system' as const }, actorUserId: null }
    if (intent.status === 'succeeded') {
      return applyOnlineEvent(deps, trx, locked, { type: 'payment_succeeded', paymentIntentId, amount: intent.amount }, system)
    }
    if (intent.status === 'processing') {
      return applyOnlineEvent(deps, trx, locked, { type: 'payment_started', paymentIntentId }, system)
    }
    return locked
  })
}
