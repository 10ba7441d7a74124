import { errorBodySchema } from '@pactum/contracts/errors'
import { confirmTotpBodySchema, totpPasswordBodySchema, totpSetupSchema, totpStatusSchema } from '@pactum/contracts/totp'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { signInChangeNotifier } from './oidc/sign-in-change-notice.ts'
import { beginTotpSetup, confirmTotpSetup, removeTotpOf, type TotpDeps, totpStatusOf } from './account-totp.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { perPersonHourly } from '../../http/per-person-limit.ts'

/** The signed-in person's authenticator app (issue 30), for the Account page; embedded sign-in only. */
export const totpRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config, mailer } = app.services
  const notify = signInChangeNotifier({ mailer, supportEmail: config.supportEmail }, app.log)
  const deps: TotpDeps = { db, clock, embeddedIssuer: config.oidc.mode === 'embedded' ? config.oidc.issuer : null, notify }
  const secured = { tags: ['profile'], security: [{ bearer: [] }] }
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema }
  // Each call that checks a password or a code is limited per person.

  app.get(
    '/me/totp',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Whether the signed-in account has an authenticator app',
        response: { 200: totpStatusSchema, ...errors },
      },
    },
    async (request) => totpStatusOf(deps, userOf(request)),
  )

  app.post(
    '/me/totp/setup',
    {
      onRequest: app.authenticate,
      config: perPersonHourly('totp_setup', 10),
      schema: {
        ...secured,
        summary: 'Begin setting up an authenticator app: the current password, then a new secret for the app (10 an hour)',
        body: totpPasswordBodySchema,
        response: { 200: totpSetupSchema, ...errors },
      },
    },
    async (request) => beginTotpSetup(deps, userOf(request), request.body.current_password),
  )

  app.post(
    '/me/totp',
    {
      onRequest: app.authenticate,
      config: perPersonHourly('totp_confirm', 20),
      schema: {
        ...secured,
        summary:
          'Finish setting up the authenticator app with a code it shows: sign-ins then ask for a code after the password (20 an hour)',
        body: confirmTotpBodySchema,
        response: { 201: totpStatusSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await confirmTotpSetup(deps, userOf(request), request.body.code)),
  )

  app.post(
    '/me/totp/remove',
    {
      onRequest: app.authenticate,
      config: perPersonHourly('totp_remove', 10),
      schema: {
        ...secured,
        summary: 'Remove the authenticator app, with the current password (10 an hour)',
        body: totpPasswordBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await removeTotpOf(deps, userOf(request), request.body.current_password)
      return reply.status(204).send(null)
    },
  )
}
