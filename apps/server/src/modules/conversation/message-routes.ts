import multipart from '@fastify/multipart'
import { errorBodySchema } from '@pactum/contracts/errors'
import {
  listMessagesQuerySchema,
  maxAttachmentBytes,
  messageListSchema,
  messageParamsSchema,
  messageSchema,
  messageTextSchema,
  postMessageBodySchema,
} from '@pactum/contracts/messages'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { DocumentStore } from '../../adapters/document-store/port.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { fieldError } from '../../errors.ts'
import { adminOf, userOf } from '../../http/plugins/authentication.ts'
import { inputRuleBreach } from '../../http/plugins/input-rules.ts'
import { readFileUpload } from '../../http/multipart-upload.ts'
import { perPersonHourly } from '../../http/per-person-limit.ts'
import { usageLimit, useWithinLimit } from '../../usage-limits.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import { kindRoutes, transactionKinds } from '../transactions/routes/kinds.ts'
import { checkAfterId, idParams, transactionErrors } from '../transactions/routes/route-parts.ts'
import type { Reader } from './conversation-access.ts'
import { attachmentDisposition } from './message-attachments.ts'
import { openAttachment } from './open-attachment.ts'
import { type NewMessage, postMessage } from './post-message.ts'
import { readMessages } from './read-messages.ts'

const postErrors = { ...transactionErrors, 413: errorBodySchema, 415: errorBodySchema, 429: errorBodySchema }
const attachmentResponse = {
  description: 'The file as stored (images re-encoded), with `Content-Disposition: attachment`',
  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
}
const multipartDescription =
  'JSON `{text}`, or multipart/form-data with the file in `file` (a JPEG, PNG or PDF by content, 1 to 10,000,000 bytes; ' +
  'images are re-encoded, which drops their metadata) and an optional `text`. Either party once both take part; ' +
  'the history records the message (an attachment with its SHA-256); the other side is e-mailed at most once per 10 minutes.'

/**
 * The conversation of a transaction (issue 32 item 1), for both kinds under
 * their prefixes, and for admins under /admin once there is a case. Thin:
 * each hands over to one use case.
 */
export function messageRoutes(deps: () => TransactionDeps, documents: DocumentStore, jobs: JobQueue): FastifyPluginAsyncZod {
  return async (app) => {
    // Limits enforced while streaming: a bigger file is cut off, never buffered whole.
    await app.register(multipart, { limits: { fileSize: maxAttachmentBytes, files: 1, fields: 2, fieldSize: 16_384, parts: 3 } })
    const conversationDeps = () => ({ ...deps(), documents, jobs })

    const routes: Array<{ base: string; tag: string; reader: (request: FastifyRequest) => Reader; admin: boolean }> = [
      ...transactionKinds.map((kind) => ({
        base: `${kindRoutes[kind].prefix}/transactions/:id/messages`,
        tag: kindRoutes[kind].tag,
        reader: (request: FastifyRequest): Reader => ({ userId: userOf(request).id, via: kind }),
        admin: false,
      })),
      {
        base: '/admin/transactions/:id/messages',
        tag: 'admin',
        reader: (request) => ({ userId: adminOf(request).id, via: 'admin' }),
        admin: true,
      },
    ]

    for (const { base, tag, reader, admin } of routes) {
      const secured = { security: [{ bearer: [] }], tags: [tag] }
      const onRequest = admin ? app.authenticateAdmin : app.authenticate

      app.get(
        base,
        {
          onRequest,
          schema: {
            ...secured,
            summary: 'The conversation, oldest first; the messages answered count as read for the caller',
            params: idParams,
            querystring: listMessagesQuerySchema,
            response: { 200: messageListSchema, ...transactionErrors },
          },
        },
        async (request) => {
          const { after_id: afterId, limit } = request.query
          checkAfterId(afterId, 'message')
          return readMessages(app.services.db, reader(request), request.params.id, { afterId, limit })
        },
      )

      app.post(
        base,
        {
          onRequest,
          config: perPersonHourly('messages', 60),
          schema: {
            ...secured,
            summary: admin
              ? 'Write to both parties (only once the transaction has a complaint: 409 not_complained before)'
              : 'Write to the other party: a text, a file, or both',
            description: admin ? 'JSON `{text}`; both parties are e-mailed at most once per 10 minutes.' : multipartDescription,
            ...(admin ? {} : { consumes: ['application/json', 'multipart/form-data'] }),
            params: idParams,
            // Optional for the multipart form, which is read from its stream (readMessageForm) rather than by a schema.
            body: admin ? postMessageBodySchema : postMessageBodySchema.nullish(),
            response: { 201: messageSchema, ...postErrors },
          },
        },
        async (request, reply) => {
          const writer = reader(request)
          let input: NewMessage
          if (!admin && request.isMultipart()) {
            const { db, clock, config } = app.services
            await useWithinLimit(db, clock.now(), usageLimit(config.limits, 'message_attachments'), `user:${writer.userId}`)
            input = await readMessageForm(request)
          } else {
            if (!request.body) throw fieldError('body.text', 'Required: the message as JSON {text}, or a multipart form with a file')
            input = { text: request.body.text, file: null }
          }
          return reply.status(201).send(await postMessage(conversationDeps(), writer, request.params.id, input))
        },
      )

      app.get(
        `${base}/:message_id/attachment`,
        {
          onRequest,
          schema: {
            ...secured,
            summary: "A message's attachment, as a download",
            params: messageParamsSchema,
            response: { 200: attachmentResponse, ...transactionErrors },
          },
        },
        async (request, reply) =>
          sendAttachment(reply, await openAttachment(conversationDeps(), reader(request), request.params.id, request.params.message_id)),
      )
    }
  }
}

function sendAttachment(reply: FastifyReply, attachment: Awaited<ReturnType<typeof openAttachment>>) {
  return reply
    .header('content-type', attachment.contentType)
    .header('content-length', String(attachment.size))
    .header('content-disposition', attachmentDisposition(attachment.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(attachment.stream)
}

/** The form's `file` and optional `text`, read from the stream; a file over the limit stops the read. */
async function readMessageForm(request: FastifyRequest): Promise<NewMessage> {
  let text: string | null = null
  const textError = () => fieldError('body.text', 'From 1 to 4000 characters')
  const file = await readFileUpload(request, {
    fields: {
      text: (value) => {
        const parsed = messageTextSchema.safeParse(value)
        if (!parsed.success) throw textError()
        const breach = inputRuleBreach(parsed.data)
        if (breach) throw fieldError('body.text', breach.message)
        text = parsed.data
      },
    },
    maxBytes: maxAttachmentBytes,
    defaultName: 'attachment',
    tooManyParts: 'One file and a text only',
    oversizedField: textError,
  })
  if (!file) throw fieldError('body.file', 'Required in a multipart form: the file in the field "file" (send text alone as JSON)')
  return { text, file }
}
