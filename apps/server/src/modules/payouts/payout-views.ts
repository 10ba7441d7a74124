import type { Payout as PayoutView, PayoutNextStep } from '@pactum/contracts/payouts'
import type { Payout } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { SellerPayoutRow } from './payouts-repository.ts'

/**
 * The seller's payouts as the Balance page shows them: the provider's list
 * (its current status and expected arrival), with what Pactum followed of
 * each failed one: whether the seller has replaced the bank account since.
 * A failed payout followed by a later one that did not fail needs nothing
 * more: the money went out again.
 */
export function toPayoutViews(payouts: Payout[], followed: SellerPayoutRow[]): PayoutView[] {
  const records = new Map(followed.map((row) => [row.payout_id, row]))
  return payouts.map((payout, index) => {
    const later = payouts.slice(0, index)
    const madeGood = later.some((other) => other.status !== 'failed' && other.status !== 'canceled')
    const record = records.get(payout.id)
    const nextStep: PayoutNextStep | null =
      payout.status !== 'failed' || madeGood ? null : record?.bank_account_replaced_at ? 'waiting_for_next_payout' : 'update_bank_account'
    return {
      id: payout.id,
      amount: payout.amount,
      currency: payout.currency,
      status: payout.status,
      created: payout.created.toISOString(),
      arrival_date: payout.arrivalDate.toISOString(),
      bank_account_last4: payout.bankLast4,
      failure_message: payout.failureMessage,
      failure_code: payout.status === 'failed' ? (payout.failureCode ?? record?.failure_code ?? null) : null,
      next_step: nextStep,
    }
  })
}
