import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import type { FastifyReply } from 'fastify'
import { html, type SafeHtml, trustedHtml } from '../sign-in/oidc/html.ts'

/**
 * The small pages behind links in e-mails (stop invitations, turn a kind of
 * e-mail off): a card with a title, a sentence and maybe a button, in the
 * e-mail's language, with no script and nothing that needs a sign-in.
 */

const styles = `
body{margin:0;min-height:100vh;font-family:Roboto,system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.5;color:#1b1f2a;background:#eef1f8}
main{display:flex;justify-content:center;padding:2.5rem 1rem}
.card{width:100%;max-width:28rem;background:#fff;border-radius:16px;box-shadow:0 8px 24px rgba(16,24,40,.08);padding:2rem 1.5rem}
.wordmark{font-size:1.5rem;font-weight:700;color:#2949ce;margin:0 0 1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}
button{display:block;width:100%;font:inherit;font-weight:500;color:#fff;background:#2949ce;border:0;border-radius:8px;padding:.75rem 1rem;cursor:pointer;margin-top:1rem}
button:hover{background:#1f3aa8}
a{color:#2949ce}
:focus-visible{outline:3px solid #2949ce;outline-offset:2px}
`

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
  const markup = html`<!doctype html>
    <html lang="${toLanguageTag(locale)}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta name="referrer" content="no-referrer" />
        <title>${page.title} – Pactum</title>
        <style>
          ${trustedHtml(styles)}
        </style>
      </head>
      <body>
        <main>
          <div class="card">
            <p class="wordmark">Pactum</p>
            <h1>${page.title}</h1>
            <p>${page.body}</p>
            ${form} ${link}
          </div>
        </main>
      </body>
    </html>`
  return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(markup.toString())
}
