import { attachmentContentTypes, maxAttachmentBytes, messageTextSchema } from '@pactum/contracts/messages'
import { z } from 'zod'
import { ApiError } from './api/api-error.ts'

/**
 * The message composer's form (issue 32): a text, a file, or both. The text
 * follows the contract's `messageTextSchema` (1 to 4000 characters, required
 * without a file); the file is checked here for its type and size before it
 * is sent, and the server checks its content again.
 */
export interface MessageFormValues {
  text: string
  file: File | null
}

/** Why a value is refused: the key under `conversation.errors`. */
export type MessageProblem = 'textRequired' | 'textTooLong' | 'wrongType' | 'empty' | 'tooLarge'

const acceptedExtensions = ['jpg', 'jpeg', 'png', 'pdf'] as const
/** For the file picker: what the server accepts, by type and by extension. */
export const attachmentAccept = [...attachmentContentTypes, ...acceptedExtensions.map((extension) => `.${extension}`)].join(',')

/** What is wrong with a chosen file, or null. A browser that gives no type is trusted on the extension; the server sniffs the content anyway. */
export function attachmentProblem(file: Pick<File, 'name' | 'type' | 'size'>): MessageProblem | null {
  const dot = file.name.lastIndexOf('.')
  const extension = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : ''
  const typed = (attachmentContentTypes as readonly string[]).includes(file.type)
  const named = file.type === '' && (acceptedExtensions as readonly string[]).includes(extension)
  if (!typed && !named) return 'wrongType'
  if (file.size === 0) return 'empty'
  if (file.size > maxAttachmentBytes) return 'tooLarge'
  return null
}

function textProblem(text: string, required: boolean): MessageProblem | null {
  if (text.trim() === '') return required ? 'textRequired' : null
  return messageTextSchema.safeParse(text).success ? null : 'textTooLong'
}

export const messageFormSchema = z
  .object({ text: z.string(), file: z.custom<File>((value) => value instanceof File).nullable() })
  .superRefine((values, context) => {
    const text = textProblem(values.text, values.file === null)
    if (text) context.addIssue({ code: 'custom', path: ['text'], message: text })
    const file = values.file && attachmentProblem(values.file)
    if (file) context.addIssue({ code: 'custom', path: ['file'], message: file })
  })

/** The field of the form a server refusal is about (400 on body.text or body.file, 413), or null for one about the whole message. */
export function refusedField(
  error: unknown,
): { field: keyof MessageFormValues; problem: 'textRefused' | 'fileRefused' | 'tooLarge' } | null {
  if (!(error instanceof ApiError)) return null
  if (error.code === 'file_too_large' || error.status === 413) return { field: 'file', problem: 'tooLarge' }
  if (error.code !== 'validation_failed') return null
  const fields = Array.isArray(error.details.fields) ? (error.details.fields as Array<{ field?: unknown }>) : []
  const named = fields.map((entry) => entry.field)
  if (named.includes('body.file')) return { field: 'file', problem: 'fileRefused' }
  if (named.includes('body.text')) return { field: 'text', problem: 'textRefused' }
  return null
}
