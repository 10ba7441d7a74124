import { randomUUID } from 'node:crypto'
import { isSupportedCurrency } from '@pactum/domain/currencies'
import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { Party } from '@pactum/domain/transactions/kernel'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import { type Kysely, sql } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import { MailDeliveryError } from '../../adapters/mailer/smtp-mailer.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { crashPoint } from '../../crash-points.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { catalogueTemplate, renderNotification } from './notification-messages.ts'
import type { NotificationJob } from './notifications-repository.ts'

/**
 * The send-notification job: one state-change e-mail to one party, in their
 * notification language. Enqueued in the state change's own database
 * transaction (EffectScheduler.notify), so it exists only if that committed.
 *
 * Jobs run at least once. The `notifications` row, found by the job's key,
 * is claimed before sending and marked sent after, so a retried or
 * duplicated job does not send again. The one gap left is a crash between
 * the mailer accepting the message and the row being marked: then the
 * message goes out a second time once the claim has lapsed, which beats
 * losing it.
 */

export const notificationQueue = 'send-notification'

export interface NotificationDeps {
  db: Kysely<Database>
  mailer: Mailer
  clock: Clock
  /** The web app's address, for the link to the transaction. */
  publicUrl: string
}

/** `undeliverable`: the mail server refused it for good (an SMTP 5xx); recorded, and not tried again. */
export type NotificationOutcome = 'sent' | 'already_sent' | 'no_recipient' | 'undeliverable'

// Longer than a job may run (expireInSeconds below): a job that hangs is
// retried, and the retry waits here until the first attempt's claim lapses.
// Short, because a process killed mid-send leaves its claim behind: the
// e-mail goes out some 20 s after the restart rather than minutes later.
const claimLeaseSeconds = 20

export async function createNotificationQueue(jobs: JobQueue): Promise<void> {
  // E-mails come in bursts (two per state change), behind the timers that cause them (transaction-jobs.ts).
  await jobs.createQueue(notificationQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 15, concurrency: 10 })
}

export async function startNotificationWorker(jobs: JobQueue, deps: NotificationDeps): Promise<void> {
  await jobs.work<NotificationJob>(
    notificationQueue,
    async (job, context) => {
      await sendNotification(deps, job, { retryCount: context.retryCount })
    },
    // E-mails batch: ten read, claimed and marked sent with a statement each.
    { groups: { size: 10, run: async (group) => void (await sendNotifications(deps, group)) } },
  )
}

/**
 * `attempt.retryCount` above 0 means pg-boss is running this job again,
 * which it does only once the earlier attempt failed, expired or stopped
 * beating (its process died): a claim that attempt left behind is taken
 * over at once instead of waiting out the lease. An earlier attempt that
 * expired while still alive may then send too: a duplicate, never a loss.
 * (Retried jobs always run on their own, never in a group: JobQueue.work.)
 */
export async function sendNotification(deps: NotificationDeps, job: NotificationJob, attempt: { retryCount: number } = { retryCount: 0 }): Promise<NotificationOutcome> {
  const [outcome] = await sendNotifications(deps, [job], { takeOverClaims: attempt.retryCount > 0 })
  return outcome!
}

/**
 * Sends the e-mails of `jobs`, each at most once, and says what became of
 * each. Throws when any could not go out now (the mailer failed, or another
 * attempt is sending it), after recording what did go out: a retry then
 * sends only the rest.
 */
export async function sendNotifications(
  deps: NotificationDeps,
  jobs: NotificationJob[],
  options: { takeOverClaims?: boolean } = {},
): Promise<NotificationOutcome[]> {
  const { db, clock } = deps
  const now = clock.now()
  const transactions = new Map(
    (
      await db
        .selectFrom('transactions')
        .leftJoin('users as buyer', 'buyer.id', 'transactions.buyer_id')
        .leftJoin('users as seller', 'seller.id', 'transactions.seller_id')
        .select([
          'transactions.id',
          'transactions.type',
          'transactions.description',
          'transactions.price',
          'transactions.total_price',
          'transactions.currency',
          'buyer.id as buyer_id',
          'buyer.email as buyer_email',
          'buyer.first_name as buyer_first_name',
          'buyer.notification_language as buyer_notification_language',
          'buyer.locale as buyer_locale',
          'seller.id as seller_id',
          'seller.email as seller_email',
          'seller.first_name as seller_first_name',
          'seller.notification_language as seller_notification_language',
          'seller.locale as seller_locale',
        ])
        .where('transactions.id', 'in', [...new Set(jobs.map((job) => job.transactionId))])
        .execute()
    ).map((row) => [row.id, row]),
  )
  const outcomes = new Map<string, NotificationOutcome>()
  const toSend = new Map<string, { job: NotificationJob; message: ReturnType<typeof messageFor> & object }>()
  for (const job of jobs) {
    const message = messageFor(transactions.get(job.transactionId), job, deps.publicUrl)
    // Nobody in that role (yet): there is no one to write to.
    if (!message) outcomes.set(job.key, 'no_recipient')
    else toSend.set(job.key, { job, message })
  }

  // Written and claimed in one statement: a new row is claimed as it is
  // written; an existing one only if it is pending, its claim lapsed, or
  // this is a retry of the job. The language is fixed when the row is first
  // written, so a retry writes the same e-mail.
  const lapsed = new Date(now.getTime() - claimLeaseSeconds * 1000)
  const claimed =
    toSend.size === 0
      ? []
      : await db
          .insertInto('notifications')
          .values(
            [...toSend.values()].map(({ job, message }) => ({
              id: randomUUID(),
              transaction_id: job.transactionId,
              template: job.template,
              recipient_role: job.to,
              recipient_user_id: message.recipientId,
              language: message.language,
              key: job.key,
              status: 'sending',
              claimed_at: now,
              created_at: now,
            })),
          )
          .onConflict((conflict) =>
            conflict
              .column('key')
              .doUpdateSet({ status: 'sending', claimed_at: now })
              .where((eb) =>
                eb.or([
                  eb('notifications.status', '=', 'pending'),
                  eb.and([eb('notifications.status', '=', 'sending'), options.takeOverClaims ? eb.lit(true) : eb('notifications.claimed_at', '<', lapsed)]),
                ]),
              ),
          )
          .returning(['id', 'key', 'language'])
          .execute()

  const failures: string[] = []
  const unclaimed = [...toSend.keys()].filter((key) => !claimed.some((row) => row.key === key))
  if (unclaimed.length > 0) {
    const statuses = await db.selectFrom('notifications').select(['key', 'status']).where('key', 'in', unclaimed).execute()
    for (const { key, status } of statuses) {
      if (status === 'sent') outcomes.set(key, 'already_sent')
      else if (status === 'undeliverable') outcomes.set(key, 'undeliverable')
      // Another attempt holds it: this one fails, and the queue tries again later.
      else failures.push(`notification ${key} is being sent by another attempt`)
    }
  }

  const sent: Array<{ id: string; mailId: string }> = []
  const notSent: string[] = []
  const refused: Array<{ id: string; reply: string }> = []
  for (const row of claimed) {
    const { message } = toSend.get(row.key)!
    try {
      const locale = isSupportedLocale(row.language) ? row.language : 'en_gb'
      const { id: mailId } = await deps.mailer.send({ to: message.to, ...message.render(locale), key: `notification:${row.key}` })
      crashPoint('notification.after-send')
      sent.push({ id: row.id, mailId })
      outcomes.set(row.key, 'sent')
    } catch (error) {
      if (error instanceof MailDeliveryError && error.permanent) {
        // The same e-mail would be refused again (no such mailbox, …): keep the reason, stop retrying.
        refused.push({ id: row.id, reply: error.message })
        outcomes.set(row.key, 'undeliverable')
      } else {
        notSent.push(row.id)
        failures.push((error as Error).message)
      }
    }
  }
  for (const { id, reply } of refused) {
    await db.updateTable('notifications').set({ status: 'undeliverable', claimed_at: null, failure: reply }).where('id', '=', id).execute()
  }
  if (sent.length > 0) {
    await sql`
      update notifications set status = 'sent', sent_at = ${clock.now()}, mail_id = sent.mail_id
      from unnest(${sent.map((row) => row.id)}::uuid[], ${sent.map((row) => row.mailId)}::text[]) as sent(id, mail_id)
      where notifications.id = sent.id`.execute(db)
  }
  // Nothing went out for these: let the retry claim them straight away.
  if (notSent.length > 0) await db.updateTable('notifications').set({ status: 'pending', claimed_at: null }).where('id', 'in', notSent).execute()
  if (failures.length > 0) throw new Error(failures.join('; '))
  return jobs.map((job) => outcomes.get(job.key)!)
}

type TransactionForMail = {
  id: string
  type: string
  description: string
  price: number
  total_price: number | null
  currency: string
} & Record<`${Party}_${'id' | 'email' | 'first_name' | 'notification_language' | 'locale'}`, string | null>

/** Whom the e-mail goes to, in which language, and its text in a given language; null when nobody holds the role. */
function messageFor(transaction: TransactionForMail | undefined, job: NotificationJob, publicUrl: string) {
  if (!transaction) return null
  const other: Party = job.to === 'buyer' ? 'seller' : 'buyer'
  const recipientId = transaction[`${job.to}_id`]
  const to = transaction[`${job.to}_email`]
  if (!recipientId || !to) return null
  const currency = transaction.currency
  if (!isSupportedCurrency(currency)) throw new Error(`transaction ${transaction.id} has an unknown currency ${currency}`)
  return {
    recipientId,
    to,
    language: notificationLanguage({ notification_language: transaction[`${job.to}_notification_language`], locale: transaction[`${job.to}_locale`] }),
    render: (locale: Locale) =>
      renderNotification(locale, catalogueTemplate(transaction.type as TransactionKind, job.template), job.to, {
        description: transaction.description,
        // A face-to-face sale shows its total once set, its deposit until then.
        price: { amount: transaction.total_price ?? transaction.price, currency },
        otherPartyFirstName: transaction[`${other}_first_name`] ?? null,
        link: `${publicUrl}/transactions/${transaction.id}`,
        ...(job.returned ? { returned: { amount: job.returned.amount, currency, reason: job.returned.reason } } : {}),
      }),
  }
}
