import type { SetPriceBody } from '@pactum/contracts/f2f-transactions'
import type { PaymentMethod } from '@pactum/domain/currencies'
import { chargeCalculatorVersion } from '@pactum/domain/fees'
import type { CurrentUser } from '../sign-in/users.ts'
import { applyEvent, assertAllowed, type TransactionDeps } from './engine/apply-event.ts'
import { quoteOrRefuse, requireShownCharge } from './quote.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { lockForParty, notFound } from './transactions-repository.ts'
import { roleOf } from './transaction-view.ts'

/**
 * The seller sets the total price of a face-to-face sale. The remainder
 * (total − deposit) is priced with the deposit's method, and the seller must
 * send the fee they were shown for it, as on creation (DESIGN §2).
 */
export async function setRemainderPrice(deps: TransactionDeps, user: CurrentUser, id: string, body: SetPriceBody): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id, 'f2f')
    const role = roleOf(row, user.id)
    if (!role) throw notFound()
    const actor = { kind: role }
    // Role, state and the minimum remainder first, in the state machine's words; the fee after.
    assertAllowed(deps, row, { type: 'set_price', price: body.price, charge: 0, chargeSeller: 0, chargeCalculatorVersion }, actor)
    const paymentMethod = (row.payment_method as PaymentMethod | null) ?? 'card'
    const quote = quoteOrRefuse({ price: body.price - row.price, currency: row.currency, paymentMethod })
    requireShownCharge(quote, { charge: body.charge, version: body.charge_calculator_version })
    const event = {
      type: 'set_price',
      price: body.price,
      charge: quote.charge,
      chargeSeller: quote.chargeSeller,
      chargeCalculatorVersion: quote.chargeCalculatorVersion,
    } as const
    return applyEvent(deps, trx, row, event, { actor, actorUserId: user.id })
  })
}
