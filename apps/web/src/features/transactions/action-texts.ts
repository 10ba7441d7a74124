import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { TransactionActionName } from '@pactum/contracts/transaction-actions'

/** Where an action's texts are: `transactionStatus.actions.<name>` online, `transactionStatus.f2fActions.<name>` face to face. */
export function actionTexts(transaction: Pick<AnyTransaction, 'type'>, name: TransactionActionName): string {
  return transaction.type === 'f2f' ? `transactionStatus.f2fActions.${name}` : `transactionStatus.actions.${name}`
}

/** The test ids of an action's button and dialog: `action-<name>`, `dialog-<name>`, dashes for underscores. */
export function actionTestId(name: TransactionActionName): string {
  return name.replaceAll('_', '-')
}

/**
 * Which body text explains the step best for this viewer and state: the
 * money a cancellation gives back, or who confirms the handover first.
 * Any other action has one body, `<texts>.body`.
 */
export function bodyKey(name: TransactionActionName, transaction: AnyTransaction): string {
  const base = actionTexts(transaction, name)
  if (transaction.type === 'online') {
    // The seller cancelling after payment refunds the buyer: say so.
    return name === 'cancel' && transaction.status === 'paid' ? `${base}.bodyRefund` : `${base}.body`
  }
  if (name === 'cancel') {
    const depositHeld = transaction.deposit_paid !== null && transaction.status !== 'joined' && transaction.status !== 'created'
    return depositHeld ? `${base}.bodyDeposit` : `${base}.body`
  }
  if (name === 'confirm_handover') {
    if (transaction.role === 'seller') return `${base}.bodySeller`
    return transaction.show_seller_confirm_handover ? `${base}.bodyBuyerFirst` : `${base}.bodyBuyer`
  }
  return `${base}.body`
}
