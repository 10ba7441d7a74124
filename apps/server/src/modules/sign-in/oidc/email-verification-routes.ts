import { isSupportedLocale } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { confirmEmail, type LinkState, linkState } from './email-verification.ts'
import { backToPactum, confirmEmailPage, type LinkPageDeps, messagePage } from './pages.ts'

interface TokenParams {
  token: string
}
interface LangQuery {
  lang?: string
}

type LinkRequest = FastifyRequest<{ Params: TokenParams; Querystring: LangQuery }>

/** Per client address: the tokens cannot be guessed, but nobody needs to try many. */
const linkRateLimit = { max: 20, timeWindow: 60_000 }

/** What the link's page says once there is nothing left to confirm. */
const outcomePages = {
  confirmed: { status: 200, title: 'confirmEmail.done.title', body: 'confirmEmail.done.body' },
  expired: { status: 410, title: 'confirmEmail.expired.title', body: 'confirmEmail.expired.body' },
  invalid: { status: 404, title: 'confirmEmail.invalid.title', body: 'confirmEmail.invalid.body' },
  taken: { status: 409, title: 'changeEmail.taken.title', body: 'changeEmail.taken.body' },
} as const

/**
 * `<issuer>/verify-email/:token`: the link e-mailed at registration. GET
 * shows a confirm button, POST confirms. Registered inside the sign-in
 * pages' scope, for their error pages and rate limiting.
 */
export function emailVerificationRoutes(scope: FastifyInstance, deps: LinkPageDeps): void {
  const { db, clock, basePath, home } = deps
  // The link names the e-mail's language; without it, the browser's.
  const page = (request: LinkRequest) => deps.pageContext(request, isSupportedLocale(request.query.lang) ? request.query.lang : undefined)
  const outcome = (request: LinkRequest, reply: FastifyReply, state: Exclude<LinkState, 'valid'>) => {
    const { status, ...message } = outcomePages[state]
    return deps.sendPage(reply, status, messagePage(page(request), { ...message, link: backToPactum(home) }))
  }

  scope.get<{ Params: TokenParams; Querystring: LangQuery }>(
    '/verify-email/:token',
    { config: { rateLimit: linkRateLimit } },
    async (request, reply) => {
      const state = await linkState(db, request.params.token, clock.now())
      if (state !== 'valid') return outcome(request, reply, state)
      const context = page(request)
      const action = `${basePath}/verify-email/${encodeURIComponent(request.params.token)}?lang=${context.locale}`
      return deps.sendPage(reply, 200, confirmEmailPage(context, { action }))
    },
  )

  scope.post<{ Params: TokenParams; Querystring: LangQuery }>(
    '/verify-email/:token',
    { config: { rateLimit: linkRateLimit } },
    async (request, reply) => {
      // A second click on a link already used says "confirmed" again: the outcome the person wants to read.
      return outcome(request, reply, await confirmEmail(db, request.params.token, clock.now()))
    },
  )
}
