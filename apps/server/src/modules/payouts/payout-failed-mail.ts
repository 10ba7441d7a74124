import type { CurrencyCode } from '@pactum/domain/currencies'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { ConnectedAccounts } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { renderPayoutFailed } from '../notifications/payout-failed-message.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { findPayoutRecipient, findSellerPayout, markFailureMailed } from './payouts-repository.ts'

/**
 * The e-mail that tells a seller their payout failed and what to do (update
 * the bank account). Queued in the transaction that recorded the failure
 * (follow-payout.ts); sent at most once per payout (`failure_mailed_at`),
 * every attempt with the same key, so a message sent twice after a crash
 * carries one Message-ID. Not one of the state-change notifications: those
 * are per transaction, and a payout carries the money of several.
 */
export const payoutFailedMailQueue = 'send-payout-failed-mail'

export interface PayoutMailDeps {
  db: Kysely<Database>
  mailer: Mailer
  clock: Clock
  connectedAccounts: ConnectedAccounts
  /** The web app's address, for the link to the bank account page. */
  publicUrl: string
  supportEmail: string
}

export async function createPayoutMailQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(payoutFailedMailQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 })
}

export async function startPayoutMailWorker(jobs: JobQueue, deps: PayoutMailDeps): Promise<void> {
  await jobs.work<{ id: string }>(payoutFailedMailQueue, async ({ id }) => {
    await sendPayoutFailedMail(deps, id)
  })
}

export type PayoutMailOutcome = 'sent' | 'already_sent' | 'no_recipient'

export async function sendPayoutFailedMail(deps: PayoutMailDeps, id: string): Promise<PayoutMailOutcome> {
  const payout = await findSellerPayout(deps.db, id)
  if (!payout) return 'no_recipient'
  if (payout.failure_mailed_at) return 'already_sent'
  const owner = await deps.connectedAccounts.findAccountOwner(payout.account_id)
  const recipient = owner ? await findPayoutRecipient(deps.db, owner) : undefined
  if (!recipient) return 'no_recipient'
  const locale = notificationLanguage(recipient)
  await deps.mailer.send({
    to: recipient.email,
    ...renderPayoutFailed(
      locale,
      {
        amount: { amount: Number(payout.amount), currency: payout.currency as CurrencyCode },
        failureCode: payout.failure_code,
        recipientFirstName: recipient.first_name || null,
        link: `${deps.publicUrl}/profile/payment/bank-details`,
      },
      { supportEmail: deps.supportEmail },
    ),
    key: `payout-failed:${payout.provider}:${payout.payout_id}`,
  })
  await markFailureMailed(deps.db, id, deps.clock.now())
  return 'sent'
}
