import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type Provider from 'oidc-provider'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { findAccountProfile } from './accounts.ts'
import { type AuthenticationMethods, signedInWith } from './authentication-methods.ts'
import { parsePasskeyAnswer } from './passkey-sign-in.ts'
import { type RelyingParty, signInOptions, verifyPasskeySignIn } from './passkeys.ts'
import { type PageContext, secondFactorPage, type SecondFactorView, type SendPage } from './pages.ts'
import {
  closeSecondFactorStep,
  hasAny,
  noteWrongCode,
  openSecondFactorStep,
  pendingSecondFactor,
  secondFactorsOf,
} from './second-factor.ts'
import { useTotpCode } from './totp.ts'

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>
interface UidParams {
  uid: string
}

/** Per client address: each post checks a code or a signature. */
const stepRateLimit = { max: 20, timeWindow: 60_000 }

export interface SecondFactorDeps {
  db: Kysely<Database>
  clock: Clock
  relyingParty: RelyingParty
  pagePath: (uid: string) => string
  loadInteraction: (request: FastifyRequest<{ Params: UidParams }>, reply: FastifyReply) => Promise<Interaction | undefined>
  pageContext: (request: FastifyRequest, interaction?: Interaction) => PageContext
  sendPage: SendPage
  /** The expired-interaction page. */
  expired: (request: FastifyRequest, reply: FastifyReply) => FastifyReply
  /** The sign-in page again with an error above the form: the person starts over from the password. */
  startOver: (
    request: FastifyRequest,
    reply: FastifyReply,
    interaction: Interaction,
    message: 'secondFactor.tooMany' | 'secondFactor.expired',
  ) => FastifyReply
  finish: (
    request: FastifyRequest,
    reply: FastifyReply,
    interaction: Interaction,
    accountId: string,
    amr: AuthenticationMethods,
  ) => Promise<void>
}

/**
 * The second step of the embedded sign-in (issue 30): after a right password,
 * an account with an authenticator app or a passkey is asked for one of them
 * before it is signed in, and the sign-in's `amr` says which
 * (authentication-methods.ts). Returns what the password step calls instead
 * of finishing at once.
 */
export function secondFactorRoutes(scope: FastifyInstance, deps: SecondFactorDeps) {
  const { db } = deps

  async function view(
    interaction: Interaction,
    accountId: string,
    errors: Pick<SecondFactorView, 'codeError' | 'formError'> = {},
  ): Promise<SecondFactorView> {
    const factors = await secondFactorsOf(db, accountId)
    const base = deps.pagePath(interaction.uid)
    return {
      ...(factors.totp ? { codeAction: `${base}/second-factor` } : {}),
      ...(factors.passkey
        ? { passkey: { optionsUrl: `${base}/second-factor/passkey/options`, action: `${base}/second-factor/passkey` } }
        : {}),
      startOverHref: `${base}/second-factor/start-over`,
      ...errors,
    }
  }

  /** After a right password: finishes at once for an account without a second factor, else asks for one. */
  async function afterPassword(request: FastifyRequest, reply: FastifyReply, interaction: Interaction, accountId: string) {
    if (!hasAny(await secondFactorsOf(db, accountId))) return deps.finish(request, reply, interaction, accountId, signedInWith.password)
    await openSecondFactorStep(db, interaction.uid, accountId, deps.clock.now())
    return deps.sendPage(reply, 200, secondFactorPage(deps.pageContext(request, interaction), await view(interaction, accountId)))
  }

  scope.post<{ Params: UidParams }>('/interaction/:uid/second-factor', { config: { rateLimit: stepRateLimit } }, async (request, reply) => {
    const interaction = await deps.loadInteraction(request, reply)
    if (!interaction) return deps.expired(request, reply)
    const now = deps.clock.now()
    const accountId = await pendingSecondFactor(db, interaction.uid, now)
    if (!accountId) return deps.startOver(request, reply, interaction, 'secondFactor.expired')
    const page = deps.pageContext(request, interaction)
    const code = String((request.body as { code?: unknown } | undefined)?.code ?? '').trim()
    if (code === '')
      return deps.sendPage(
        reply,
        400,
        secondFactorPage(page, await view(interaction, accountId, { codeError: page.t('secondFactor.codeRequired') })),
      )
    const account = await findAccountProfile(db, accountId)
    if (account && (await useTotpCode(db, account, code.slice(0, 16), now))) {
      await closeSecondFactorStep(db, interaction.uid)
      return deps.finish(request, reply, interaction, accountId, signedInWith.passwordAndCode)
    }
    if (await noteWrongCode(db, interaction.uid)) return deps.startOver(request, reply, interaction, 'secondFactor.tooMany')
    return deps.sendPage(
      reply,
      401,
      secondFactorPage(page, await view(interaction, accountId, { codeError: page.t('secondFactor.wrongCode') })),
    )
  })

  scope.post<{ Params: UidParams }>(
    '/interaction/:uid/second-factor/passkey/options',
    { config: { rateLimit: stepRateLimit } },
    async (request, reply) => {
      const interaction = await deps.loadInteraction(request, reply)
      const now = deps.clock.now()
      const accountId = interaction && (await pendingSecondFactor(db, interaction.uid, now))
      if (!interaction || !accountId) return reply.status(400).header('Cache-Control', 'no-store').send({ error: 'expired' })
      const options = await signInOptions(db, deps.relyingParty, interaction.uid, now, accountId)
      return reply.header('Cache-Control', 'no-store').send(options)
    },
  )

  scope.post<{ Params: UidParams }>(
    '/interaction/:uid/second-factor/passkey',
    { config: { rateLimit: stepRateLimit } },
    async (request, reply) => {
      const interaction = await deps.loadInteraction(request, reply)
      if (!interaction) return deps.expired(request, reply)
      const now = deps.clock.now()
      const accountId = await pendingSecondFactor(db, interaction.uid, now)
      if (!accountId) return deps.startOver(request, reply, interaction, 'secondFactor.expired')
      const answer = parsePasskeyAnswer((request.body as { credential?: unknown } | undefined)?.credential)
      const signedIn = answer ? await verifyPasskeySignIn(db, deps.relyingParty, interaction.uid, answer, now) : null
      // Only a passkey of the account whose password was given completes its sign-in.
      if (signedIn?.accountId === accountId) {
        await closeSecondFactorStep(db, interaction.uid)
        return deps.finish(request, reply, interaction, accountId, signedInWith.passwordAndPasskey)
      }
      if (await noteWrongCode(db, interaction.uid)) return deps.startOver(request, reply, interaction, 'secondFactor.tooMany')
      const page = deps.pageContext(request, interaction)
      return deps.sendPage(
        reply,
        401,
        secondFactorPage(page, await view(interaction, accountId, { formError: page.t('secondFactor.passkeyRejected') })),
      )
    },
  )

  /** "Start again": the step is dropped and the sign-in page shown, for another account or a mistyped address. */
  scope.get<{ Params: UidParams }>('/interaction/:uid/second-factor/start-over', async (request, reply) => {
    const interaction = await deps.loadInteraction(request, reply)
    if (!interaction) return deps.expired(request, reply)
    await closeSecondFactorStep(db, interaction.uid)
    return reply.redirect(deps.pagePath(interaction.uid), 303)
  })

  /**
   * The second step again when the interaction's page is opened while it
   * waits for one (a reload, another language): undefined when it does not.
   */
  async function pendingPage(request: FastifyRequest, interaction: Interaction, page: PageContext): Promise<string | undefined> {
    const accountId = await pendingSecondFactor(db, interaction.uid, deps.clock.now())
    return accountId ? secondFactorPage(page, await view(interaction, accountId)) : undefined
  }

  return { afterPassword, pendingPage }
}
