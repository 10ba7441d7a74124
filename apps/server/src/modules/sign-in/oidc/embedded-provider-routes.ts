import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { JSONWebKeySet, JWK } from 'jose'
import type { Kysely } from 'kysely'
import type { DevMailbox } from '../../../adapters/mailer/dev-mailbox.ts'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import { type Clock, systemClock } from '../../../clock.ts'
import type { Config } from '../../../config.ts'
import type { Database } from '../../../db/schema.ts'
import { interactionRoutes } from './interaction-routes.ts'
import { createProvider, webClientOrigins } from './provider-configuration.ts'
import { loadOrCreateSecrets, publicKeySet, writeSigningKeyFile } from './server-secrets.ts'

export interface EmbeddedOidc {
  issuer: string
  /** Public keys, for verifying access tokens in-process. */
  jwks: JSONWebKeySet
  /** The private key that signs access tokens (with kid and alg), for the command line and tests. */
  privateSigningKey: JWK
}

/**
 * The embedded OpenID Connect provider (DESIGN §1): oidc-provider mounted at
 * the issuer's path through middie, plus our own sign-in and registration
 * pages as Fastify routes. Needs @fastify/middie and @fastify/formbody
 * registered on `app` first.
 */
export async function mountEmbeddedOidc(
  app: FastifyInstance,
  deps: { config: Config; db: Kysely<Database>; mailer: Mailer; sentMail?: DevMailbox | undefined; clock?: Clock },
): Promise<EmbeddedOidc> {
  const { config, db } = deps
  const issuer = config.oidc.issuer
  const basePath = new URL(issuer).pathname.replace(/\/+$/, '')
  const secrets = await loadOrCreateSecrets(db)
  const privateSigningKey = secrets.signingKeys[0]
  if (!privateSigningKey) throw new Error('no OIDC signing key in server_secrets')
  await writeSigningKeyFile(config.dataDir, privateSigningKey)

  const provider = createProvider({ config, db, secrets })
  provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'oidc provider error'))

  // oidc-provider answers every path under its mount (404 included), so the
  // interaction pages, the e-mailed links, the file mailer's messages and the pages' fonts,
  // which are Fastify routes, are let through explicitly.
  const handle = provider.callback()
  const webOrigins = webClientOrigins(config.publicUrl)
  app.use(basePath, (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (
      [
        '/interaction/',
        '/verify-email/',
        '/complete-registration/',
        '/sent-mail/',
        '/forgot-password',
        '/reset-password/',
        '/assets/',
      ].some((prefix) => req.url?.startsWith(prefix))
    )
      return next()
    // oidc-provider answers a CORS preflight with whatever Origin asked (it
    // cannot tell the client before the real request): only the web app's
    // own origins may ask, others get no CORS headers at all.
    const origin = req.headers.origin
    if (req.method === 'OPTIONS' && origin && !webOrigins.includes(origin)) {
      res.statusCode = 403
      res.end()
      return
    }
    return handle(req, res)
  })

  await interactionRoutes(app, {
    provider,
    db,
    basePath,
    publicUrl: config.publicUrl,
    issuer,
    mailer: deps.mailer,
    supportEmail: config.supportEmail,
    sentMail: deps.sentMail,
    signIn: config.signIn,
    deviceCookieKey: secrets.deviceCookieKey,
    // The app's clock when it has one, so that tests which move time move the sign-in throttle too.
    clock: deps.clock ?? app.services?.clock ?? systemClock,
  })

  return { issuer, jwks: publicKeySet(secrets.signingKeys), privateSigningKey }
}
