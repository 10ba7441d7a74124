import { passwordMaxLength, passwordMinLength } from '@pactum/domain/password'
import { languageNames, type Locale, supportedLocales, toLanguageTag } from '@pactum/domain/locales'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { html, type SafeHtml, trustedHtml } from './html.ts'
import type { MessageKey, Translate } from './translations.ts'

/**
 * Server-rendered pages of the embedded sign-in: plain HTML and CSS,
 * readable at 375 px, every control labelled. The only script is the
 * sign-in page's passkey button (files from /oidc/assets: the
 * Content-Security-Policy allows none inline); without it the button stays
 * hidden and the password form works as before.
 */
/** Writes a page as the answer, with the sign-in pages' headers. */
export type SendPage = (reply: FastifyReply, status: number, body: string) => FastifyReply

/** What the pages an e-mailed link opens need (confirming an address, resetting a password). */
export interface LinkPageDeps {
  db: Kysely<Database>
  clock: Clock
  basePath: string
  /** Where "continue" leads when no sign-in is waiting: the web app. */
  home: string
  /** The page's language and texts; `chosen` is the language the link names. */
  pageContext: (request: FastifyRequest, chosen?: Locale) => PageContext
  sendPage: SendPage
}

export interface PageContext {
  locale: Locale
  t: Translate
  /** The URL of this page in another language; none hides the switcher. */
  languageHref?: (locale: Locale) => string
}

const styles = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;font-family:Roboto,system-ui,-apple-system,"Segoe UI",sans-serif;font-size:1rem;line-height:1.5;color:#1b1f2a;background:#eef1f8}
main{display:flex;flex-direction:column;align-items:center;padding:2.5rem 1rem}
.card{width:100%;max-width:28rem;background:#fff;border-radius:16px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 8px 24px rgba(16,24,40,.08);padding:2rem 1.5rem}
@media (min-width:480px){.card{padding:2.5rem 2.5rem 2rem}}
.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 .25rem}
.brand svg{flex:none}
.wordmark{font-size:1.5rem;font-weight:700;letter-spacing:-.01em;color:#2949ce}
.tagline{margin:0 0 1.5rem;color:#4a5163;font-size:.875rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .5rem}
.intro{margin:0 0 1.5rem;color:#3d4455}
.field{margin:0 0 1.25rem}
.names{display:grid;gap:0 1rem}
@media (min-width:480px){.names{grid-template-columns:1fr 1fr}}
label{display:block;font-weight:500;margin:0 0 .35rem}
input{display:block;width:100%;font:inherit;color:inherit;padding:.65rem .75rem;border:1px solid #6b7280;border-radius:8px;background:#fff}
input[aria-invalid="true"]{border-color:#b42318;border-width:2px}
.hint{margin:.35rem 0 0;font-size:.875rem;color:#4a5163}
.error{margin:.35rem 0 0;font-size:.875rem;color:#b42318;font-weight:500}
ul.error{padding-left:1.1rem}
.alert{margin:0 0 1.25rem;padding:.75rem 1rem;border-radius:8px;background:#fef3f2;border:1px solid #b42318;color:#8a1c12}
.alert p{margin:0}
button{display:block;width:100%;font:inherit;font-weight:500;color:#fff;background:#2949ce;border:0;border-radius:8px;padding:.75rem 1rem;cursor:pointer;margin-top:.5rem}
button:hover{background:#1f3aa8}
a{color:#2949ce;text-underline-offset:.15em}
a:hover{color:#1f3aa8}
.alert a{color:#8a1c12;font-weight:500}
:focus-visible{outline:3px solid #2949ce;outline-offset:2px}
input:focus-visible{outline-offset:1px}
.switch{margin:1.5rem 0 0;text-align:center;color:#3d4455}
.passkey{margin:1.25rem 0 0}
.passkey .or{margin:0 0 .5rem;text-align:center;color:#4a5163;font-size:.875rem}
button.secondary{color:#2949ce;background:#fff;border:1px solid #2949ce}
button.secondary:hover{background:#eef1fb;color:#1f3aa8}
.aside{margin:-.5rem 0 1.25rem;font-size:.875rem}
.mail-headers{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0;font-size:.875rem}
.mail-headers dt{font-weight:500}
.mail-headers dd{margin:0;overflow-wrap:anywhere}
.mail-text{white-space:pre-wrap;overflow-wrap:anywhere;font:inherit;margin:0;padding:1rem;background:#f6f7fb;border-radius:8px}
.languages{margin:1.5rem 0 0;max-width:28rem;width:100%}
.languages h2{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.languages ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem .5rem}
.languages a{display:inline-block;padding:.35rem .5rem;font-size:.875rem;color:#2b3345;text-decoration:none;border-radius:6px}
.languages a:hover{text-decoration:underline}
.languages a[aria-current="true"]{font-weight:700;color:#2949ce;text-decoration:underline}
`

/** The mark: two hands of a deal meeting in a circle, in the primary colour. Decorative next to the name. */
// The same mark as the web app's (apps/web/src/components/pactum-logo.tsx), so the front door matches the house.
const logo = html`<svg width="36" height="36" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
  <rect width="48" height="48" rx="12" fill="#2949ce" />
  <path d="M16 36V12h10a8 8 0 0 1 0 16H16" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round" />
  <circle cx="34.5" cy="35" r="4" fill="#5fe3a1" />
</svg>`

export function layout(page: PageContext, content: { title: string; body: SafeHtml }): string {
  const { locale, t } = page
  const languages = page.languageHref
    ? html`<nav class="languages" aria-labelledby="languages-heading">
        <h2 id="languages-heading">${t('language.label')}</h2>
        <ul>
          ${supportedLocales.map(
            (option) =>
              html`<li>
                <a
                  href="${page.languageHref!(option)}"
                  hreflang="${toLanguageTag(option)}"
                  lang="${toLanguageTag(option)}"
                  ${option === locale ? html` aria-current="true"` : ''}
                  >${languageNames[option]}</a
                >
              </li>`,
          )}
        </ul>
      </nav>`
    : ''
  return html`<!doctype html>
    <html lang="${toLanguageTag(locale)}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${content.title} – Pactum</title>
        <link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48" />
        <style>
          ${trustedHtml(styles)}
        </style>
      </head>
      <body>
        <main>
          <div class="card">
            <p class="brand">${logo}<span class="wordmark">Pactum</span></p>
            <p class="tagline">${t('brand.tagline')}</p>
            ${content.body}
          </div>
          ${languages}
        </main>
      </body>
    </html> `.value
}

export type FieldErrors = Partial<Record<'email' | 'password' | 'firstName' | 'lastName', SafeHtml | string | string[]>>

interface FieldOptions {
  name: 'email' | 'password' | 'firstName' | 'lastName' | 'code'
  label: string
  type: string
  autocomplete: string
  /** The keyboard a phone shows (a code is digits). */
  inputMode?: 'numeric'
  value?: string
  error?: SafeHtml | string | string[] | undefined
  hint?: string
  autofocus?: boolean
  maxLength?: number
}

function field(options: FieldOptions): SafeHtml {
  const { name, error, hint } = options
  const errorId = `${name}-error`
  const hintId = `${name}-hint`
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ')
  const errorMarkup = !error
    ? ''
    : Array.isArray(error)
      ? html`<ul class="error" id="${errorId}">
          ${error.map((item) => html`<li>${item}</li>`)}
        </ul>`
      : html`<p class="error" id="${errorId}">${error}</p>`
  return html`<div class="field">
    <label for="${name}">${options.label}</label>
    <input
      id="${name}"
      name="${name}"
      type="${options.type}"
      autocomplete="${options.autocomplete}"
      required${
        options.value !== undefined ? html` value="${options.value}"` : ''
      }${options.maxLength ? html` maxlength="${options.maxLength}"` : ''}${options.inputMode ? html` inputmode="${options.inputMode}"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${
        error ? html` aria-invalid="true"` : ''
      }${options.autofocus ? html` autofocus` : ''}
    />
    ${hint ? html`<p class="hint" id="${hintId}">${hint}</p>` : ''}${errorMarkup}
  </div>`
}

function alert(message: SafeHtml | string | undefined): SafeHtml | string {
  return message ? html`<div class="alert" role="alert"><p>${message}</p></div>` : ''
}

export interface SignInView {
  action: string
  registerHref: string
  /** Where the passkey button asks for its options and sends the browser's answer. */
  passkey?: { optionsUrl: string; action: string }
  forgotHref: string
  email?: string
  errors?: FieldErrors
  formError?: SafeHtml | string
}

export function signInPage(page: PageContext, view: SignInView): string {
  const { t } = page
  const errors = view.errors ?? {}
  const focusPassword = Boolean(view.email) && !errors.email
  return layout(page, {
    title: t('signIn.title'),
    body: html`<h1>${t('signIn.heading')}</h1>
      <p class="intro">${t('signIn.intro')}</p>
      ${alert(view.formError)}
      <form method="post" action="${view.action}" novalidate>
        ${field({ name: 'email', label: t('field.email'), type: 'email', autocomplete: 'username', value: view.email ?? '', error: errors.email, autofocus: !focusPassword, maxLength: 254 })}
        ${field({ name: 'password', label: t('field.password'), type: 'password', autocomplete: 'current-password', error: errors.password, autofocus: focusPassword, maxLength: passwordMaxLength })}
        <p class="aside"><a href="${view.forgotHref}">${t('signIn.forgot')}</a></p>
        <button type="submit">${t('signIn.submit')}</button>
      </form>
      ${view.passkey ? passkeyButton(page, view.passkey, 'passkey.signIn') : ''}
      <p class="switch">${t('signIn.noAccount')} <a href="${view.registerHref}">${t('signIn.createAccount')}</a></p>`,
  })
}

/** Hidden until passkey-sign-in.js finds WebAuthn in the browser. */
function passkeyButton(page: PageContext, passkey: { optionsUrl: string; action: string }, label: MessageKey, or = true): SafeHtml {
  const { t } = page
  return html`<div class="passkey" id="passkey" hidden data-options-url="${passkey.optionsUrl}" data-failed="${t('passkey.failed')}">
      ${or ? html`<p class="or">${t('passkey.or')}</p>` : ''}
      <button type="button" class="secondary" id="passkey-sign-in">${t(label)}</button>
      <p class="error" id="passkey-error" role="alert" hidden></p>
    </div>
    <form method="post" action="${passkey.action}" id="passkey-form" hidden><input type="hidden" name="credential" /></form>
    <script src="/oidc/assets/simplewebauthn-browser.js" defer></script>
    <script src="/oidc/assets/passkey-sign-in.js" defer></script>`
}

export interface SecondFactorView {
  /** Where the authenticator app's code goes; none when the account has only passkeys. */
  codeAction?: string
  passkey?: { optionsUrl: string; action: string }
  startOverHref: string
  codeError?: string
  formError?: string
}

/**
 * The second step of a sign-in, after a right password (second-factor.ts):
 * the authenticator app's code, or the account's passkey.
 */
export function secondFactorPage(page: PageContext, view: SecondFactorView): string {
  const { t } = page
  return layout(page, {
    title: t('secondFactor.title'),
    body: html`<h1>${t('secondFactor.heading')}</h1>
      <p class="intro">${t(view.codeAction ? 'secondFactor.introCode' : 'secondFactor.introPasskey')}</p>
      ${alert(view.formError)}
      ${
        view.codeAction
          ? html`<form method="post" action="${view.codeAction}" novalidate>
              ${field({ name: 'code', label: t('secondFactor.code'), type: 'text', inputMode: 'numeric', autocomplete: 'one-time-code', error: view.codeError, hint: t('secondFactor.codeHint'), autofocus: true, maxLength: 8 })}
              <button type="submit">${t('secondFactor.submit')}</button>
            </form>`
          : ''
      }
      ${view.passkey ? passkeyButton(page, view.passkey, view.codeAction ? 'passkey.useInstead' : 'passkey.use', Boolean(view.codeAction)) : ''}
      <p class="switch"><a href="${view.startOverHref}">${t('secondFactor.startOver')}</a></p>`,
  })
}

export interface RegisterView {
  action: string
  signInHref: string
  values?: { firstName?: string; lastName?: string; email?: string }
  errors?: FieldErrors
  formError?: SafeHtml | string
}

export function registerPage(page: PageContext, view: RegisterView): string {
  const { t } = page
  const errors = view.errors ?? {}
  const values = view.values ?? {}
  const firstInvalid = (['firstName', 'lastName', 'email', 'password'] as const).find((name) => errors[name])
  return layout(page, {
    title: t('register.title'),
    body: html`<h1>${t('register.heading')}</h1>
      <p class="intro">${t('register.intro')}</p>
      ${alert(view.formError)}
      <form method="post" action="${view.action}" novalidate>
        <div class="names">
          ${field({ name: 'firstName', label: t('field.firstName'), type: 'text', autocomplete: 'given-name', value: values.firstName ?? '', error: errors.firstName, autofocus: firstInvalid ? firstInvalid === 'firstName' : true, maxLength: nameMaxLength })}
          ${field({ name: 'lastName', label: t('field.lastName'), type: 'text', autocomplete: 'family-name', value: values.lastName ?? '', error: errors.lastName, autofocus: firstInvalid === 'lastName', maxLength: nameMaxLength })}
        </div>
        ${field({ name: 'email', label: t('field.email'), type: 'email', autocomplete: 'email', value: values.email ?? '', error: errors.email, autofocus: firstInvalid === 'email', maxLength: 254 })}
        ${field({ name: 'password', label: t('field.password'), type: 'password', autocomplete: 'new-password', error: errors.password, hint: t('password.rule', { min: passwordMinLength }), autofocus: firstInvalid === 'password', maxLength: passwordMaxLength })}
        <button type="submit">${t('register.submit')}</button>
      </form>
      <p class="switch">${t('register.haveAccount')} <a href="${view.signInHref}">${t('register.signIn')}</a></p>`,
  })
}

export const nameMaxLength = 100

/** The way back to the web app that most message pages offer. */
export function backToPactum(home: string) {
  return { href: home, label: 'link.backToPactum' } as const
}

/** A page with a heading, a sentence and one way onwards (expired interaction, errors, signed out). */
export function messagePage(
  page: PageContext,
  view: {
    title: MessageKey
    /** The page's title, unless the heading says more. */
    heading?: MessageKey
    body: MessageKey
    bodyValues?: Record<string, string | number>
    link?: { href: string; label: MessageKey }
  },
): string {
  const { t } = page
  return layout(page, {
    title: t(view.title),
    body: html`<h1>${t(view.heading ?? view.title)}</h1>
      <p class="intro">${t(view.body, view.bodyValues)}</p>
      ${view.link ? html`<p><a href="${view.link.href}">${t(view.link.label)}</a></p>` : ''}`,
  })
}

/** RP-initiated logout: a real button that submits oidc-provider's own (xsrf-carrying) form. */
export function logoutPage(page: PageContext, view: { providerForm: SafeHtml; cancelHref: string }): string {
  const { t } = page
  return layout(page, {
    title: t('logout.title'),
    body: html`<h1>${t('logout.heading')}</h1>
      <p class="intro">${t('logout.body')}</p>
      ${view.providerForm}
      <button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t('logout.submit')}</button>
      <p class="switch"><a href="${view.cancelHref}">${t('link.backToPactum')}</a></p>`,
  })
}

/**
 * The page an e-mailed confirmation link opens: a button that confirms. A GET
 * changes nothing, so mail scanners that open links do not confirm for the person.
 */
export function confirmEmailPage(page: PageContext, view: { action: string }): string {
  const { t } = page
  return layout(page, {
    title: t('confirmEmail.title'),
    body: html`<h1>${t('confirmEmail.title')}</h1>
      <p class="intro">${t('confirmEmail.body')}</p>
      <form method="post" action="${view.action}">
        <button type="submit" autofocus>${t('confirmEmail.submit')}</button>
      </form>`,
  })
}

/** "Forgot your password?": the address to send the link to. */
export function forgotPasswordPage(
  page: PageContext,
  view: { action: string; backHref: string; email?: string; errors?: FieldErrors },
): string {
  const { t } = page
  const errors = view.errors ?? {}
  return layout(page, {
    title: t('forgot.title'),
    body: html`<h1>${t('forgot.heading')}</h1>
      <p class="intro">${t('forgot.intro')}</p>
      <form method="post" action="${view.action}" novalidate>
        ${field({ name: 'email', label: t('field.email'), type: 'email', autocomplete: 'username', value: view.email ?? '', error: errors.email, autofocus: true, maxLength: 254 })}
        <button type="submit">${t('forgot.submit')}</button>
      </form>
      <p class="switch"><a href="${view.backHref}">${t('forgot.backToSignIn')}</a></p>`,
  })
}

/** The page an e-mailed reset link opens: the new password (same rules as at registration). */
export function resetPasswordPage(page: PageContext, view: { action: string; errors?: FieldErrors }): string {
  const { t } = page
  const errors = view.errors ?? {}
  return layout(page, {
    title: t('resetPassword.title'),
    body: html`<h1>${t('resetPassword.title')}</h1>
      <p class="intro">${t('resetPassword.intro')}</p>
      <form method="post" action="${view.action}" novalidate>
        ${field({ name: 'password', label: t('field.newPassword'), type: 'password', autocomplete: 'new-password', error: errors.password, hint: t('password.rule', { min: passwordMinLength }), autofocus: true, maxLength: passwordMaxLength })}
        <button type="submit">${t('resetPassword.submit')}</button>
      </form>`,
  })
}
