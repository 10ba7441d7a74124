import type { FastifyRequest } from 'fastify'
import { AppError, fieldError } from '../errors.ts'
import { inputRuleBreach } from './plugins/input-rules.ts'

export interface UploadedFile {
  bytes: Buffer
  fileName: string
}

/**
 * One uploaded file in the field `file` and the text fields beside it, read
 * from a multipart/form-data stream (identity documents, message
 * attachments). A multipart body passes no schema, so the rules every other
 * input obeys are applied here; the parser's own refusals (too large, too
 * many parts, cut short) become field errors, never a 500.
 */
export async function readFileUpload(
  request: FastifyRequest,
  form: {
    /** Each text field the form takes, by name; it throws the field's error for a bad value. Others are ignored. */
    readonly fields: Readonly<Record<string, (value: string) => void>>
    readonly maxBytes: number
    /** The name a file without one is stored under. */
    readonly defaultName: string
    /** What the form holds, for a body with too many parts ("One file and the side only"). */
    readonly tooManyParts: string
    /** A text field over the parser's size limit, if the form has one: that field's error. */
    readonly oversizedField?: () => AppError
  },
): Promise<UploadedFile | null> {
  let file: UploadedFile | null = null
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        form.fields[part.fieldname]?.(String(part.value))
      } else if (part.fieldname === 'file') {
        const breach = inputRuleBreach(part.filename)
        if (breach) throw fieldError('body.file', `the file name: ${breach.message}`)
        file = { bytes: await part.toBuffer(), fileName: part.filename || form.defaultName }
      } else {
        // Drain a file under another name so the stream can go on.
        await part.toBuffer()
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fieldError('body.file', `The file is larger than ${form.maxBytes} bytes`, 'file_too_large')
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw fieldError('body', form.tooManyParts)
    if (form.oversizedField && (code === 'FST_PROTO_VIOLATION' || code === 'FST_FIELD_SIZE_LIMIT')) throw form.oversizedField()
    // Anything else the parser throws is a malformed body (no boundary, cut short): the client's error, not a 500.
    throw fieldError('body', 'A complete multipart/form-data body')
  }
  return file
}
