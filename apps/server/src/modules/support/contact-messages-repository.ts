import type { ContactUsBody } from '@pactum/contracts/profile'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

export async function insertContactMessage(
  db: Kysely<Database>,
  userId: string,
  body: ContactUsBody,
  now: Date,
): Promise<{ id: string; created_at: Date }> {
  return db
    .insertInto('contact_messages')
    .values({ user_id: userId, name: body.name || null, email: body.email, subject: body.subject, message: body.message, created_at: now })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow()
}

/** A stored message with the account of the person who sent it. */
export async function findContactMessageWithSender(db: Kysely<Database>, messageId: string) {
  return db
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
}

export async function markContactMessageSent(db: Kysely<Database>, messageId: string, sentAt: Date, mailId: string): Promise<void> {
  await db.updateTable('contact_messages').set({ sent_at: sentAt, mail_id: mailId }).where('id', '=', messageId).execute()
}
