import { isSupportedLocale, type Locale, localeFromAcceptLanguage } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { addOptOut } from '../profile/notification-opt-outs-repository.ts'
import { type MessageKey, messages } from './notification-messages.ts'
import { optOutLinkKey, readOptOutToken } from './opt-out-links.ts'
import { sendPlainPage } from './plain-page.ts'
import { named } from '../../http/named-plugin.ts'

interface OptOutRequest {
  Params: { token: string }
  Querystring: { lang?: string }
}

/** Per client address, like every guessable secret: a token cannot be guessed, and nobody needs to follow many. */
const linkRateLimit = { rateLimit: { max: 20, timeWindow: 60_000 } }

/** Where the web app keeps the switches, to turn a kind back on. */
const accountPage = '/profile/help/account'

/**
 * `/email-opt-out/:token`, the link at the foot of every optional e-mail
 * (opt-out-links.ts). GET only shows a button, as a mail scanner opening
 * links must turn nothing off; POST turns the category off, whether from
 * that button or from a mail client's one-click unsubscribe (RFC 8058: a
 * POST with `List-Unsubscribe=One-Click`, whose body says nothing else and
 * is not read). No sign-in: the token is the proof. A token this server did
 * not sign answers 404 and changes nothing.
 */
export async function optOutRoutes(app: FastifyInstance): Promise<void> {
  const plugin = named('one-click-opt-out', async (scope: FastifyInstance) => {
    // RFC 8058 allows multipart/form-data; nothing in the body matters, so it is taken as text and ignored.
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    )

    const localeOf = (request: FastifyRequest<OptOutRequest>): Locale =>
      isSupportedLocale(request.query.lang) ? request.query.lang : (localeFromAcceptLanguage(request.headers['accept-language']) ?? 'en_gb')
    const invalid = (reply: FastifyReply, locale: Locale) => {
      const t = (key: MessageKey) => messages[locale][key]
      return sendPlainPage(reply, 404, locale, {
        title: t('emailOptOut.invalid.title'),
        body: t('emailOptOut.invalid.body'),
        link: { href: accountPage, label: t('emailOptOut.accountLink') },
      })
    }
    const tokenOf = async (request: FastifyRequest<OptOutRequest>) =>
      readOptOutToken(await optOutLinkKey(app.services.db), request.params.token)

    scope.get<OptOutRequest>('/email-opt-out/:token', { config: linkRateLimit, schema: { hide: true } }, async (request, reply) => {
      const locale = localeOf(request)
      const token = await tokenOf(request)
      if (!token) return invalid(reply, locale)
      const t = (key: MessageKey) => messages[locale][key]
      return sendPlainPage(reply, 200, locale, {
        title: t(`emailOptOut.${token.category}.title`),
        body: t('emailOptOut.body'),
        form: { action: `/email-opt-out/${request.params.token}?lang=${locale}`, button: t('emailOptOut.button') },
      })
    })

    scope.post<OptOutRequest>('/email-opt-out/:token', { config: linkRateLimit, schema: { hide: true } }, async (request, reply) => {
      const locale = localeOf(request)
      const token = await tokenOf(request)
      // A signed token of an account since deleted turns nothing off either.
      if (!token || !(await addOptOut(app.services.db, token.userId, token.category, app.services.clock.now())))
        return invalid(reply, locale)
      const t = (key: MessageKey) => messages[locale][key]
      return sendPlainPage(reply, 200, locale, {
        title: t('emailOptOut.done.title'),
        body: t('emailOptOut.done.body'),
        link: { href: accountPage, label: t('emailOptOut.accountLink') },
      })
    })
  })
  await app.register(plugin)
}
