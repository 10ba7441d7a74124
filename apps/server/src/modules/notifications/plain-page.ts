import type { Locale } from '@pactum/domain/locales'
import type { FastifyReply } from 'fastify'
import { html, type SafeHtml } from '../sign-in/oidc/html.ts'
import { layout } from '../sign-in/oidc/pages.ts'
import { translator } from '../sign-in/oidc/translations.ts'

/**
 * The small pages behind links in e-mails (stop invitations, turn a kind of
 * e-mail off): a title, a sentence and maybe a button, in the e-mail's
 * language, with no script and nothing that needs a sign-in. They wear the
 * sign-in pages' shell (the same card, mark and styles), so Pactum's
 * server-rendered pages look alike and are styled in one place.
 */

export interface PlainPage {
  title: string
  body: string
  /** A button that POSTs to `action`. */
  form?: { action: string; button: string }
  /** A link under the text. */
  link?: { href: string; label: string }
}

export function sendPlainPage(reply: FastifyReply, status: number, locale: Locale, page: PlainPage): FastifyReply {
  const form: SafeHtml | string = page.form
    ? html`<form method="post" action="${page.form.action}"><button type="submit">${page.form.button}</button></form>`
    : ''
  const link: SafeHtml | string = page.link ? html`<p><a href="${page.link.href}">${page.link.label}</a></p>` : ''
  const markup = layout(
    { locale, t: translator(locale) },
    {
      title: page.title,
      body: html`<h1>${page.title}</h1>
        <p class="intro">${page.body}</p>
        ${form} ${link}`,
    },
  )
  return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(markup)
}
