import type { MessageView } from '@pactum/contracts/messages'
import type { Kysely } from 'kysely'
import type { DocumentStore } from '../../adapters/document-store/port.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { fieldError } from '../../errors.ts'
import { uuidV7 } from '../../ids.ts'
import { optedOutCategories } from '../profile/notification-opt-outs-repository.ts'
import { applyEvent, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import { findConversation, lockConversation, type Reader } from './conversation-access.ts'
import { prepareAttachment, type PreparedAttachment } from './message-attachments.ts'
import { insertMessage, type MessageRow, notifiedSince } from './messages-repository.ts'
import { toMessageView } from './message-view.ts'
import { watchForOrphan } from './orphan-attachments.ts'

export interface ConversationDeps extends TransactionDeps {
  documents: DocumentStore
  jobs: JobQueue
}

export interface NewMessage {
  text: string | null
  file: { bytes: Buffer; fileName: string } | null
}

/** At most one e-mail per conversation in this long: a lively exchange is one e-mail, not one per line. */
export const notificationPause = 10 * 60_000

/**
 * A message from a party (or an admin once there is a case): the engine's
 * `post_message` decides whether they may write, records it in the history
 * (with the attachment's SHA-256, or the message's id, as the reason) and
 * e-mails the other side unless the conversation already did in the last
 * 10 minutes. The attachment is stored first, outside the database
 * transaction (a slow upload must not hold the row's lock), and removed
 * again when the message is refused, or by a later job after a crash
 * (orphan-attachments.ts).
 */
export async function postMessage(deps: ConversationDeps, writer: Reader, transactionId: string, input: NewMessage): Promise<MessageView> {
  if (input.text === null && input.file === null) throw fieldError('body.text', 'A text or a file is required')
  // Strangers are answered 404 before their file costs any work or space.
  await findConversation(deps.db, writer, transactionId)
  const attachment = input.file ? await prepareAttachment(input.file.bytes, input.file.fileName) : null
  const now = deps.clock.now()
  const id = uuidV7(now)
  const key = attachment ? `messages/${transactionId}/${id}` : null
  if (attachment && key) {
    // A crash after the put and before the commit must not leave the file behind for good.
    await watchForOrphan(deps.jobs, { key, messageId: id })
    await deps.documents.put(key, attachment.bytes, attachment.contentType)
  }
  try {
    const message = await deps.db.transaction().execute(async (trx) => {
      const { row, role } = await lockConversation(trx, writer, transactionId)
      const notify = !(await notifiedSince(trx, row.id, new Date(now.getTime() - notificationPause)))
      // The pause counts e-mails that went out: one the reader turned off (decision 101) must not silence the reply.
      const mailed = notify && !(await recipientTurnedMessagesOff(trx, row, role))
      const message = messageRow({
        id,
        transactionId: row.id,
        role,
        userId: writer.userId,
        text: input.text,
        attachment,
        key,
        notify: mailed,
        now,
      })
      await insertMessage(trx, message)
      await applyEvent(
        deps,
        trx,
        row,
        { type: 'post_message', text: input.text ?? attachment?.name ?? '', notify },
        { actor: { kind: role }, actorUserId: writer.userId, reason: attachment ? `sha256:${attachment.sha256}` : `message:${id}` },
      )
      return message
    })
    return toMessageView(message, writer.userId)
  } catch (error) {
    // Refused (or failed): the file is nobody's. Deleting a missing key is no error.
    if (key) await deps.documents.delete(key)
    throw error
  }
}

/** A party's message goes to the other party, who may have turned message e-mails off; the team's always go. */
async function recipientTurnedMessagesOff(
  trx: Kysely<Database>,
  row: { buyer_id: string | null; seller_id: string | null },
  author: 'buyer' | 'seller' | 'admin',
): Promise<boolean> {
  if (author === 'admin') return false
  const recipient = author === 'buyer' ? row.seller_id : row.buyer_id
  return recipient !== null && (await optedOutCategories(trx, recipient)).includes('messages')
}

function messageRow(values: {
  id: string
  transactionId: string
  role: MessageRow['author_role']
  userId: string
  text: string | null
  attachment: PreparedAttachment | null
  key: string | null
  notify: boolean
  now: Date
}): MessageRow {
  const { attachment } = values
  return {
    id: values.id,
    transaction_id: values.transactionId,
    author_role: values.role,
    author_user_id: values.userId,
    text: values.text,
    attachment_key: values.key,
    attachment_name: attachment?.name ?? null,
    attachment_content_type: attachment?.contentType ?? null,
    attachment_size: attachment?.bytes.byteLength ?? null,
    attachment_sha256: attachment?.sha256 ?? null,
    notified: values.notify,
    created_at: values.now,
  }
}
