import type { MessageView } from '@pactum/contracts/messages'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { findConversation, type Reader } from './conversation-access.ts'
import { listMessages, markReadUpTo } from './messages-repository.ts'
import { toMessageView } from './message-view.ts'

/**
 * A page of the conversation, oldest first; what it shows counts as read
 * for the reader (their unread count drops by it).
 */
export async function readMessages(
  db: Kysely<Database>,
  reader: Reader,
  transactionId: string,
  page: { afterId: string | undefined; limit: number },
): Promise<MessageView[]> {
  const row = await findConversation(db, reader, transactionId)
  const messages = await listMessages(db, row.id, page)
  const last = messages.at(-1)
  if (last) await markReadUpTo(db, row.id, reader.userId, last.id)
  return messages.map((message) => toMessageView(message, reader.userId))
}
