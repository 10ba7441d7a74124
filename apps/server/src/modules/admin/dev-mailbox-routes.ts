import { devMailboxQuerySchema, devMailboxSchema, devMailParamsSchema, devMailSchema } from '@pactum/contracts/dev-mailbox'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { DevMailbox } from '../../adapters/mailer/dev-mailbox.ts'
import { AppError } from '../../errors.ts'
import { adminOf } from '../../http/plugins/authentication.ts'

const secured = { security: [{ bearer: [] }], tags: ['admin'] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema }

function noMailbox(): AppError {
  return new AppError('not_found', 'There is no dev mailbox: e-mail goes out over SMTP')
}

/**
 * The dev mailbox (sandbox mode only): what the file mailer wrote, for
 * admins. `mailbox` is undefined when SMTP is configured, and then both
 * calls answer 404, as for an unknown message.
 */
export function devMailboxRoutes(mailbox: DevMailbox | undefined): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/dev_mailbox',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'The e-mails the file mailer wrote, newest first (sandbox mode only)',
          querystring: devMailboxQuerySchema,
          response: { 200: devMailboxSchema, ...errors },
        },
      },
      async (request) => {
        adminOf(request)
        if (!mailbox) throw noMailbox()
        const mails = await mailbox.list({
          limit: request.query.limit,
          ...(request.query.after_id ? { afterId: request.query.after_id } : {}),
        })
        return mails.map((mail) => ({ id: mail.id, to: mail.to, subject: mail.subject, date: mail.date.toISOString() }))
      },
    )

    app.get(
      '/admin/dev_mailbox/:id',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'One e-mail the file mailer wrote (sandbox mode only)',
          params: devMailParamsSchema,
          response: { 200: devMailSchema, ...errors },
        },
      },
      async (request) => {
        adminOf(request)
        if (!mailbox) throw noMailbox()
        const mail = await mailbox.get(request.params.id)
        if (!mail) throw new AppError('not_found', 'No such message in the dev mailbox')
        return {
          id: mail.id,
          to: mail.to,
          from: mail.from,
          reply_to: mail.replyTo,
          subject: mail.subject,
          date: mail.date.toISOString(),
          message_id: mail.messageId,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments.map((attachment) => ({
            filename: attachment.filename,
            content_type: attachment.contentType,
            size: attachment.content.length,
          })),
        }
      },
    )
  }
}
