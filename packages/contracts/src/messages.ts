import { z } from 'zod'

/**
 * The conversation of a transaction (issue 32 item 1): the buyer and the
 * seller write to each other, and an admin joins once there is a case.
 * A message is text, an attachment (JPEG, PNG or PDF), or both.
 */

/** The largest attachment, in bytes (10 MB, as identity documents). */
export const maxAttachmentBytes = 10_000_000

/** What an attachment may be, by its content (images re-encoded, PDFs as received). */
export const attachmentContentTypes = ['image/jpeg', 'image/png', 'application/pdf'] as const
export type AttachmentContentType = (typeof attachmentContentTypes)[number]

export const messageTextSchema = z.string().trim().min(1).max(4000)

/** POST …/messages as JSON. The multipart form carries the same `text` (optional there) and the `file`. */
export const postMessageBodySchema = z.object({ text: messageTextSchema }).meta({ id: 'PostMessageBody' })
export type PostMessageBody = z.infer<typeof postMessageBodySchema>

/** The multipart form of POST …/messages, for the OpenAPI document (a multipart body is read from its stream, not by a schema). */
export const postMessageFormSchema = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'a JPEG, PNG or PDF (checked by content), 1 to 10,000,000 bytes' }),
    text: messageTextSchema.optional(),
  })
  .meta({ id: 'PostMessageForm' })

export const listMessagesQuerySchema = z.object({
  after_id: z.string().optional().meta({ description: 'the id of the last message already shown: only newer ones are answered' }),
  limit: z.coerce.number().int().min(1).max(100).default(100),
})

export const messageParamsSchema = z.object({ id: z.string(), message_id: z.string() })

export const attachmentSchema = z
  .object({
    name: z.string().meta({ description: 'the file name as sent, cleaned; show it as text only' }),
    content_type: z.enum(attachmentContentTypes),
    size: z.number().int().meta({ description: 'bytes as stored (images after re-encoding)' }),
    sha256: z.string().meta({ description: 'hex SHA-256 of the bytes as stored, as written into the history' }),
  })
  .meta({ id: 'MessageAttachment' })

export const messageSchema = z
  .object({
    id: z.string(),
    author_role: z.enum(['buyer', 'seller', 'admin']),
    text: z.string().nullable(),
    attachment: attachmentSchema.nullable(),
    created_at: z.string(),
    mine: z.boolean().meta({ description: 'written by the caller' }),
  })
  .meta({ id: 'Message' })
export type MessageView = z.infer<typeof messageSchema>

/** Oldest first: a page continues with `after_id` = the last one's id. */
export const messageListSchema = z.array(messageSchema).meta({ id: 'MessageList' })
