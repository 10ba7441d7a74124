import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type Provider from 'oidc-provider'
import type { DevMailbox } from '../../../adapters/mailer/dev-mailbox.ts'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { Clock } from '../../../clock.ts'
import type { SignInConfig } from '../../../config.ts'
import type { Database } from '../../../db/schema.ts'
import { normaliseEmail } from './email-address.ts'
import { readRegistration } from './form-input.ts'
import { signedInWith } from './authentication-methods.ts'
import { finishInteraction } from './interaction-result.ts'
import { backToPactum, messagePage, type PageContext, registerPage, type SendPage } from './pages.ts'
import { completeRegistration, pendingLinkState, registrationLinkHours, requestRegistration } from './pending-registration.ts'
import { alreadyRegisteredPage, checkInboxPage, completeRegistrationPage } from './registration-pages.ts'
import { isLocalRequest, linkableMailId, sentMailRoutes } from './sent-mail-routes.ts'

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>
interface UidParams {
  uid: string
}
interface TokenParams {
  token: string
}
interface LangQuery {
  lang?: string
}

/** Per client address: the tokens cannot be guessed, but nobody needs to try many. */
const linkRateLimit = { max: 20, timeWindow: 60_000 }

/**
 * Registration in the embedded sign-in (pending-registration.ts):
 * `<issuer>/interaction/:uid/register` (the form's post: the same "check
 * your inbox" page for every valid form), `<issuer>/complete-registration/:token`
 * (the e-mailed link: a page with one button) and
 * `<issuer>/interaction/:uid/complete-registration/:token` (the button: under
 * the interaction's path, so that the browser sends the interaction cookie
 * and the registration it began in can end signed in). Registered inside the
 * sign-in pages' scope, for their error pages and rate limiting.
 */
export function registrationRoutes(
  scope: FastifyInstance,
  deps: {
    provider: Provider
    db: Kysely<Database>
    mailer: Mailer
    supportEmail: string
    /** The file mailer's messages; none with SMTP. */
    sentMail: DevMailbox | undefined
    clock: Clock
    issuer: string
    basePath: string
    home: string
    signIn: SignInConfig
    loadInteraction: (request: FastifyRequest<{ Params: UidParams }>, reply: FastifyReply) => Promise<Interaction | undefined>
    pageContext: (request: FastifyRequest, interaction?: Interaction, chosen?: Locale) => PageContext
    sendPage: SendPage
    registerLinks: (uid: string) => { action: string; signInHref: string }
    expired: (request: FastifyRequest, reply: FastifyReply) => FastifyReply
  },
): void {
  const { db, clock, basePath, home } = deps
  const linkPage = (request: FastifyRequest<{ Querystring: LangQuery }>) =>
    deps.pageContext(request, undefined, isSupportedLocale(request.query.lang) ? request.query.lang : undefined)

  scope.post<{ Params: UidParams }>(
    '/interaction/:uid/register',
    // Each registration e-mails an address someone typed: a few an hour per client address (per address: pending-registration.ts).
    { config: { rateLimit: { max: deps.signIn.registrationsPerClientPerHour, timeWindow: 3_600_000 } } },
    async (request, reply) => {
      const interaction = await deps.loadInteraction(request, reply)
      if (!interaction) return deps.expired(request, reply)
      const page = pageContext(request, interaction)
      const register = deps.registerLinks(interaction.uid)
      const input = readRegistration(request.body, page.t)
      const values = { firstName: input.firstName, lastName: input.lastName, email: input.email }
      if (Object.keys(input.errors).length > 0) {
        return deps.sendPage(reply, 400, registerPage(page, { ...register, values, errors: input.errors }))
      }
      const sent = await requestRegistration(
        {
          db,
          mailer: deps.mailer,
          supportEmail: deps.supportEmail,
          now: clock.now(),
          issuer: deps.issuer,
          home,
          perAddressPerHour: deps.signIn.registrationsPerAddressPerHour,
          passwordCost: deps.signIn.passwordCost,
        },
        input,
        { locale: page.locale, interactionUid: interaction.uid },
      ).catch((error: unknown) => {
        // The same page still: an error page here would tell one address from another.
        request.log.error({ err: error }, 'registration e-mail not sent')
        return { outcome: 'limited' } as const
      })
      const mailId = sent.outcome !== 'limited' && deps.sentMail && isLocalRequest(request) ? linkableMailId(sent.mail) : undefined
      const fileMailer = deps.sentMail
        ? { folder: deps.sentMail.folder, ...(mailId ? { messageHref: `${basePath}/sent-mail/${mailId}` } : {}) }
        : undefined
      return deps.sendPage(reply, 200, checkInboxPage(page, { email: normaliseEmail(input.email), ...(fileMailer ? { fileMailer } : {}) }))
    },
  )

  function pageContext(request: FastifyRequest, interaction: Interaction) {
    return deps.pageContext(request, interaction)
  }

  const completeAction = (uid: string, token: string, locale: Locale) =>
    `${basePath}/interaction/${encodeURIComponent(uid)}/complete-registration/${encodeURIComponent(token)}?lang=${locale}`

  const deadLink = (request: FastifyRequest<{ Querystring: LangQuery }>, reply: FastifyReply, state: 'expired' | 'invalid') => {
    const view = {
      expired: {
        status: 410,
        title: 'registration.expired.title',
        body: 'registration.expired.body',
        link: { href: `${home}register`, label: 'signIn.createAccount' },
      },
      invalid: {
        status: 404,
        title: 'registration.invalid.title',
        body: 'registration.invalid.body',
        link: backToPactum(home),
      },
    } as const
    const { status, title, body, link } = view[state]
    return deps.sendPage(reply, status, messagePage(linkPage(request), { title, body, bodyValues: { hours: registrationLinkHours }, link }))
  }

  scope.get<{ Params: TokenParams; Querystring: LangQuery }>(
    '/complete-registration/:token',
    { config: { rateLimit: linkRateLimit } },
    async (request, reply) => {
      const link = await pendingLinkState(db, request.params.token, clock.now())
      if (link.state !== 'valid') return deadLink(request, reply, link.state)
      const page = linkPage(request)
      const action = completeAction(link.interactionUid, request.params.token, page.locale)
      return deps.sendPage(reply, 200, completeRegistrationPage(page, { action, email: link.email }))
    },
  )

  scope.post<{ Params: UidParams & TokenParams; Querystring: LangQuery }>(
    '/interaction/:uid/complete-registration/:token',
    { config: { rateLimit: linkRateLimit } },
    async (request, reply) => {
      const done = await completeRegistration(db, request.params.token, clock.now())
      const page = linkPage(request)
      if (done.outcome !== 'created') {
        if (done.outcome !== 'taken') return deadLink(request, reply, done.outcome)
        const forgotHref = `${basePath}/forgot-password?lang=${page.locale}`
        return deps.sendPage(reply, 409, alreadyRegisteredPage(page, { signInHref: home, forgotHref }))
      }
      // The browser the registration began in, with its sign-in still open: it ends signed in, in the app.
      const interaction = await deps.loadInteraction(request, reply)
      if (interaction && interaction.uid === done.interactionUid) {
        // The password was given with the form; a new account has no second factor yet.
        return finishInteraction(deps.provider, request, reply, interaction, done.accountId, signedInWith.password)
      }
      return deps.sendPage(
        reply,
        200,
        messagePage(page, {
          title: 'registration.ready.title',
          body: 'registration.ready.body',
          link: { href: home, label: 'registration.ready.link' },
        }),
      )
    },
  )

  if (deps.sentMail)
    sentMailRoutes(scope, { mailbox: deps.sentMail, pageContext: (request) => deps.pageContext(request), sendPage: deps.sendPage })
}
