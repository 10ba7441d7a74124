import type { PaymentMethod } from '@pactum/domain/currencies'
import { highValueRequiresVerification } from '@pactum/domain/high-value'
import type { TransactionEvent, TransactionKind } from '@pactum/domain/transactions/transaction'
import type { PaymentIntent, Payments } from '../../adapters/payment-provider/payments-port.ts'
import { PaymentProviderError } from '../../adapters/payment-provider/provider-error.ts'
import { AppError, fieldError } from '../../errors.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { actAsParty } from './act-as-party.ts'
import { applyEvent, assertAllowed, type TransactionDeps } from './engine/apply-event.ts'
import type { Config } from '../../config.ts'
import { quoteOrRefuse, requireMethodAllowed } from './quote.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { findForParty, lockForParty } from './transactions-repository.ts'
import { roleOf } from './transaction-view.ts'

export type PaymentDeps = TransactionDeps & {
  /** Which payment methods a user may use (DESIGN §2, `userOffer`). */
  config: Config
  payments: Payments
  /** Whether the user has passed identity verification (modules/verification/verification.ts). */
  isIdentityVerified: (userId: string) => Promise<boolean>
}

/** The one payment of an online sale, or a face-to-face sale's deposit or remainder. */
export type PaymentPart = 'payment' | 'deposit' | 'remainder'

const kindOf = (part: PaymentPart): TransactionKind => (part === 'payment' ? 'online' : 'f2f')
const openStatuses = new Set(['requires_payment_method', 'requires_action', 'processing'])

/** What the buyer is asked to pay for that part: price and fee. */
export function amountDue(row: TransactionRow, part: PaymentPart): number {
  if (part !== 'remainder') return row.price + row.charge
  return row.total_price === null ? 0 : row.total_price - row.price + (row.remainder_charge ?? 0)
}

function intentOf(row: TransactionRow, part: PaymentPart): string | null {
  return part === 'remainder' ? row.remainder_payment_intent_id : row.payment_intent_id
}

function opened(part: PaymentPart, paymentIntentId: string): TransactionEvent {
  return part === 'payment' ? { type: 'payment_intent_opened', paymentIntentId } : { type: 'payment_intent_opened', part, paymentIntentId }
}

/** The transaction, found for the caller, who must be its buyer: only the buyer pays. */
async function findAsBuyer(deps: PaymentDeps, user: CurrentUser, id: string, kind: TransactionKind): Promise<TransactionRow> {
  const row = await findForParty(deps.db, id, user.id, kind)
  if (roleOf(row, user.id) !== 'buyer') throw new AppError('not_buyer', 'Only the buyer pays')
  return row
}

/** A payment intent opened for a part of a transaction, with the transaction as it stands. */
interface OpenedIntent {
  row: TransactionRow
  intent: PaymentIntent
}

/** The buyer picks (or changes) the method of the payment (face-to-face: the deposit's): the fee is recomputed for it. */
export async function setPaymentMethod(
  deps: PaymentDeps,
  user: CurrentUser,
  id: string,
  kind: TransactionKind,
  paymentMethod: PaymentMethod,
): Promise<TransactionRow> {
  const current = await findForParty(deps.db, id, user.id, kind)
  const quote = quoteOrRefuse({ price: current.price, currency: current.currency, paymentMethod })
  // Others are refused by the domain as not the buyer, whatever the method.
  if (roleOf(current, user.id) === 'buyer') requireMethodAllowed(deps.config, user, paymentMethod)
  return actAsParty(
    deps,
    user,
    id,
    { type: 'set_payment_method', paymentMethod, charge: quote.charge, chargeCalculatorVersion: quote.chargeCalculatorVersion },
    kind,
  )
}

/**
 * Opens (or returns the open) payment intent for what is due. The provider is
 * called outside any database transaction; its idempotency key, derived from
 * the transaction, the part, the amount and the method, makes concurrent or
 * repeated calls return the same intent.
 */
export async function pay(deps: PaymentDeps, user: CurrentUser, id: string, part: PaymentPart): Promise<OpenedIntent> {
  let row = await findAsBuyer(deps, user, id, kindOf(part))
  const existingId = intentOf(row, part)
  // The domain says whether this payment may be opened now (an open one counts as opened again).
  assertAllowed(deps, row, opened(part, existingId ?? 'probe'), { kind: 'buyer' })
  // The creator may have chosen a method this buyer may not use: they choose another first.
  if (row.payment_method !== null) requireMethodAllowed(deps.config, user, row.payment_method as PaymentMethod)
  await requireVerifiedParties(deps, row)
  const amount = amountDue(row, part)
  if (existingId) {
    const existing = await deps.payments.retrievePaymentIntent(existingId)
    const sameTerms = existing.amount === amount && existing.paymentMethod === row.payment_method
    if (openStatuses.has(existing.status) && (sameTerms || existing.status === 'processing')) return { row, intent: existing }
    if (existing.status === 'succeeded') {
      // The provider took the money before Pactum heard (its webhook or the
      // browser's confirmation is still on its way): take the news now, so
      // that the answer and the transaction agree.
      row = await deps.db.transaction().execute(async (trx) => {
        const locked = await lockForParty(trx, id, user.id, kindOf(part))
        return applyEvent(
          deps,
          trx,
          locked,
          { type: 'payment_succeeded', paymentIntentId: existing.id, amount: existing.amount },
          { actor: { kind: 'system' }, actorUserId: null },
        )
      })
      // Held: this payment is made (already_paid). Sent straight back, since
      // the buyer changed the method after opening it: a new one is due.
      assertAllowed(deps, row, opened(part, 'probe'), { kind: 'buyer' })
    } else if (openStatuses.has(existing.status)) {
      // The buyer changed the method: the old intent must not be paid as well.
      try {
        await deps.payments.cancelPaymentIntent({ paymentIntentId: existing.id, idempotencyKey: `${row.id}:cancel:${existing.id}` })
      } catch (error) {
        // Paid (or its debit begun) in the meantime, in another tab: start
        // again from what the provider says about it now.
        if (error instanceof PaymentProviderError && error.code === 'invalid_state') return pay(deps, user, id, part)
        throw error
      }
    }
  }
  const keyPart = part === 'payment' ? '' : `${part}:`
  const due = amountDue(row, part)
  const intent = await deps.payments
    .createPaymentIntent({
      amount: due,
      currency: row.currency,
      paymentMethod: row.payment_method as PaymentMethod,
      transactionId: row.id,
      idempotencyKey: `${row.id}:pay:${keyPart}${row.payment_method}:${due}:${existingId ?? 'first'}`,
      metadata: { transaction_id: row.id, part },
    })
    .catch((error: unknown) => {
      // A sale priced before the method × currency table (domain currencies.ts) was checked: the buyer picks another method.
      if (error instanceof PaymentProviderError && error.code === 'unsupported_combination') {
        throw new AppError('unsupported_combination', 'This payment method does not take the sale’s currency: choose another', {
          details: { field: 'payment_method' },
        })
      }
      throw error
    })
  const updated = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockForParty(trx, id, user.id, kindOf(part))
    return applyEvent(deps, trx, locked, opened(part, intent.id), { actor: { kind: 'buyer' }, actorUserId: user.id })
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
    throw new AppError(
      'identity_verification_required',
      `A high-value sale needs both parties' identity verified first (missing: ${unverified.join(', ')})`,
      {
        details: { unverified },
      },
    )
  }
}

/** What is still to pay when nothing was opened for it yet: the buyer calls pay first. */
const notOpened = { payment: 'not_paid', deposit: 'deposit_not_paid', remainder: 'remainder_required' } as const

/**
 * The open intent's client secret again (a reload of the checkout), only
 * while that payment is due: once it was made (or no longer can be) the
 * domain says why, as it does to pay.
 */
export async function openPaymentIntent(deps: PaymentDeps, user: CurrentUser, id: string, part: PaymentPart): Promise<OpenedIntent> {
  const row = await findAsBuyer(deps, user, id, kindOf(part))
  const intentId = intentOf(row, part)
  assertAllowed(deps, row, opened(part, intentId ?? 'probe'), { kind: 'buyer' })
  if (!intentId) throw new AppError(notOpened[part], 'No payment has been opened yet', { details: { status: row.status } })
  return { row, intent: await deps.payments.retrievePaymentIntent(intentId) }
}

/**
 * The browser reports that it confirmed a payment. We ask the provider
 * (never trust the browser) and apply what it says; the webhook brings the
 * same news, and whichever arrives first takes effect, once.
 */
export async function confirmPayment(
  deps: PaymentDeps,
  user: CurrentUser,
  id: string,
  kind: TransactionKind,
  paymentIntentId: string,
): Promise<TransactionRow> {
  const row = await findAsBuyer(deps, user, id, kind)
  const ours = row.payment_intent_id === paymentIntentId || row.remainder_payment_intent_id === paymentIntentId
  const intent = ours ? await deps.payments.retrievePaymentIntent(paymentIntentId) : undefined
  if (!intent || intent.transactionId !== row.id) {
    throw fieldError('body.payment_intent_id', 'not a payment of this transaction')
  }
  const system = { actor: { kind: 'system' as const }, actorUserId: null }
  const reported = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockForParty(trx, id, user.id, kind)
    if (intent.status === 'succeeded') {
      return applyEvent(deps, trx, locked, { type: 'payment_succeeded', paymentIntentId, amount: intent.amount }, system)
    }
    if (intent.status === 'processing') return applyEvent(deps, trx, locked, { type: 'payment_started', paymentIntentId }, system)
    return locked
  })
  if (intent.status !== 'processing' || !reported.is_payment_in_progress) return reported
  // "Processing" was read before the row lock: the debit may have failed (or
  // gone through) and that news been applied in between, and the provider
  // sends no more. Ask again now that ours is committed; news after this
  // read finds the payment in progress and settles it as usual.
  const current = await deps.payments.retrievePaymentIntent(paymentIntentId)
  if (current.status === 'processing') return reported
  const news: TransactionEvent =
    current.status === 'succeeded'
      ? { type: 'payment_succeeded', paymentIntentId, amount: current.amount }
      : { type: 'payment_failed', paymentIntentId }
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockForParty(trx, id, user.id, kind)
    // The provider's news, not this request's work: not written onto its Idempotency-Key.
    return applyEvent({ ...deps, idempotency: null }, trx, locked, news, system)
  })
}
