import { randomUUID } from 'node:crypto'
import { isSupportedCurrency } from '@pactum/domain/currencies'
import { isSupportedLocale } from '@pactum/domain/locales'
import type { NotifyTemplate, Party } from '@pactum/domain/transactions/kernel'
import type { Kysely } from 'kysely'
import type { Mailer } from '../adapters/mailer/port.ts'
import type { Clock } from '../clock.ts'
import { crashPoint } from '../crash-points.ts'
import type { Database } from '../db/schema.ts'
import type { JobQueue } from '../jobs/job-queue.ts'
import { notificationLanguage } from '../services/profile.ts'
import { catalogueTemplate, renderNotification } from './notification-messages.ts'

/**
 * The send-notification job: one state-change e-mail to one party, in their
 * notification language. Enqueued in the state change's own database
 * transaction (EffectScheduler.notify), so it exists only if that committed.
 *
 * Jobs run at least once. The `notifications` row, found by the job's key,
 * is claimed before sending and marked sent after, so a retried or
 * duplicated job does not send again. The one gap left is a crash between
 * the mailer accepting the message and the row being marked: then the
 * message goes out a second time when the job is retried, which beats
 * losing it.
 */

export const notificationQueue = 'send-notification'

export interface NotificationJob {
  transactionId: string
  template: NotifyTemplate
  to: Party
  /** Unique per e-mail: the state change's audit event, the template and the recipient. */
  key: string
}

export interface NotificationDeps {
  db: Kysely<Database>
  mailer: Mailer
  clock: Clock
  /** The web app's address, for the link to the transaction. */
  publicUrl: string
}

export type NotificationOutcome = 'sent' | 'already_sent' | 'no_recipient'

// Longer than a job may run (expireInSeconds below), for an attempt of
// another job under the same key. A retry of the same job does not wait for
// it (see sendNotification): the crash harness found that a process killed
// mid-send left claims that turned the first retry away, and those e-mails
// went out only after a further backoff, some 30 s after the restart.
const claimLeaseSeconds = 20

export async function createNotificationQueue(jobs: JobQueue): Promise<void> {
  // E-mails come in bursts (two per state change), behind the timers that cause them (transaction-jobs.ts).
  await jobs.createQueue(notificationQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 15, concurrency: 10 })
}

export async function startNotificationWorker(jobs: JobQueue, deps: NotificationDeps): Promise<void> {
  await jobs.work<NotificationJob>(notificationQueue, async (job, context) => {
    await sendNotification(deps, job, { retryCount: context.retryCount })
  })
}

/**
 * `attempt.retryCount` above 0 means pg-boss is running this job again,
 * which it does only once the earlier attempt failed, expired or stopped
 * beating (its process died): a claim that attempt left behind is taken
 * over at once instead of waiting out the lease. An earlier attempt that
 * expired while still alive may then send too: a duplicate, never a loss.
 */
export async function sendNotification(deps: NotificationDeps, job: NotificationJob, attempt: { retryCount: number } = { retryCount: 0 }): Promise<NotificationOutcome> {
  const { db, clock } = deps
  // One read for the transaction and both parties: e-mails come in bursts.
  const transaction = await db
    .selectFrom('transactions')
    .leftJoin('users as recipient', 'recipient.id', job.to === 'buyer' ? 'transactions.buyer_id' : 'transactions.seller_id')
    .leftJoin('users as other', 'other.id', job.to === 'buyer' ? 'transactions.seller_id' : 'transactions.buyer_id')
    .select([
      'transactions.id',
      'transactions.type',
      'transactions.description',
      'transactions.price',
      'transactions.total_price',
      'transactions.currency',
      'recipient.id as recipient_id',
      'recipient.email as recipient_email',
      'recipient.notification_language',
      'recipient.locale',
      'other.first_name as other_first_name',
    ])
    .where('transactions.id', '=', job.transactionId)
    .executeTakeFirst()
  // Nobody in that role (yet): there is no one to write to.
  if (!transaction?.recipient_id || !transaction.recipient_email) return 'no_recipient'
  if (!isSupportedCurrency(transaction.currency)) throw new Error(`transaction ${transaction.id} has an unknown currency ${transaction.currency}`)

  const now = clock.now()
  const lapsed = new Date(now.getTime() - claimLeaseSeconds * 1000)
  // Written and claimed in one statement: a new row is claimed as it is
  // written; an existing one only if it is pending, its claim lapsed, or this is a retry of the job. The
  // language is fixed when the row is first written, so a retry writes the same e-mail.
  const claimed = await db
    .insertInto('notifications')
    .values({
      id: randomUUID(),
      transaction_id: transaction.id,
      template: job.template,
      recipient_role: job.to,
      recipient_user_id: transaction.recipient_id,
      language: notificationLanguage(transaction),
      key: job.key,
      status: 'sending',
      claimed_at: now,
      created_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .column('key')
        .doUpdateSet({ status: 'sending', claimed_at: now })
        .where((eb) =>
          eb.or([
            eb('notifications.status', '=', 'pending'),
            eb.and([eb('notifications.status', '=', 'sending'), attempt.retryCount > 0 ? eb.lit(true) : eb('notifications.claimed_at', '<', lapsed)]),
          ]),
        ),
    )
    .returningAll()
    .executeTakeFirst()
  if (!claimed) {
    const { status } = await db.selectFrom('notifications').select('status').where('key', '=', job.key).executeTakeFirstOrThrow()
    if (status === 'sent') return 'already_sent'
    // Another attempt holds it: fail this one so that the queue tries again later.
    throw new Error(`notification ${job.key} is being sent by another attempt`)
  }

  let mailId: string
  try {
    const locale = isSupportedLocale(claimed.language) ? claimed.language : 'en_gb'
    const rendered = renderNotification(locale, catalogueTemplate(transaction.type, job.template), job.to, {
      description: transaction.description,
      // A face-to-face sale shows its total once set, its deposit until then.
      price: { amount: transaction.total_price ?? transaction.price, currency: transaction.currency },
      otherPartyFirstName: transaction.other_first_name ?? null,
      link: `${deps.publicUrl}/transactions/${transaction.id}`,
    })
    mailId = (await deps.mailer.send({ to: transaction.recipient_email, ...rendered })).id
  } catch (error) {
    // Nothing went out: let the retry claim it straight away.
    await db.updateTable('notifications').set({ status: 'pending', claimed_at: null }).where('id', '=', claimed.id).execute()
    throw error
  }
  crashPoint('notification.after-send')
  await db.updateTable('notifications').set({ status: 'sent', sent_at: clock.now(), mail_id: mailId }).where('id', '=', claimed.id).execute()
  return 'sent'
}
