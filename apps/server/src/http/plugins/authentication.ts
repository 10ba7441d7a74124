import { localeFromAcceptLanguage } from '@pactum/domain/locales'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AccessTokenVerifier } from '../../modules/sign-in/access-token-verifier.ts'
import { rememberUsers } from '../../modules/sign-in/remembered-users.ts'
import type { AdminList, CurrentUser } from '../../modules/sign-in/users.ts'
import { AppError } from '../../errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    currentUser: CurrentUser | null
    /** The embedded sign-in's grant the access token belongs to (its `gid` claim), if it names one. */
    accessTokenGrantId: string | null
  }
  interface FastifyInstance {
    /**
     * onRequest hook for routes that need a signed-in user: answers 401
     * otherwise, before the body is read or validated (authentication, then
     * authorization, then input).
     */
    authenticate: (request: FastifyRequest) => Promise<void>
    /** The same for admin routes, and 403 `not_admin` for everyone else. */
    authenticateAdmin: (request: FastifyRequest) => Promise<void>
  }
}

/** The signed-in user of a route guarded by `app.authenticate`. */
export function userOf(request: FastifyRequest): CurrentUser {
  if (!request.currentUser) throw new AppError('unauthenticated', 'Sign in first')
  return request.currentUser
}

export function registerAuthentication(app: FastifyInstance, options: { verify: AccessTokenVerifier; admins: AdminList }): void {
  app.decorateRequest('currentUser', null)
  app.decorateRequest('accessTokenGrantId', null)
  const findUser = rememberUsers(app.services.db, options.admins)
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization
    const match = header?.match(/^Bearer ([A-Za-z0-9._~+/-]+=*)$/)
    if (!match?.[1]) throw new AppError('unauthenticated', 'A bearer access token is required')
    let claims: Awaited<ReturnType<AccessTokenVerifier>>
    try {
      claims = await options.verify(match[1])
    } catch (error) {
      request.log.info({ reason: (error as Error).message }, 'access token refused')
      throw new AppError('unauthenticated', 'The access token is invalid or expired')
    }
    const interfaceLocale = localeFromAcceptLanguage(request.headers['accept-language'])
    request.currentUser = await findUser(claims, interfaceLocale)
    request.accessTokenGrantId = typeof claims.gid === 'string' ? claims.gid : null
  })
  app.decorate('authenticateAdmin', async (request: FastifyRequest) => {
    await app.authenticate(request)
    adminOf(request)
  })
}

/** The signed-in user of an admin route: 403 `not_admin` for everyone else. */
export function adminOf(request: FastifyRequest): CurrentUser {
  const user = userOf(request)
  if (!user.roles.includes('admin')) throw new AppError('not_admin', 'This needs an administrator')
  return user
}
