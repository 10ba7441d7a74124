import type { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { DocumentStore } from '../../adapters/document-store/port.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { uuidPattern } from '../../ids.ts'
import { findConversation, type Reader } from './conversation-access.ts'
import { findMessage } from './messages-repository.ts'

export interface OpenedAttachment {
  stream: Readable
  contentType: string
  name: string
  size: number
}

/** A message's attachment as a stream from the document store; 404 for a message without one, or one of another transaction. */
export async function openAttachment(
  deps: { db: Kysely<Database>; documents: DocumentStore },
  reader: Reader,
  transactionId: string,
  messageId: string,
): Promise<OpenedAttachment> {
  const row = await findConversation(deps.db, reader, transactionId)
  const message = uuidPattern.test(messageId) ? await findMessage(deps.db, row.id, messageId) : undefined
  if (!message?.attachment_key || !message.attachment_content_type || !message.attachment_name || message.attachment_size === null) {
    throw new AppError('not_found', 'No such attachment')
  }
  return {
    stream: await deps.documents.get(message.attachment_key),
    contentType: message.attachment_content_type,
    name: message.attachment_name,
    size: message.attachment_size,
  }
}
