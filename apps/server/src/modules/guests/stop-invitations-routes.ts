import { isSupportedLocale, type Locale, localeFromAcceptLanguage, toLanguageTag } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type MessageKey, messages } from '../notifications/notification-messages.ts'
import { html, trustedHtml } from '../sign-in/oidc/html.ts'
import { stopInvitations, stopTokenPattern } from './invitation-stops.ts'

interface StopRequest {
  Params: { token: string }
  Querystring: { lang?: string }
}

/** Per client address: a token cannot be guessed, and nobody needs to follow many. */
const linkRateLimit = { rateLimit: { max: 20, timeWindow: 60_000 } }

const styles = `
body{margin:0;min-height:100vh;font-family:Roboto,system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.5;color:#1b1f2a;background:#eef1f8}
main{display:flex;justify-content:center;padding:2.5rem 1rem}
.card{width:100%;max-width:28rem;background:#fff;border-radius:16px;box-shadow:0 8px 24px rgba(16,24,40,.08);padding:2rem 1.5rem}
.wordmark{font-size:1.5rem;font-weight:700;color:#2949ce;margin:0 0 1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}
button{display:block;width:100%;font:inherit;font-weight:500;color:#fff;background:#2949ce;border:0;border-radius:8px;padding:.75rem 1rem;cursor:pointer;margin-top:1rem}
button:hover{background:#1f3aa8}
:focus-visible{outline:3px solid #2949ce;outline-offset:2px}
`

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
  await app.register(async (scope) => {
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
      const form = content.action
        ? html`<form method="post" action="${content.action}"><button type="submit">${t('stopInvitations.button')}</button></form>`
        : ''
      const page = html`<!doctype html>
        <html lang="${toLanguageTag(locale)}">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta name="robots" content="noindex" />
            <meta name="referrer" content="no-referrer" />
            <title>${t(content.title)} – Pactum</title>
            <style>
              ${trustedHtml(styles)}
            </style>
          </head>
          <body>
            <main>
              <div class="card">
                <p class="wordmark">Pactum</p>
                <h1>${t(content.title)}</h1>
                <p>${t(content.body)}</p>
                ${form}
              </div>
            </main>
          </body>
        </html>`
      return reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page.toString())
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
}
