import { randomUUID } from 'node:crypto'
import { isSupportedCurrency } from '@pactum/domain/currencies'
import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { NotifyTemplate, Party } from '@pactum/domain/transactions/kernel'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { MailAttachment, Mailer } from '../../adapters/mailer/port.ts'
import { MailDeliveryError } from '../../adapters/mailer/smtp-mailer.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { crashPoint } from '../../crash-points.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { notificationLanguage } from '../profile/profile.ts'
import { receiptAttachment } from '../receipts/receipt-attachment.ts'
import { catalogueTemplate, type MailOptions, renderNotification } from './notification-messages.ts'
import { categoryOf } from './notification-categories.ts'
import { leaveOutOptedOut } from './opted-out-notifications.ts'
import { optOutSentence } from './opt-out-footer.ts'
import { optOutLink, optOutLinkKey, optOutToken } from './opt-out-links.ts'
import {
  findNotificationStatuses,
  findTransactionsForMail,
  markSent,
  markUndeliverable,
  type NotificationJob,
  releaseClaims,
  type TransactionForMail,
  writeAndClaimNotifications,
} from './notifications-repository.ts'

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
  /** The address for questions, in every e-mail's footer. */
  supportEmail: string
}

/**
 * `undeliverable`: the mail server refused it for good (an SMTP 5xx); recorded, and not tried again.
 * `opted_out`: the recipient turned this kind of e-mail off (decision 101); recorded, and not tried again.
 */
export type NotificationOutcome = 'sent' | 'already_sent' | 'no_recipient' | 'undeliverable' | 'opted_out'

// Longer than a job may run (expireInSeconds below): a job that hangs is
// retried, and the retry waits here until the first attempt's claim lapses.
// Short, because a process killed mid-send leaves its claim behind: the
// e-mail goes out some 20 s after the restart rather than minutes later.
const claimLeaseSeconds = 20

export async function createNotificationQueue(jobs: JobQueue): Promise<void> {
  // E-mails come in bursts (two per state change), behind the timers that cause them (transaction-jobs.ts).
  // Six groups of ten at once: a group sends each person's e-mails one after
  // another, and the next fetch waits for the slowest group. One group at a
  // time left the process waiting on the database and the disk (some 18
  // e-mails a second behind 20,000 releases, decision 119); three still did,
  // with the process's cores half idle (4,000 releases' e-mails done 80 s
  // after the start with three groups, 72 s with six or twelve: decision 128).
  await jobs.createQueue(notificationQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 15, concurrency: 60 })
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
export async function sendNotification(
  deps: NotificationDeps,
  job: NotificationJob,
  attempt: { retryCount: number } = { retryCount: 0 },
): Promise<NotificationOutcome> {
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
    (await findTransactionsForMail(db, [...new Set(jobs.map((job) => job.transactionId))])).map((row) => [row.id, row]),
  )
  const outcomes = new Map<string, NotificationOutcome>()
  const toSend = new Map<string, { job: NotificationJob; message: ReturnType<typeof messageFor> & object }>()
  const optOutKey = await optOutLinkKey(db)
  for (const job of jobs) {
    const message = messageFor(transactions.get(job.transactionId), job, deps.publicUrl, optOutKey)
    // Nobody in that role (yet): there is no one to write to.
    if (!message) outcomes.set(job.key, 'no_recipient')
    else toSend.set(job.key, { job, message })
  }

  const rows = [...toSend.values()].map(({ job, message }) => ({
    notification: {
      id: randomUUID(),
      transaction_id: job.transactionId,
      template: job.template,
      recipient_role: job.to,
      recipient_user_id: message.recipientId,
      language: message.language,
      key: job.key,
    },
    category: message.category,
  }))
  for (const key of await leaveOutOptedOut(db, rows, now)) {
    outcomes.set(key, 'opted_out')
    toSend.delete(key)
  }

  // Written and claimed in one statement (writeAndClaimNotifications): only
  // what is pending, whose claim lapsed, or whose job this retries.
  const lapsed = new Date(now.getTime() - claimLeaseSeconds * 1000)
  const claimed =
    toSend.size === 0
      ? []
      : await writeAndClaimNotifications(
          db,
          rows.filter(({ notification }) => toSend.has(notification.key)).map(({ notification }) => notification),
          { now, lapsed, takeOverClaims: options.takeOverClaims },
        )

  const failures: string[] = []
  const unclaimed = [...toSend.keys()].filter((key) => !claimed.some((row) => row.key === key))
  if (unclaimed.length > 0) {
    const statuses = await findNotificationStatuses(db, unclaimed)
    for (const { key, status } of statuses) {
      if (status === 'sent') outcomes.set(key, 'already_sent')
      else if (status === 'undeliverable') outcomes.set(key, 'undeliverable')
      else if (status === 'opted_out') outcomes.set(key, 'opted_out')
      // Another attempt holds it: this one fails, and the queue tries again later.
      else failures.push(`notification ${key} is being sent by another attempt`)
    }
  }

  const sent: Array<{ id: string; mailId: string }> = []
  const notSent: string[] = []
  const refused: Array<{ id: string; reply: string }> = []
  // A release tells buyer and seller in one group: the same receipt (the sale's, at `now`, in one language) is made once for both.
  const receipts = new Map<string, Promise<MailAttachment | null>>()
  const receiptFor = (transactionId: string, locale: Locale) => {
    const key = `${transactionId}:${locale}`
    let receipt = receipts.get(key)
    if (!receipt) {
      receipt = receiptAttachment(db, transactionId, locale, now)
      receipts.set(key, receipt)
    }
    return receipt
  }
  const sendOne = async (row: (typeof claimed)[number]) => {
    const { job, message } = toSend.get(row.key)!
    try {
      const locale = isSupportedLocale(row.language) ? row.language : 'en_gb'
      const receipt = receiptTemplates.has(job.template) ? await receiptFor(job.transactionId, locale) : null
      const { id: mailId } = await deps.mailer.send({
        to: message.to,
        ...message.render(locale, { supportEmail: deps.supportEmail, receiptAttached: receipt !== null }),
        ...(receipt ? { attachments: [receipt] } : {}),
        key: `notification:${row.key}`,
      })
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
  // Each person's e-mails one after another, in the order they were queued;
  // different people's side by side. One after another, a group of ten
  // waited for every step of each (the receipt's statements, composing, the
  // mailer's file or connection) behind whatever else the process was doing:
  // about 30 ms an e-mail while releases' transfers went out (issue 36).
  const byRecipient = new Map<string, typeof claimed>()
  for (const row of claimed) {
    const to = toSend.get(row.key)!.message.to
    byRecipient.set(to, [...(byRecipient.get(to) ?? []), row])
  }
  await Promise.all(
    [...byRecipient.values()].map(async (rows) => {
      for (const row of rows) await sendOne(row)
    }),
  )
  for (const { id, reply } of refused) {
    await markUndeliverable(db, id, reply)
  }
  if (sent.length > 0) await markSent(db, sent, clock.now())
  // Nothing went out for these: let the retry claim them straight away.
  if (notSent.length > 0) await releaseClaims(db, notSent)
  if (failures.length > 0) throw new Error(failures.join('; '))
  return jobs.map((job) => outcomes.get(job.key)!)
}

/**
 * The e-mails that say money has left escrow for good: they carry the
 * receipt (issue 33), made at send time in the recipient's language. Only
 * these, as a PDF takes a while and a group sends ten e-mails in one job.
 */
const receiptTemplates: ReadonlySet<string> = new Set<NotifyTemplate>([
  'funds_released',
  'payment_refunded',
  'deposit_refunded',
  'case_settled',
  'case_decided',
])

/**
 * Whom the e-mail goes to, in which language, whether they may turn it off,
 * and its text and HTML in a given language (with the one-click link that
 * turns its kind off, when they may); null when nobody holds the role.
 */
function messageFor(transaction: TransactionForMail | undefined, job: NotificationJob, publicUrl: string, optOutKey: Buffer) {
  if (!transaction) return null
  const other: Party = job.to === 'buyer' ? 'seller' : 'buyer'
  const recipientId = transaction[`${job.to}_id`]
  const to = transaction[`${job.to}_email`]
  if (!recipientId || !to) return null
  const currency = transaction.currency
  if (!isSupportedCurrency(currency)) throw new Error(`transaction ${transaction.id} has an unknown currency ${currency}`)
  const template = catalogueTemplate(transaction.type as TransactionKind, job.template)
  const category = categoryOf(template)
  return {
    recipientId,
    to,
    category,
    language: notificationLanguage({
      notification_language: transaction[`${job.to}_notification_language`],
      locale: transaction[`${job.to}_locale`],
    }),
    render: (locale: Locale, options: MailOptions) => {
      const link = category === 'always' ? null : optOutLink(publicUrl, optOutToken(optOutKey, recipientId, category), locale)
      const mail = renderNotification(
        locale,
        template,
        job.to,
        {
          description: transaction.description,
          // A face-to-face sale shows its total once set, its deposit until then.
          price: { amount: transaction.total_price ?? transaction.price, currency },
          otherPartyFirstName: transaction[`${other}_first_name`] ?? null,
          recipientFirstName: transaction[`${job.to}_first_name`] ?? null,
          link: `${publicUrl}/transactions/${transaction.id}`,
          verifyUrl: `${publicUrl}/verify/${transaction.verify_code}`,
          ...(job.returned ? { returned: { amount: job.returned.amount, currency, reason: job.returned.reason } } : {}),
          ...(job.reason ? { reason: job.reason } : {}),
          ...(job.quote !== undefined ? { quote: job.quote } : {}),
        },
        { ...options, ...(link && category !== 'always' ? { unsubscribe: { text: optOutSentence(locale, category), url: link } } : {}) },
      )
      return link ? { ...mail, listUnsubscribe: link } : mail
    },
  }
}
