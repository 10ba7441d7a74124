import type { ContactUsBody } from '@pactum/contracts/profile'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { CurrentUser } from '../sign-in/users.ts'

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

export async function submitContactMessage(deps: ContactDeps, user: CurrentUser, body: ContactUsBody): Promise<{ id: string; created: Date }> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contact_messages')
      .values({ user_id: user.id, name: body.name || null, email: body.email, subject: body.subject, message: body.message, created_at: deps.clock.now() })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow()
    await deps.jobs.send<ContactJob>(contactQueue, { messageId: row.id }, { db: trx, singletonKey: row.id })
    return { id: row.id, created: row.created_at }
  })
}

/** Writes one stored message to support, unless it went out already. */
export async function sendContactMessage(deps: ContactSendDeps, messageId: string): Promise<'sent' | 'already_sent'> {
  const row = await deps.db
    .selectFrom('contact_messages')
    .innerJoin('users', 'users.id', 'contact_messages.user_id')
    .select([
      'contact_messages.id',
      'contact_messages.name',
      'contact_messages.email',
      'contact_messages.subject',
      'contact_messages.message',
      'contact_messages.sent_at',
      'users.id as user_id',
      'users.email as user_email',
      'users.first_name',
      'users.last_name',
    ])
    .where('contact_messages.id', '=', messageId)
    .executeTakeFirstOrThrow()
  if (row.sent_at) return 'already_sent'

  const sender = row.name || [row.first_name, row.last_name].filter(Boolean).join(' ')
  const { id: mailId } = await deps.mailer.send({
    to: deps.supportEmail,
    replyTo: row.email,
    key: `contact:${row.id}`,
    subject: `[Contact] ${row.subject}`,
    text: [`From: ${sender ? `${sender} ` : ''}<${row.email}>`, `User: ${row.user_id} (${row.user_email})`, `Message id: ${row.id}`, '', row.message].join('\n'),
  })
  // A crash between the mailer and this mark sends the message once more on the retry: a duplicate beats a lost message.
  await deps.db.updateTable('contact_messages').set({ sent_at: deps.clock.now(), mail_id: mailId }).where('id', '=', row.id).execute()
  return 'sent'
}
