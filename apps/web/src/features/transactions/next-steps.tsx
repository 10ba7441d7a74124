import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { ActionButtons, offeredButtons } from './action-buttons.tsx'
import { ComplaintNextSteps } from './complaint-next-steps.tsx'
import { DeadlineCountdown } from './deadline-countdown.tsx'
import { ReceiptRequestNote, receiptRequestedAt } from './receipt-request-note.tsx'
import { NextStepsCard } from './status-cards.tsx'

/** A deadline running for this sale, with the texts for while it runs and once it passed. */
export interface Deadline {
  readonly deadline: string
  readonly runningKey: string
  readonly passedKey: string
  readonly testId: string
}

/**
 * What comes next on a transaction's page, for both kinds: what a complaint
 * means for this party, the deadlines running, the seller's last request
 * for a receipt confirmation, and the buttons of exactly
 * the actions the server offers (re-read while the page is open). Nothing
 * when there is none of these.
 */
export function NextSteps({ transaction, deadlines }: { transaction: AnyTransaction; deadlines: readonly Deadline[] }) {
  const actions = offeredButtons(transaction)
  const role = transaction.role
  const complained = transaction.status === 'complained' && role !== null
  const askedForReceipt = receiptRequestedAt(transaction)
  if (actions.length === 0 && deadlines.length === 0 && !complained && askedForReceipt === null) return null
  return (
    <NextStepsCard>
      {complained && role && <ComplaintNextSteps role={role} />}
      {deadlines.map((deadline) => (
        <DeadlineCountdown key={deadline.testId} {...deadline} />
      ))}
      {askedForReceipt !== null && <ReceiptRequestNote at={askedForReceipt} />}
      {actions.length > 0 && <ActionButtons transaction={transaction} actions={actions} />}
    </NextStepsCard>
  )
}

/** The buyer's complaint window, the same for both kinds. */
export function complaintDeadline(deadline: string): Deadline {
  return {
    deadline,
    runningKey: 'transactionStatus.deadlines.complaint',
    passedKey: 'transactionStatus.deadlines.complaintPassed',
    testId: 'complaint-deadline',
  }
}
