import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type Provider from 'oidc-provider'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { type PasskeySignIn, type RelyingParty, signInOptions, verifyPasskeySignIn } from './passkeys.ts'

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>
interface UidParams {
  uid: string
}

/** Per client address: each call makes a challenge row or checks a signature. */
const passkeyRateLimit = { max: 30, timeWindow: 60_000 }

/** The browser side of WebAuthn: @simplewebauthn/browser's own bundle, and the page's button. */
async function assetFiles(): Promise<Record<string, string>> {
  const browserEntry = createRequire(import.meta.url).resolve('@simplewebauthn/browser')
  const bundle = path.join(path.dirname(browserEntry), '..', 'dist', 'bundle', 'index.umd.min.js')
  return {
    'simplewebauthn-browser.js': await readFile(bundle, 'utf8'),
    'passkey-sign-in.js': await readFile(new URL('./assets/passkey-sign-in.js', import.meta.url), 'utf8'),
  }
}

/**
 * "Sign in with a passkey" on the embedded sign-in page (issue 30), instead
 * of the password: `POST <issuer>/interaction/:uid/passkey/options` gives
 * the challenge, tied to this browser's interaction; `POST
 * <issuer>/interaction/:uid/passkey` takes the signed answer (a form field,
 * so that the answer is the usual redirect) and signs in the account whose
 * passkey it is. Registered inside the sign-in pages' scope.
 */
export async function passkeySignInRoutes(
  scope: FastifyInstance,
  deps: {
    db: Kysely<Database>
    clock: Clock
    relyingParty: RelyingParty
    loadInteraction: (request: FastifyRequest<{ Params: UidParams }>, reply: FastifyReply) => Promise<Interaction | undefined>
    /** The sign-in page again, with an error above the form. */
    refuse: (request: FastifyRequest, reply: FastifyReply, interaction: Interaction, status: number) => FastifyReply
    expired: (request: FastifyRequest, reply: FastifyReply) => FastifyReply
    signIn: (request: FastifyRequest, reply: FastifyReply, interaction: Interaction, passkey: PasskeySignIn) => Promise<unknown>
  },
): Promise<void> {
  const assets = await assetFiles()
  scope.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    const body = assets[request.params.file]
    if (body === undefined) return reply.status(404).type('text/plain; charset=utf-8').send('Not found')
    return reply.header('Cache-Control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(body)
  })

  scope.post<{ Params: UidParams }>(
    '/interaction/:uid/passkey/options',
    { config: { rateLimit: passkeyRateLimit } },
    async (request, reply) => {
      const interaction = await deps.loadInteraction(request, reply)
      if (!interaction) return reply.status(400).header('Cache-Control', 'no-store').send({ error: 'expired' })
      const options = await signInOptions(deps.db, deps.relyingParty, interaction.uid, deps.clock.now())
      return reply.header('Cache-Control', 'no-store').send(options)
    },
  )

  scope.post<{ Params: UidParams }>('/interaction/:uid/passkey', { config: { rateLimit: passkeyRateLimit } }, async (request, reply) => {
    const interaction = await deps.loadInteraction(request, reply)
    if (!interaction) return deps.expired(request, reply)
    const response = parsePasskeyAnswer((request.body as { credential?: unknown } | undefined)?.credential)
    const signedIn = response ? await verifyPasskeySignIn(deps.db, deps.relyingParty, interaction.uid, response, deps.clock.now()) : null
    if (!signedIn) return deps.refuse(request, reply, interaction, 401)
    return deps.signIn(request, reply, interaction, signedIn)
  })
}

/** The form field holds the browser's AuthenticationResponseJSON; anything else is no answer. */
export function parsePasskeyAnswer(field: unknown): AuthenticationResponseJSON | null {
  if (typeof field !== 'string' || field.length > 32_768) return null
  try {
    const value = JSON.parse(field) as Partial<AuthenticationResponseJSON>
    const response = value.response
    const ok =
      typeof value.id === 'string' &&
      typeof value.rawId === 'string' &&
      value.type === 'public-key' &&
      typeof response?.clientDataJSON === 'string' &&
      typeof response.authenticatorData === 'string' &&
      typeof response.signature === 'string'
    return ok ? (value as AuthenticationResponseJSON) : null
  } catch {
    return null
  }
}
