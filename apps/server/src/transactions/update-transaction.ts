import type { UpdateTransactionBody } from '@pactum/contracts/transactions'
import { isHighValue } from '@pactum/domain/high-value'
import type { Config } from '../config.ts'
import { AppError } from '../http/app-error.ts'
import type { CurrentUser } from '../services/users.ts'
import type { TransactionDeps } from './apply-online-event.ts'
import { quoteOrRefuse, requireShownCharge } from './quote.ts'
import { lockForParty } from './transactions-repository.ts'
import type { TransactionRow } from './transaction-view.ts'
import { userOffer } from './user-offer.ts'

/**
 * The creator changes the offer before anyone joined (spec §7 PATCH
 * /transactions/{id}). Under the row lock, so that a join cannot slip in
 * between the check and the write. A new price, currency or method is
 * repriced exactly as on creation: the caller must send the fee they were
 * shown, and a mismatch is refused (DESIGN §2).
 */
export async function updateTransaction(
  deps: TransactionDeps & { config: Config },
  user: CurrentUser,
  id: string,
  body: UpdateTransactionBody,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id)
    // Role first, then state, then input (as the state machine orders its checks).
    if (row.creator_id !== user.id) throw new AppError('forbidden', 'Only the creator can change the transaction')
    if (row.status !== 'created') {
      const cancelled = row.status === 'cancelled' || row.status === 'rejected'
      throw new AppError(
        cancelled ? 'already_cancelled' : 'already_joined',
        cancelled ? 'This transaction was cancelled' : 'The other party has joined; the transaction can no longer be changed',
        { details: { status: row.status } },
      )
    }

    const repricing = body.price !== undefined || body.currency !== undefined || body.payment_method !== undefined
    const shown = body.charge !== undefined || body.charge_calculator_version !== undefined
    let priced: Partial<Pick<TransactionRow, 'price' | 'currency' | 'charge' | 'charge_seller' | 'charge_calculator_version' | 'payment_method' | 'high_value'>> = {}
    if (repricing || shown) {
      for (const field of ['charge', 'charge_calculator_version'] as const) {
        if (body[field] === undefined) {
          throw new AppError('validation_failed', `${field} is required with a new price, currency or payment method: send the fee you were shown`, {
            details: { field },
          })
        }
      }
      const paymentMethod = body.payment_method ?? row.payment_method ?? 'card'
      const quote = quoteOrRefuse({ price: body.price ?? row.price, currency: body.currency ?? row.currency, paymentMethod })
      const offer = userOffer(deps.config, user)
      if (body.currency !== undefined && !offer.currencies.includes(quote.currency)) {
        throw new AppError('unsupported_currency', 'This currency is not available to you', { details: { field: 'currency' } })
      }
      if (body.payment_method !== undefined && !offer.paymentMethods.includes(quote.paymentMethod)) {
        throw new AppError('invalid_payment_method', 'This payment method is not available to you', { details: { field: 'payment_method' } })
      }
      requireShownCharge(quote, { charge: body.charge as number, version: body.charge_calculator_version as string })
      priced = {
        price: quote.price,
        currency: quote.currency,
        charge: quote.charge,
        charge_seller: quote.chargeSeller,
        charge_calculator_version: quote.chargeCalculatorVersion,
        payment_method: body.payment_method ?? row.payment_method,
        high_value: isHighValue(quote.price, quote.currency),
      }
    }

    if (!repricing && !shown && body.description === undefined) return row
    const now = deps.clock.now()
    const updated = await trx
      .updateTable('transactions')
      .set({ ...priced, ...(body.description !== undefined ? { description: body.description } : {}), updated_at: now })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('transaction_events')
      .values({
        transaction_id: row.id,
        event: 'update',
        actor_kind: row.creator_role,
        actor_user_id: user.id,
        reason: null,
        from_status: row.status,
        to_status: updated.status,
        created_at: now,
      })
      .execute()
    return updated
  })
}
