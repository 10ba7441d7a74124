import { isSupportedLocale, type Locale, localeFromAcceptLanguage } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type MessageKey, messages } from '../notifications/notification-messages.ts'
import { sendPlainPage } from '../notifications/plain-page.ts'
import { stopInvitations, stopTokenPattern } from './invitation-stops.ts'
import { named } from '../../http/named-plugin.ts'

interface StopRequest {
  Params: { token: string }
  Querystring: { lang?: string }
}

/** Per client address: a token cannot be guessed, and nobody needs to follow many. */
const linkRateLimit = { rateLimit: { max: 20, timeWindow: 60_000 } }

/**
 * `/stop-invitations/:token`, the link in every invitation e-mail
 * (invitation-stops.ts). GET only shows a confirm button, as a mail
 * scanner opening links must stop nothing; POST records the stop, whether
 * from that button or from a mail client's one-click unsubscribe
 * (RFC 8058: a POST with `List-Unsubscribe=One-Click`, form-encoded or
 * multipart, whose body says nothing else and is not read). A plain page
 * with no script, in the e-mail's language.
 */
export async function stopInvitationsRoutes(app: FastifyInstance): Promise<void> {
  const plugin = named('stop-invitations', async (scope: FastifyInstance) => {
    // RFC 8058 allows multipart/form-data; nothing in the body matters, so it is taken as text and ignored.
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    )

    const localeOf = (request: FastifyRequest<StopRequest>): Locale =>
      isSupportedLocale(request.query.lang) ? request.query.lang : (localeFromAcceptLanguage(request.headers['accept-language']) ?? 'en_gb')
    const send = (
      reply: FastifyReply,
      status: number,
      locale: Locale,
      content: { title: MessageKey; body: MessageKey; action?: string },
    ) => {
      const t = (key: MessageKey) => messages[locale][key]
      return sendPlainPage(reply, status, locale, {
        title: t(content.title),
        body: t(content.body),
        ...(content.action ? { form: { action: content.action, button: t('stopInvitations.button') } } : {}),
      })
    }
    const invalid = (reply: FastifyReply, locale: Locale) =>
      send(reply, 404, locale, { title: 'stopInvitations.invalid.title', body: 'stopInvitations.invalid.body' })

    scope.get<StopRequest>('/stop-invitations/:token', { config: linkRateLimit, schema: { hide: true } }, async (request, reply) => {
      const locale = localeOf(request)
      if (!stopTokenPattern.test(request.params.token)) return invalid(reply, locale)
      const action = `/stop-invitations/${request.params.token}?lang=${locale}`
      return send(reply, 200, locale, { title: 'stopInvitations.title', body: 'stopInvitations.body', action })
    })

    scope.post<StopRequest>('/stop-invitations/:token', { config: linkRateLimit, schema: { hide: true } }, async (request, reply) => {
      const locale = localeOf(request)
      if (!stopTokenPattern.test(request.params.token)) return invalid(reply, locale)
      await stopInvitations(app.services.db, request.params.token, app.services.clock.now())
      return send(reply, 200, locale, { title: 'stopInvitations.done.title', body: 'stopInvitations.done.body' })
    })
  })
  await app.register(plugin)
}
