import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { SignInConfig } from '../../../config.ts'
import { formString, passwordErrors } from './form-input.ts'
import { isValidEmail, normaliseEmail } from './email-address.ts'
import { forgotPasswordPage, type LinkPageDeps, messagePage, resetPasswordPage } from './pages.ts'
import { type ResetLinkState, requestPasswordReset, resetLinkMinutes, resetLinkState, resetPassword } from './password-reset.ts'

interface ForgotQuery {
  lang?: string
  /** The sign-in interaction the person came from, for the way back. */
  uid?: string
}
interface TokenParams {
  token: string
}

/** Per client address: the tokens cannot be guessed, but nobody needs to try many. */
const linkRateLimit = { max: 20, timeWindow: 60_000 }

/** What a reset link's page says once it can no longer be used; each offers to ask for a new link. */
const deadLinkPages = {
  expired: { status: 410, title: 'resetPassword.expired.title', body: 'resetPassword.expired.body' },
  used: { status: 410, title: 'resetPassword.invalid.title', body: 'resetPassword.invalid.body' },
  invalid: { status: 404, title: 'resetPassword.invalid.title', body: 'resetPassword.invalid.body' },
} as const

/**
 * `<issuer>/forgot-password` (the address to send a link to) and
 * `<issuer>/reset-password/:token` (the e-mailed link: GET shows the form,
 * POST sets the password). Registered inside the sign-in pages' scope, for
 * their error pages and rate limiting.
 */
export function passwordResetRoutes(
  scope: FastifyInstance,
  deps: LinkPageDeps & { mailer: Mailer; supportEmail: string; issuer: string; signIn: SignInConfig },
): void {
  const { db, clock, basePath, home } = deps
  const page = (request: FastifyRequest<{ Querystring: { lang?: string } }>) =>
    deps.pageContext(request, isSupportedLocale(request.query.lang) ? request.query.lang : undefined)
  const uidOf = (query: ForgotQuery) => (typeof query.uid === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(query.uid) ? query.uid : undefined)
  const forgotAction = (locale: Locale, uid: string | undefined) =>
    `${basePath}/forgot-password?lang=${locale}${uid ? `&uid=${encodeURIComponent(uid)}` : ''}`
  // Back to the sign-in the person came from; else Pactum, which starts a new one.
  const backHref = (uid: string | undefined) => (uid ? `${basePath}/interaction/${encodeURIComponent(uid)}` : home)

  scope.get<{ Querystring: ForgotQuery }>('/forgot-password', async (request, reply) => {
    const context = page(request)
    const uid = uidOf(request.query)
    return deps.sendPage(reply, 200, forgotPasswordPage(context, { action: forgotAction(context.locale, uid), backHref: backHref(uid) }))
  })

  scope.post<{ Querystring: ForgotQuery }>(
    '/forgot-password',
    // Each request may e-mail someone: a few an hour per client address (per address: password-reset.ts).
    { config: { rateLimit: { max: deps.signIn.resetsPerClientPerHour, timeWindow: 3_600_000 } } },
    async (request, reply) => {
      const context = page(request)
      const { t, locale } = context
      const uid = uidOf(request.query)
      const email = normaliseEmail(formString(request.body, 'email'))
      const invalid = !email ? t('error.email.required') : !isValidEmail(email) ? t('error.email.invalid') : undefined
      if (invalid) {
        const view = { action: forgotAction(locale, uid), backHref: backHref(uid), email, errors: { email: invalid } }
        return deps.sendPage(reply, 400, forgotPasswordPage(context, view))
      }
      // Not awaited: the answer comes as fast whether or not the address has an account.
      const mailDeps = {
        db,
        mailer: deps.mailer,
        supportEmail: deps.supportEmail,
        now: clock.now(),
        issuer: deps.issuer,
        perAddressPerHour: deps.signIn.resetsPerAddressPerHour,
      }
      requestPasswordReset(mailDeps, email, locale).catch((error: unknown) =>
        request.log.error({ err: error }, 'password reset link not sent'),
      )
      return deps.sendPage(
        reply,
        200,
        messagePage(context, {
          title: 'forgot.sent.title',
          body: 'forgot.sent.body',
          bodyValues: { email, minutes: resetLinkMinutes },
          link: { href: backHref(uid), label: 'forgot.backToSignIn' },
        }),
      )
    },
  )

  const outcome = (
    request: FastifyRequest<{ Querystring: { lang?: string } }>,
    reply: FastifyReply,
    state: Exclude<ResetLinkState, 'valid'>,
  ) => {
    const context = page(request)
    const askAgain = { href: forgotAction(context.locale, undefined), label: 'resetPassword.askAgain' } as const
    const { status, ...message } = deadLinkPages[state]
    return deps.sendPage(reply, status, messagePage(context, { ...message, bodyValues: { minutes: resetLinkMinutes }, link: askAgain }))
  }
  const resetAction = (token: string, locale: Locale) => `${basePath}/reset-password/${encodeURIComponent(token)}?lang=${locale}`

  scope.get<{ Params: TokenParams; Querystring: { lang?: string } }>(
    '/reset-password/:token',
    { config: { rateLimit: linkRateLimit } },
    async (request, reply) => {
      const state = await resetLinkState(db, request.params.token, clock.now())
      if (state !== 'valid') return outcome(request, reply, state)
      const context = page(request)
      return deps.sendPage(reply, 200, resetPasswordPage(context, { action: resetAction(request.params.token, context.locale) }))
    },
  )

  scope.post<{ Params: TokenParams; Querystring: { lang?: string } }>(
    '/reset-password/:token',
    { config: { rateLimit: linkRateLimit } },
    async (request, reply) => {
      const context = page(request)
      const password = formString(request.body, 'password')
      const weak = passwordErrors(password, context.t)
      if (weak.length > 0) {
        // A dead link says so before the person tries more passwords on it.
        const state = await resetLinkState(db, request.params.token, clock.now())
        if (state !== 'valid') return outcome(request, reply, state)
        const view = { action: resetAction(request.params.token, context.locale), errors: { password: weak } }
        return deps.sendPage(reply, 400, resetPasswordPage(context, view))
      }
      const result = await resetPassword(db, request.params.token, password, clock.now(), deps.signIn.passwordCost)
      if (result.outcome !== 'reset') return outcome(request, reply, result.outcome)
      return deps.sendPage(
        reply,
        200,
        messagePage(context, {
          title: 'resetPassword.done.title',
          body: 'resetPassword.done.body',
          link: { href: home, label: 'resetPassword.done.link' },
        }),
      )
    },
  )
}
