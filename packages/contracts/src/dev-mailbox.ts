import { z } from 'zod'

/**
 * The dev mailbox (sandbox mode only, admins): the e-mails the file mailer
 * wrote to DATA_DIR/mail. With SMTP configured there is no mailbox and both
 * calls answer 404.
 */

/** `<epoch ms>-<uuid>`: the file's name; nothing else is accepted, so no id reaches outside the folder. */
export const devMailIdSchema = z
  .string()
  .regex(/^[0-9]{1,15}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a mailbox message id')

export const devMailboxPageSize = 50

/** GET /admin/dev_mailbox: newest first; `after_id` is the last id of the previous page. */
export const devMailboxQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(devMailboxPageSize),
  after_id: devMailIdSchema.optional(),
})
export type DevMailboxQuery = z.input<typeof devMailboxQuerySchema>

export const devMailSummarySchema = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), date: z.string() })
  .meta({ id: 'DevMailSummary' })
export type DevMailSummary = z.infer<typeof devMailSummarySchema>
export const devMailboxSchema = z.array(devMailSummarySchema)

export const devMailAttachmentSchema = z
  .object({ filename: z.string(), content_type: z.string(), size: z.number().int().nonnegative() })
  .meta({ id: 'DevMailAttachment' })

export const devMailSchema = devMailSummarySchema
  .extend({
    from: z.string(),
    reply_to: z.string().nullable(),
    message_id: z.string(),
    text: z.string(),
    /** The HTML alternative as written (untrusted: shown only in a sandboxed frame), or null for a text-only message. */
    html: z.string().nullable(),
    /** What came with it, by name, type and size (the dev mailbox does not serve their content). */
    attachments: z.array(devMailAttachmentSchema),
  })
  .meta({ id: 'DevMail' })
export type DevMail = z.infer<typeof devMailSchema>

export const devMailParamsSchema = z.object({ id: devMailIdSchema })
