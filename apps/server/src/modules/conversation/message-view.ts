import type { AttachmentContentType, MessageView } from '@pactum/contracts/messages'
import type { MessageRow } from './messages-repository.ts'

/** A message as `viewerId` reads it: `mine` for their own; the attachment's details without its key. */
export function toMessageView(row: MessageRow, viewerId: string): MessageView {
  const { attachment_key, attachment_name, attachment_content_type, attachment_size, attachment_sha256 } = row
  const attachment =
    attachment_key !== null && attachment_name !== null && attachment_size !== null && attachment_sha256 !== null
      ? {
          name: attachment_name,
          content_type: attachment_content_type as AttachmentContentType,
          size: attachment_size,
          sha256: attachment_sha256,
        }
      : null
  return {
    id: row.id,
    author_role: row.author_role,
    text: row.text,
    attachment,
    created_at: row.created_at.toISOString(),
    mine: row.author_user_id === viewerId,
  }
}
