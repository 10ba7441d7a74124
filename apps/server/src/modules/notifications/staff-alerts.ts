import { type CurrencyCode, formatMoney } from '@pactum/domain/currencies'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { layoutWords } from './notification-messages.ts'
import { renderMail } from './render-mail.ts'

/**
 * What Pactum's own staff must hear of at once, beside the admin console's
 * lists (docs/decisions/109): a card dispute opened by a buyer's bank, with
 * its evidence deadline, and an early fraud warning that holds a release.
 * Enqueued in the database transaction that recorded the news, so it is
 * sent once it is committed and never for news rolled back; the job's
 * singleton key sends one e-mail per dispute or warning however often the
 * provider repeats itself. In English, to the support address, as the
 * contact form's e-mails are.
 */
export const staffAlertQueue = 'staff-alert'

export type StaffAlert =
  | {
      kind: 'chargeback_opened'
      key: string
      transactionId: string
      disputeId: string
      amount: number
      currency: string
      reason: string
      evidenceDueBy: string | null
      /** The money was still held: the sale is paused. */
      froze: boolean
    }
  | { kind: 'early_fraud_warning'; key: string; transactionId: string; warningId: string; fraudType: string }

export async function enqueueStaffAlert(jobs: JobQueue, trx: Kysely<Database>, alert: StaffAlert): Promise<void> {
  await jobs.send<StaffAlert>(staffAlertQueue, alert, { db: trx, singletonKey: alert.key })
}

export async function createStaffAlertQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(staffAlertQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 })
}

export async function startStaffAlertWorker(
  jobs: JobQueue,
  deps: { mailer: Mailer; supportEmail: string; publicUrl: string },
): Promise<void> {
  await jobs.work<StaffAlert>(staffAlertQueue, async (alert) => {
    await deps.mailer.send({ to: deps.supportEmail, key: `staff-alert:${alert.key}`, ...renderStaffAlert(alert, deps) })
  })
}

export function renderStaffAlert(alert: StaffAlert, deps: { supportEmail: string; publicUrl: string }) {
  const console = `${deps.publicUrl}/admin/transactions/${alert.transactionId}`
  const common = {
    locale: 'en_gb' as const,
    words: layoutWords('en_gb'),
    supportEmail: deps.supportEmail,
    toStaff: true,
    reason: "You get this e-mail because it goes to Pactum's support address.",
    action: { label: 'Open the sale in the admin console', url: console },
  }
  if (alert.kind === 'chargeback_opened') {
    const amount = formatMoney(alert.amount, alert.currency as CurrencyCode, 'en-GB')
    return renderMail({
      ...common,
      subject: `[Chargeback] ${amount} disputed (${alert.reason})`,
      greeting: "A buyer's bank opened a card dispute:",
      paragraphs: [
        alert.froze
          ? 'The money was still held: the sale is paused until the bank decides.'
          : 'The money had already left escrow: the platform carries the loss unless the dispute is won or recovered from the seller.',
        'Answer it in the admin console (Chargebacks) before the evidence deadline.',
      ],
      facts: [
        { label: 'Transaction', value: alert.transactionId },
        { label: 'Dispute', value: alert.disputeId },
        { label: 'Evidence due by', value: alert.evidenceDueBy ?? 'not given' },
      ],
    })
  }
  return renderMail({
    ...common,
    subject: `[Fraud warning] ${alert.fraudType} on a sale's payment`,
    greeting: 'The card issuer sent an early fraud warning:',
    paragraphs: ['No release happens until an admin clears the warning in the admin console.'],
    facts: [
      { label: 'Transaction', value: alert.transactionId },
      { label: 'Warning', value: alert.warningId },
    ],
  })
}
