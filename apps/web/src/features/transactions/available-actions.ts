import type { Transaction } from '@pactum/contracts/transactions'

/**
 * What the person looking at a transaction can do next (DESIGN §3, online
 * states). The server is the judge; this only decides which buttons to show,
 * so that nobody is offered a step the server would refuse.
 */
export type TransactionAction =
  | 'pay'
  | 'track'
  | 'confirm_delivery'
  | 'complain'
  | 'submit_order_issue'
  | 'end_complaint_period'
  | 'accept_complaint'
  | 'cancel'

export type ActionInput = Pick<
  Transaction,
  'status' | 'role' | 'is_payment_in_progress' | 'tracking_deadline' | 'complaint_period_deadline' | 'order_issue'
>

const before = (deadline: string | null, now: number) => deadline === null || Date.parse(deadline) > now

export function availableActions(tx: ActionInput, now: number = Date.now()): TransactionAction[] {
  const buyer = tx.role === 'buyer'
  const seller = tx.role === 'seller'
  switch (tx.status) {
    // Only the creator sees a created transaction (the counterparty sees the join preview).
    case 'created':
      return tx.role ? ['cancel'] : []
    case 'joined':
      // Once a (SEPA) payment is on its way the buyer cannot withdraw it.
      if (tx.is_payment_in_progress) return []
      if (buyer) return ['pay', 'cancel']
      return seller ? ['cancel'] : []
    case 'paid':
      if (seller) return before(tx.tracking_deadline, now) ? ['track', 'cancel'] : ['cancel']
      return buyer && tx.order_issue === null ? ['submit_order_issue'] : []
    case 'tracked':
      return buyer ? ['confirm_delivery'] : []
    case 'delivered':
      return buyer && before(tx.complaint_period_deadline, now) ? ['complain', 'end_complaint_period'] : []
    case 'complained':
      return seller ? ['accept_complaint'] : []
    default:
      return []
  }
}

/** Something will change without anyone acting here: keep asking the server. */
export function awaitsAsyncChange(tx: ActionInput, now: number = Date.now()): boolean {
  if (tx.is_payment_in_progress || tx.status === 'tracked' || tx.status === 'complaint_period_ended') return true
  if (tx.status === 'cancelled_with_payment') return true
  if (tx.status === 'paid' && !before(tx.tracking_deadline, now)) return true
  return tx.status === 'delivered' && !before(tx.complaint_period_deadline, now)
}
