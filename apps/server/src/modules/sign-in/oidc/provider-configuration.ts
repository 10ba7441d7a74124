import type { IncomingMessage } from 'node:http'
import { isSupportedLocale, toLanguageTag } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import Provider, { type Configuration, errors, interactionPolicy } from 'oidc-provider'
import type { Config } from '../../../config.ts'
import { behindTrustedProxy } from '../../../trust-proxy.ts'
import type { Database } from '../../../db/schema.ts'
import { findAccountProfile } from './accounts.ts'
import { createPayloadAdapter } from './oidc-payloads-repository.ts'
import { providerPages } from './provider-pages.ts'
import type { ProviderSecrets } from './server-secrets.ts'

/**
 * The resource indicator of the Pactum API. oidc-provider wants an absolute
 * URI here; the token's `aud` is the configured audience (`pactum-api`).
 */
export const apiResourceIndicator = 'urn:pactum:api'
export const apiScope = 'api'
export const openIdScopes = ['openid', 'profile', 'email', 'offline_access'] as const

/** The web app in production (served by this server) and under `vite dev`. */
export function webClientOrigins(publicUrl: string): string[] {
  return [...new Set([publicUrl, 'http://localhost:5173'])]
}

export function createProvider(deps: { config: Config; db: Kysely<Database>; secrets: ProviderSecrets }): Provider {
  const { config, db, secrets } = deps
  const issuer = config.oidc.issuer
  const mountPath = new URL(issuer).pathname.replace(/\/+$/, '')
  const origins = webClientOrigins(config.publicUrl)
  const pages = providerPages(config)

  const configuration: Configuration = {
    adapter: createPayloadAdapter(db),
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: secrets.cookieKeys },
    clients: [
      {
        client_id: config.oidc.clientId,
        client_name: 'Pactum',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: origins.map((origin) => `${origin}/auth/callback`),
        post_logout_redirect_uris: origins.map((origin) => `${origin}/`),
      },
    ],
    // Only the code flow with PKCE (S256, oidc-provider's only method) for every client.
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: [...openIdScopes],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name', 'locale'],
    },
    // The web app reads the profile from the ID token; the access token is for the API only.
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => {
      const account = await findAccountProfile(db, sub)
      if (!account) return undefined
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          // True once the person opened the link e-mailed at registration (email-verification.ts).
          email_verified: account.emailVerified,
          given_name: account.firstName,
          family_name: account.lastName,
          name: `${account.firstName} ${account.lastName}`.trim(),
          ...(isSupportedLocale(account.locale) ? { locale: toLanguageTag(account.locale) } : {}),
        }),
      }
    },
    // The API creates its user row from these claims (DESIGN §4).
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !('accountId' in token) || typeof token.accountId !== 'string') return undefined
      const account = await findAccountProfile(db, token.accountId)
      if (!account) return undefined
      // email_verified too: the API grants company and partner privileges only to a confirmed address.
      // gid names the token's grant: a password change ends every other grant and keeps this one.
      const grantId = 'grantId' in token && typeof token.grantId === 'string' ? { gid: token.grantId } : {}
      // amr: how the person signed in (ADMIN_REQUIRE_MFA reads it). The code or refresh token being
      // exchanged carries the sign-in's, the access token itself does not.
      const { AuthorizationCode: code, RefreshToken: refreshToken } = ctx.oidc.entities
      const amr = code?.amr ?? refreshToken?.amr
      return {
        email: account.email,
        email_verified: account.emailVerified,
        given_name: account.firstName,
        family_name: account.lastName,
        ...grantId,
        ...(amr ? { amr } : {}),
      }
    },
    // A first-party single-page app: always a refresh token (rotated on every
    // use, see rotateRefreshToken's default for public clients), without
    // having to ask the user for offline access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    interactions: {
      url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`,
      policy: interactionPolicyWithCreate(),
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: pages.logoutSource,
        postLogoutSuccessSource: pages.postLogoutSuccessSource,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => apiResourceIndicator,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resourceIndicator) => {
          if (resourceIndicator !== apiResourceIndicator) throw new errors.InvalidTarget()
          return {
            scope: apiScope,
            audience: config.oidc.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256' } },
          }
        },
      },
    },
    clientBasedCORS: (_ctx, origin) => origins.includes(origin),
    renderError: pages.renderError,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 3600,
      // A rotated refresh token keeps its predecessor's expiry: 30 days after
      // signing in, however active, the user signs in again.
      RefreshToken: (ctx) => {
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken
        return rotated ? Math.max(1, rotated.remainingTTL) : 30 * 24 * 60 * 60
      },
      Session: 14 * 24 * 60 * 60,
      Interaction: 60 * 60,
      Grant: 30 * 24 * 60 * 60,
    },
  }

  const provider = new Provider(issuer, configuration)
  // Koa's switch is all or nothing (it does not check the hop's address as Fastify does):
  // behind a proxy, listen where only the proxy reaches the server (HOST).
  provider.proxy = behindTrustedProxy(config.trustProxy)
  provider.use(alwaysRequestApiScope)
  return provider
}

/**
 * An access token's `scope` holds only the API scopes the client asked for,
 * and the token is only ever for the Pactum API: so the API scope is added
 * to every authorization request that lacks it, and clients need not know
 * it (listing it in `scopes` instead would loop on consent).
 */
const alwaysRequestApiScope: Parameters<Provider['use']>[0] = async (ctx, next) => {
  const scope = ctx.query.scope
  if (ctx.path === '/auth' && typeof scope === 'string' && !scope.split(' ').includes(apiScope)) {
    const req: IncomingMessage & { originalUrl?: string } = ctx.req
    const mountedAt = mountPrefix(req, ctx.url)
    ctx.query = { ...ctx.query, scope: `${scope} ${apiScope}` }
    // oidc-provider derives its mount path from originalUrl minus url: keep the two in step.
    req.originalUrl = `${mountedAt}${ctx.url}`
  }
  await next()
}

function mountPrefix(req: { originalUrl?: string }, url: string): string {
  const original = req.originalUrl ?? url
  const at = original.lastIndexOf(url)
  return at > 0 ? original.slice(0, at) : ''
}

/**
 * oidc-provider rejects prompt values it does not know. `prompt=create`
 * (OpenID Connect "Initiating User Registration") becomes known by adding a
 * requestable prompt of that name in front of the login prompt: requested,
 * it always asks for an interaction, and our interaction page shows the
 * registration form. Submitting any of our forms answers it.
 */
function interactionPolicyWithCreate(): interactionPolicy.Prompt[] {
  const policy = interactionPolicy.base()
  policy.add(new interactionPolicy.Prompt({ name: 'create', requestable: true }), 0)
  return policy
}
