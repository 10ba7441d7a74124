import rateLimit from '@fastify/rate-limit'
import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type Provider from 'oidc-provider'
import type { Clock } from '../../../clock.ts'
import type { SignInConfig } from '../../../config.ts'
import type { Database } from '../../../db/schema.ts'
import type { DevMailbox } from '../../../adapters/mailer/dev-mailbox.ts'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import { accountIdForEmail } from './account-id.ts'
import { authenticate, findAccountProfile } from './accounts.ts'
import { mayResendLink, mustConfirmAddressFirst } from './address-proof.ts'
import { type AuthenticationMethods, signedInWith } from './authentication-methods.ts'
import { deviceCookie, readDeviceCookie } from './device-cookie.ts'
import { passkeySignInRoutes } from './passkey-sign-in.ts'
import { relyingPartyOf } from './passkeys.ts'
import { emailHint } from './email-address.ts'
import { sendConfirmationLink } from './email-verification.ts'
import { emailVerificationRoutes } from './email-verification-routes.ts'
import { readSignIn } from './form-input.ts'
import { finishInteraction } from './interaction-result.ts'
import { backToPactum, messagePage, type PageContext, registerPage, signInPage } from './pages.ts'
import { passwordResetRoutes } from './password-reset-routes.ts'
import { secondFactorRoutes } from './second-factor-routes.ts'
import { registrationRoutes } from './registration-routes.ts'
import { sendSignInAlert } from './sign-in-alert.ts'
import { beginSignInAttempt, clientKeyOf, noteFailedSignIn, signInSucceeded } from './sign-in-throttle.ts'
import { chooseLocale, localeCookie, translator } from './translations.ts'
import { named } from '../../../http/named-plugin.ts'

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>
type View = 'login' | 'register'
interface UidParams {
  uid: string
}

/** Per client address on the form posts, on top of the per-account throttle (which is in the database). */
const postRateLimit = { max: 20, timeWindow: 60_000 }

/**
 * The sign-in and registration pages of the embedded provider, at
 * `<issuer>/interaction/:uid`. They are Fastify routes; the provider's
 * middleware lets these paths through (see embedded-provider-routes.ts).
 */
export async function interactionRoutes(
  app: FastifyInstance,
  deps: {
    provider: Provider
    db: Kysely<Database>
    basePath: string
    publicUrl: string
    issuer: string
    clock: Clock
    mailer: Mailer
    /** The address for questions, in the e-mails' footer. */
    supportEmail: string
    /** The file mailer's messages, for the registration page's link to them; none with SMTP. */
    sentMail: DevMailbox | undefined
    signIn: SignInConfig
    /** The HMAC key of the device cookie (device-cookie.ts). */
    deviceCookieKey: string
  },
): Promise<void> {
  const { provider, db, basePath } = deps
  const home = `${deps.publicUrl}/`
  const pagePath = (uid: string) => `${basePath}/interaction/${encodeURIComponent(uid)}`

  // Encapsulated: the HTML error handler and the rate limit apply to these routes only.
  await app.register(
    named('sign-in-interactions', async (scope: FastifyInstance) => {
      // Browser pages, not API: kept out of the OpenAPI document.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true }
      })
      if (!scope.hasDecorator('rateLimit')) {
        await scope.register(rateLimit, {
          global: false,
          errorResponseBuilder: (_request, context) =>
            Object.assign(new Error('Too many requests'), { statusCode: context.statusCode, rateLimited: true }),
        })
      }

      scope.setErrorHandler((error: Error & { statusCode?: number; rateLimited?: boolean }, request, reply) => {
        const page = pageContext(request)
        if (error.statusCode === 429) {
          return sendPage(reply, 429, messagePage(page, tooManyRequests))
        }
        request.log.error({ err: error }, 'sign-in page failed')
        return sendPage(reply, 500, messagePage(page, genericError))
      })

      const tooManyRequests = { title: 'error.title', body: 'error.tooManyRequests', link: backToPactum(home) } as const
      const genericError = { title: 'error.title', body: 'error.body', link: backToPactum(home) } as const
      const expired = { title: 'expired.title', body: 'expired.body', link: backToPactum(home) } as const

      /**
       * Finishes the sign-in, unless the account must confirm its address
       * first (address-proof.ts): then a fresh link goes out (one per ten
       * minutes) and the page says where. After a password, an account with
       * a second factor is asked for it first (second-factor-routes.ts).
       */
      async function signInUnlessUnproved(
        request: FastifyRequest,
        reply: FastifyReply,
        interaction: Interaction,
        accountId: string,
        page: PageContext,
        amr: AuthenticationMethods,
      ) {
        if (!(await mustConfirmAddressFirst(db, deps.issuer, accountId))) {
          if (amr === signedInWith.password) return secondFactor.afterPassword(request, reply, interaction, accountId)
          return finishInteraction(provider, request, reply, interaction, accountId, amr)
        }
        const account = await findAccountProfile(db, accountId)
        if (!account) return sendPage(reply, 400, messagePage(page, expired))
        const now = deps.clock.now()
        if (await mayResendLink(db, accountId, now)) {
          await sendConfirmationLink(
            { db, mailer: deps.mailer, now, issuer: deps.issuer, supportEmail: deps.supportEmail },
            account,
            page.locale,
          )
        }
        return sendPage(
          reply,
          403,
          messagePage(page, {
            title: 'confirmFirst.title',
            body: 'confirmFirst.body',
            bodyValues: { email: account.email },
            link: backToPactum(home),
          }),
        )
      }

      /**
       * Once per burst of failures against an account, its owner is e-mailed; a
       * mail that fails is logged, not retried. The burst is counted for every
       * address alike, and the mail goes after the answer, so that the answer's
       * timing does not tell whether the address has an account.
       */
      async function alertOwnerOfBurst(request: FastifyRequest, email: string, now: Date) {
        const alert = await noteFailedSignIn(db, email, now, deps.signIn).catch((error: unknown) => {
          request.log.error({ err: error }, 'failed sign-in not counted for the owner alert')
          return undefined
        })
        if (!alert) return
        sendSignInAlert({ db, mailer: deps.mailer, issuer: deps.issuer, supportEmail: deps.supportEmail }, email, alert).catch(
          (error: unknown) => request.log.error({ err: error }, 'failed sign-in alert not sent'),
        )
      }

      /** The interaction of this browser (its cookie), and only if it is the one in the URL. */
      async function loadInteraction(request: FastifyRequest<{ Params: UidParams }>, reply: FastifyReply) {
        try {
          const interaction = await provider.interactionDetails(request.raw, reply.raw)
          return interaction.uid === request.params.uid ? interaction : undefined
        } catch {
          return undefined
        }
      }

      function pageContext(request: FastifyRequest, interaction?: Interaction, chosen?: Locale): PageContext {
        const locale =
          chosen ??
          chooseLocale({
            cookieHeader: request.headers.cookie,
            uiLocales: interaction?.params.ui_locales,
            acceptLanguage: request.headers['accept-language'],
          })
        const uid = interaction?.uid
        const view = (request.query as { view?: unknown } | undefined)?.view
        const viewParam = view === 'register' || view === 'login' ? `view=${view}&` : ''
        return {
          locale,
          t: translator(locale),
          ...(uid ? { languageHref: (option: Locale) => `${pagePath(uid)}?${viewParam}lang=${option}` } : {}),
        }
      }

      function sendPage(reply: FastifyReply, status: number, body: string) {
        return reply
          .status(status)
          .header('Cache-Control', 'no-store')
          .header('Pragma', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(body)
      }

      function links(uid: string, locale?: Locale) {
        return {
          signIn: {
            action: `${pagePath(uid)}/login`,
            registerHref: `${pagePath(uid)}?view=register`,
            passkey: { optionsUrl: `${pagePath(uid)}/passkey/options`, action: `${pagePath(uid)}/passkey` },
            forgotHref: `${basePath}/forgot-password?${locale ? `lang=${locale}&` : ''}uid=${encodeURIComponent(uid)}`,
          },
          register: { action: `${pagePath(uid)}/register`, signInHref: `${pagePath(uid)}?view=login` },
        }
      }

      scope.get<{ Params: UidParams; Querystring: { view?: string; lang?: string } }>('/interaction/:uid', async (request, reply) => {
        const { lang } = request.query
        let chosen: Locale | undefined
        if (isSupportedLocale(lang)) {
          chosen = lang
          reply.header('Set-Cookie', localeCookie(lang, request.protocol === 'https'))
        }
        const interaction = await loadInteraction(request, reply)
        if (!interaction) return sendPage(reply, 400, messagePage(pageContext(request, undefined, chosen), expired))

        // Pactum's own app: nothing to consent to, so a consent prompt (an
        // existing session meeting a new grant) is answered at once.
        if (interaction.prompt.name === 'consent') {
          const accountId = interaction.session?.accountId
          if (!accountId) return sendPage(reply, 400, messagePage(pageContext(request, interaction, chosen), expired))
          // The session's own sign-in stands: the grant says how it was made.
          return finishInteraction(provider, request, reply, interaction, accountId, interaction.session?.amr ?? signedInWith.password)
        }

        const page = pageContext(request, interaction, chosen)
        const view: View =
          request.query.view === 'register' || request.query.view === 'login'
            ? request.query.view
            : interaction.prompt.name === 'create'
              ? 'register'
              : 'login'
        const { signIn, register } = links(interaction.uid, page.locale)
        const secondStep = request.query.view ? undefined : await secondFactor.pendingPage(request, interaction, page)
        if (secondStep) return sendPage(reply, 200, secondStep)
        const hint = emailHint(interaction.params.login_hint)
        return sendPage(
          reply,
          200,
          view === 'register'
            ? registerPage(page, { ...register, ...(hint ? { values: { email: hint } } : {}) })
            : signInPage(page, { ...signIn, ...(hint ? { email: hint } : {}) }),
        )
      })

      scope.post<{ Params: UidParams }>('/interaction/:uid/login', { config: { rateLimit: postRateLimit } }, async (request, reply) => {
        const interaction = await loadInteraction(request, reply)
        if (!interaction) return sendPage(reply, 400, messagePage(pageContext(request), expired))
        const page = pageContext(request, interaction)
        const { t } = page
        const { signIn } = links(interaction.uid, page.locale)
        const { email, password, errors } = readSignIn(request.body, t)
        if (errors.email || errors.password) {
          return sendPage(reply, 400, signInPage(page, { ...signIn, email, errors }))
        }

        const now = deps.clock.now()
        // A browser that signed in to this account before counts under its own key (sign-in-throttle.ts).
        const deviceKey = readDeviceCookie(deps.deviceCookieKey, request.headers.cookie, accountIdForEmail(email))
        const source = { clientKey: clientKeyOf(request.ip), deviceKey }
        const attempt = await beginSignInAttempt(db, email, source, now, deps.signIn)
        if (!attempt.allowed) {
          reply.header('Retry-After', String(attempt.retryAfterSeconds))
          const formError = t('error.throttled', { minutes: Math.ceil(attempt.retryAfterSeconds / 60) })
          return sendPage(reply, 429, signInPage(page, { ...signIn, email, formError }))
        }
        const accountId = await authenticate(db, email, password, deps.signIn.passwordCost)
        if (!accountId) {
          // The owner's own typos on a known browser are no attack to report.
          if (!deviceKey) await alertOwnerOfBurst(request, email, now)
          return sendPage(reply, 401, signInPage(page, { ...signIn, email, formError: t('error.credentials') }))
        }
        await signInSucceeded(db, email, source, now, deps.signIn)
        // Appended to, not replaced by, the provider's own cookies on the raw response.
        reply.raw.appendHeader(
          'Set-Cookie',
          deviceCookie({
            secret: deps.deviceCookieKey,
            accountId,
            deviceId: deviceKey,
            path: basePath,
            secure: request.protocol === 'https',
          }),
        )
        return signInUnlessUnproved(request, reply, interaction, accountId, page, signedInWith.password)
      })

      registrationRoutes(scope, {
        provider,
        db,
        mailer: deps.mailer,
        supportEmail: deps.supportEmail,
        sentMail: deps.sentMail,
        clock: deps.clock,
        issuer: deps.issuer,
        basePath,
        home,
        signIn: deps.signIn,
        loadInteraction,
        pageContext,
        sendPage,
        registerLinks: (uid) => links(uid).register,
        expired: (request, reply) => sendPage(reply, 400, messagePage(pageContext(request), expired)),
      })

      await passkeySignInRoutes(scope, {
        db,
        clock: deps.clock,
        relyingParty: relyingPartyOf(deps.publicUrl),
        loadInteraction,
        expired: (request, reply) => sendPage(reply, 400, messagePage(pageContext(request), expired)),
        refuse: (request, reply, interaction, status) => {
          const page = pageContext(request, interaction)
          return sendPage(reply, status, signInPage(page, { ...links(interaction.uid).signIn, formError: page.t('passkey.rejected') }))
        },
        signIn: (request, reply, interaction, passkey) =>
          signInUnlessUnproved(
            request,
            reply,
            interaction,
            passkey.accountId,
            pageContext(request, interaction),
            passkey.userVerified ? signedInWith.verifiedPasskey : signedInWith.passkey,
          ),
      })

      const secondFactor = secondFactorRoutes(scope, {
        db,
        clock: deps.clock,
        relyingParty: relyingPartyOf(deps.publicUrl),
        pagePath,
        loadInteraction,
        pageContext,
        sendPage,
        expired: (request, reply) => sendPage(reply, 400, messagePage(pageContext(request), expired)),
        startOver: (request, reply, interaction, message) => {
          const page = pageContext(request, interaction)
          return sendPage(reply, 401, signInPage(page, { ...links(interaction.uid, page.locale).signIn, formError: page.t(message) }))
        },
        finish: (request, reply, interaction, accountId, amr) => finishInteraction(provider, request, reply, interaction, accountId, amr),
      })

      passwordResetRoutes(scope, {
        db,
        mailer: deps.mailer,
        supportEmail: deps.supportEmail,
        clock: deps.clock,
        issuer: deps.issuer,
        basePath,
        home,
        signIn: deps.signIn,
        pageContext: (request, chosen) => pageContext(request, undefined, chosen),
        sendPage,
      })

      emailVerificationRoutes(scope, {
        db,
        clock: deps.clock,
        basePath,
        home,
        pageContext: (request, chosen) => pageContext(request, undefined, chosen),
        sendPage,
      })

      scope.get<{ Params: UidParams }>('/interaction/:uid/abort', async (request, reply) => {
        const interaction = await loadInteraction(request, reply)
        if (!interaction) return sendPage(reply, 400, messagePage(pageContext(request), expired))
        reply.hijack()
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { error: 'access_denied', error_description: 'End-User aborted interaction' },
          { mergeWithLastSubmission: false },
        )
      })
    }),
    { prefix: basePath },
  )
}
