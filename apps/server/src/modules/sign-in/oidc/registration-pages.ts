import type { DevMail } from '../../../adapters/mailer/dev-mailbox.ts'
import { html } from './html.ts'
import { layout, type PageContext } from './pages.ts'

/** The page every valid registration ends on, whether or not the address has an account (pending-registration.ts). */
export function checkInboxPage(
  page: PageContext,
  view: {
    email: string
    /** The file mailer's folder, and the message just written when this request may open it (sent-mail-routes.ts). */
    fileMailer?: { folder: string; messageHref?: string }
  },
): string {
  const { t } = page
  const { fileMailer } = view
  return layout(page, {
    title: t('registration.sent.title'),
    body: html`<h1>${t('registration.sent.title')}</h1>
      <p class="intro">${t('registration.sent.body', { email: view.email })}</p>
      ${
        fileMailer
          ? html`<p class="hint">${t('registration.sent.fileMailer', { folder: fileMailer.folder })}</p>
              ${fileMailer.messageHref ? html`<p><a href="${fileMailer.messageHref}">${t('registration.sent.openMail')}</a></p>` : ''}`
          : ''
      }`,
  })
}

/**
 * The page the e-mailed link opens: one button that creates the account. A
 * GET changes nothing, so mail scanners that open links do not use it up.
 */
export function completeRegistrationPage(page: PageContext, view: { action: string; email: string }): string {
  const { t } = page
  return layout(page, {
    title: t('registration.complete.title'),
    body: html`<h1>${t('registration.complete.title')}</h1>
      <p class="intro">${t('registration.complete.body', { email: view.email })}</p>
      <form method="post" action="${view.action}">
        <button type="submit" autofocus>${t('registration.complete.submit')}</button>
      </form>`,
  })
}

/** An address that got an account meanwhile: the way in is signing in, or a new password. */
export function alreadyRegisteredPage(page: PageContext, view: { signInHref: string; forgotHref: string }): string {
  const { t } = page
  return layout(page, {
    title: t('registration.taken.title'),
    body: html`<h1>${t('registration.taken.title')}</h1>
      <p class="intro">${t('registration.taken.body')}</p>
      <p><a href="${view.signInHref}">${t('registration.ready.link')}</a></p>
      <p><a href="${view.forgotHref}">${t('signIn.forgot')}</a></p>`,
  })
}

/** One message the file mailer wrote, its links clickable (the newcomer's way to the link on a machine of their own). */
export function sentMailPage(page: PageContext, view: { mail: DevMail; folder: string }): string {
  const { t } = page
  const { mail } = view
  const body = mail.text
    .split(/(https?:\/\/[^\s<>"]+)/)
    .map((part, index) => (index % 2 === 1 ? html`<a href="${part}">${part}</a>` : part))
  return layout(page, {
    title: t('sentMail.title'),
    body: html`<h1>${mail.subject}</h1>
      <p class="hint">${t('sentMail.note', { folder: view.folder })}</p>
      <dl class="mail-headers">
        <dt>${t('sentMail.from')}</dt>
        <dd>${mail.from}</dd>
        <dt>${t('sentMail.to')}</dt>
        <dd>${mail.to}</dd>
        <dt>${t('sentMail.subject')}</dt>
        <dd>${mail.subject}</dd>
      </dl>
      <pre class="mail-text">${body}</pre>`,
  })
}
