import type { ContactUsBody } from '@pactum/contracts/profile'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import type { RenderedMail } from '../notifications/mail-content.ts'
import { layoutWords, messages } from '../notifications/notification-messages.ts'
import { renderMail } from '../notifications/render-mail.ts'
import { findContactMessageWithSender, insertContactMessage, markContactMessageSent } from './contact-messages-repository.ts'

/**
 * The contact form (spec §7 `POST /app_api/contact_us`): the message is
 * stored and its e-mail to support enqueued in one database transaction, so
 * an accepted message is never lost and a mailer that is down only delays
 * it (the job retries). The job marks the row sent; a retry finds it marked
 * and does not write to support again.
 */

export const contactQueue = 'send-contact-message'

interface ContactJob {
  messageId: string
}

export interface ContactDeps {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
}

export interface ContactSendDeps {
  db: Kysely<Database>
  mailer: Mailer
  clock: Clock
  supportEmail: string
}

export async function createContactQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(contactQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 })
}

export async function startContactWorker(jobs: JobQueue, deps: ContactSendDeps): Promise<void> {
  await jobs.work<ContactJob>(contactQueue, async ({ messageId }) => {
    await sendContactMessage(deps, messageId)
  })
}

/**
 * The message as support reads it: who wrote (the reply goes to them), the
 * user and message ids, and the message as written (escaped in the HTML).
 * In English, for Pactum's own staff; nothing to click, as one replies.
 */
function renderContactMail(
  row: { id: string; user_id: string; user_email: string; email: string; subject: string; message: string },
  sender: string,
  supportEmail: string,
): RenderedMail {
  const words = messages.en_gb
  return renderMail({
    locale: 'en_gb',
    subject: `[Contact] ${row.subject}`,
    greeting: 'A message through the contact form:',
    paragraphs: [row.message],
    facts: [
      { label: 'From', value: `${sender ? `${sender} ` : ''}<${row.email}>` },
      { label: 'User', value: `${row.user_id} (${row.user_email})` },
      { label: 'Message id', value: row.id },
    ],
    reason: words['mail.reason.contact'],
    words: layoutWords('en_gb'),
    supportEmail,
    toStaff: true,
  })
}

export async function submitContactMessage(
  deps: ContactDeps,
  user: CurrentUser,
  body: ContactUsBody,
): Promise<{ id: string; created: Date }> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await insertContactMessage(trx, user.id, body, deps.clock.now())
    await deps.jobs.send<ContactJob>(contactQueue, { messageId: row.id }, { db: trx, singletonKey: row.id })
    return { id: row.id, created: row.created_at }
  })
}

/** Writes one stored message to support, unless it went out already. */
export async function sendContactMessage(deps: ContactSendDeps, messageId: string): Promise<'sent' | 'already_sent'> {
  const row = await findContactMessageWithSender(deps.db, messageId)
  if (row.sent_at) return 'already_sent'

  const sender = row.name || [row.first_name, row.last_name].filter(Boolean).join(' ')
  const { id: mailId } = await deps.mailer.send({
    to: deps.supportEmail,
    replyTo: row.email,
    key: `contact:${row.id}`,
    ...renderContactMail(row, sender, deps.supportEmail),
  })
  // A crash between the mailer and this mark sends the message once more on the retry: a duplicate beats a lost message.
  await markContactMessageSent(deps.db, row.id, deps.clock.now(), mailId)
  return 'sent'
}
