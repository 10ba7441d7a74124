import path from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { DevMailbox } from '../../../adapters/mailer/dev-mailbox.ts'
import type { PageContext, SendPage } from './pages.ts'
import { sentMailPage } from './registration-pages.ts'

/**
 * `<issuer>/sent-mail/:id`: one message the file mailer wrote, for the
 * newcomer who ran `npm start` and registered (docs/decisions/034-registration-answers-the-same.md, "The file
 * mailer's link"). There only with the file mailer, and only to a browser on
 * the server's own machine: it would show anyone else whether an address
 * has an account (the owner's notice or the link), which is why it is never
 * there with SMTP.
 */

/**
 * Only ids the file mailer drew at random (a version 4 UUID): a message sent
 * with a `key` has an id derived from that key, which someone could work out.
 */
const randomMailId = /^[0-9]{1,15}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The mailbox id of what the file mailer just wrote (its file's name), when that message may be linked to. */
export function linkableMailId(sent: { file?: string }): string | undefined {
  if (!sent.file) return undefined
  const id = path.basename(sent.file, '.eml')
  return randomMailId.test(id) ? id : undefined
}

/**
 * A request from this machine, straight to the server: the socket is
 * loopback and no proxy forwarded it (a proxy on this machine would make
 * every visitor look local, but it says whom it forwarded for).
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? ''
  const loopback = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.test(address)
  const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((name) => request.headers[name] !== undefined)
  return loopback && !forwarded
}

export function sentMailRoutes(
  scope: FastifyInstance,
  deps: {
    mailbox: DevMailbox
    pageContext: (request: FastifyRequest) => PageContext
    sendPage: SendPage
  },
): void {
  scope.get<{ Params: { id: string } }>('/sent-mail/:id', async (request, reply) => {
    // Not found, whatever the reason: a remote visitor learns nothing about the folder.
    if (!isLocalRequest(request) || !randomMailId.test(request.params.id)) return reply.callNotFound()
    const mail = await deps.mailbox.get(request.params.id)
    if (!mail) return reply.callNotFound()
    return deps.sendPage(reply, 200, sentMailPage(deps.pageContext(request), { mail, folder: deps.mailbox.folder }))
  })
}
