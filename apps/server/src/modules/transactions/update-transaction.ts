import type { UpdateF2fTransactionBody } from '@pactum/contracts/f2f-transactions'
import type { UpdateTransactionBody } from '@pactum/contracts/transactions'
import type { PaymentMethod } from '@pactum/domain/currencies'
import type { QuotedTerms } from '@pactum/domain/transactions/shared-handlers'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Config } from '../../config.ts'
import { fieldError } from '../../errors.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { applyEvent, assertAllowed, type TransactionDeps } from './engine/apply-event.ts'
import { quoteOrRefuse, requireOffered, requireShownCharge } from './quote.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { lockForParty } from './transactions-repository.ts'

/** The creator's changes in the terms of either kind: for face-to-face the price is the deposit's. */
interface TermsChange {
  description?: string | undefined
  price?: number | undefined
  currency?: string | undefined
  paymentMethod?: PaymentMethod | undefined
  charge?: number | undefined
  chargeCalculatorVersion?: number | undefined
}

export function onlineChange(body: UpdateTransactionBody): TermsChange {
  return {
    description: body.description,
    price: body.price,
    currency: body.currency,
    paymentMethod: body.payment_method,
    charge: body.charge,
    chargeCalculatorVersion: body.charge_calculator_version,
  }
}

export function f2fChange(body: UpdateF2fTransactionBody): TermsChange {
  return {
    description: body.description,
    price: body.deposit_price,
    currency: body.currency,
    charge: body.deposit_charge,
    chargeCalculatorVersion: body.charge_calculator_version,
  }
}

/**
 * The creator changes the offer before anyone joined (spec §7 PATCH
 * /transactions/{id} and /p2p/transactions/{id}). Under the row lock, so
 * that a join cannot slip in between. A new price, currency or method is
 * repriced exactly as on creation: the caller must send the fee they were
 * shown, and a mismatch is refused (DESIGN §2).
 */
export async function updateTransaction(
  deps: TransactionDeps & { config: Config },
  user: CurrentUser,
  id: string,
  kind: TransactionKind,
  change: TermsChange,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id, kind)
    const actor = { kind: row.buyer_id === user.id ? 'buyer' : 'seller' } as const
    // Role and state first, as the state machine orders its checks; the terms after.
    assertAllowed(deps, row, { type: 'update' }, actor)
    const repricing = change.price !== undefined || change.currency !== undefined || change.paymentMethod !== undefined
    const shown = change.charge !== undefined || change.chargeCalculatorVersion !== undefined
    if (!repricing && !shown && change.description === undefined) return row
    const priceField = kind === 'f2f' ? 'deposit_price' : 'price'
    const chargeField = kind === 'f2f' ? 'deposit_charge' : 'charge'
    let terms: QuotedTerms | undefined
    if (repricing || shown) {
      if (change.charge === undefined || change.chargeCalculatorVersion === undefined) {
        const field = change.charge === undefined ? chargeField : 'charge_calculator_version'
        throw fieldError(`body.${field}`, 'required with a new price, currency or payment method: send the fee you were shown')
      }
      const paymentMethod = change.paymentMethod ?? (row.payment_method as PaymentMethod | null) ?? 'card'
      const quote = quoteOrRefuse(
        { price: change.price ?? row.price, currency: change.currency ?? row.currency, paymentMethod },
        priceField,
      )
      requireOffered(deps.config, user, quote, {
        paymentMethodChosen: change.paymentMethod !== undefined,
        currencyChosen: change.currency !== undefined,
      })
      requireShownCharge(quote, { charge: change.charge, version: change.chargeCalculatorVersion })
      terms = {
        price: quote.price,
        currency: quote.currency,
        charge: quote.charge,
        chargeSeller: quote.chargeSeller,
        chargeCalculatorVersion: quote.chargeCalculatorVersion,
        paymentMethod: change.paymentMethod ?? (row.payment_method as PaymentMethod | null),
      }
    }
    const event = {
      type: 'update',
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(terms ? { terms } : {}),
    } as const
    return applyEvent(deps, trx, row, event, { actor, actorUserId: user.id })
  })
}
