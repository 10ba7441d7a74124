import { z } from 'zod'
import { errorBodySchema } from '@pactum/contracts/errors'
import {
  changeEmailBodySchema,
  changePasswordSchema,
  closeAccountBodySchema,
  emailConfirmationSentSchema,
  meSchema,
  sessionsSignedOutSchema,
  signedInSessionsSchema,
} from '@pactum/contracts/me'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { listSessions, signOutOtherSessions } from './account-sessions.ts'
import { requestEmailChange } from './change-email.ts'
import { changePassword } from './change-password.ts'
import { closeAccount } from '../profile/close-account.ts'
import { resendEmailConfirmation } from './email-confirmation.ts'
import { clientKeyOf } from './oidc/sign-in-throttle.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { perPersonHourly } from '../../http/per-person-limit.ts'

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: meSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const user = userOf(request)
      return {
        id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        roles: user.roles,
        email_verified: user.emailVerified,
        pending_roles: user.pendingRoles,
        pending_role_needs: user.pendingRoleNeeds,
        created: user.createdAt.toISOString(),
      }
    },
  )

  app.post(
    '/me/email_confirmation',
    {
      onRequest: app.authenticate,
      // Each call e-mails the person: a few an hour is all anyone needs.
      config: perPersonHourly('email_confirmation', 3),
      schema: {
        tags: ['profile'],
        summary: 'E-mail the address confirmation link again (embedded sign-in; 3 an hour)',
        security: [{ bearer: [] }],
        response: { 202: emailConfirmationSentSchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { db, mailer, clock, config } = app.services
      const embeddedIssuer = config.oidc.mode === 'embedded' ? config.oidc.issuer : null
      return reply
        .status(202)
        .send(await resendEmailConfirmation({ db, mailer, clock, embeddedIssuer, supportEmail: config.supportEmail }, userOf(request)))
    },
  )

  app.post(
    '/me/close_account',
    {
      onRequest: app.authenticate,
      // Irreversible and dear in database work: nobody needs more than a few tries.
      config: perPersonHourly('close_account', 5),
      schema: {
        tags: ['profile'],
        summary: 'Close the account: refused while money is held or owed; personal data erased, the ledger kept',
        security: [{ bearer: [] }],
        body: closeAccountBodySchema,
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { db, clock, config, connectedAccounts, jobs } = app.services
      const embeddedIssuer = config.oidc.mode === 'embedded' ? config.oidc.issuer : null
      await closeAccount({ db, clock, jobs, connectedAccounts, embeddedIssuer }, userOf(request), request.body.confirm_email)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/me/email',
    {
      onRequest: app.authenticate,
      // Each call checks a password and e-mails two addresses.
      config: perPersonHourly('email_change', 5),
      schema: {
        tags: ['profile'],
        summary: 'Change the sign-in address (embedded sign-in; it changes when the link sent to the new address is opened; 5 an hour)',
        security: [{ bearer: [] }],
        body: changeEmailBodySchema,
        response: {
          202: emailConfirmationSentSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { db, mailer, clock, config } = app.services
      const embeddedIssuer = config.oidc.mode === 'embedded' ? config.oidc.issuer : null
      const sent = await requestEmailChange({ db, mailer, clock, embeddedIssuer, supportEmail: config.supportEmail }, userOf(request), {
        newEmail: request.body.new_email,
        currentPassword: request.body.current_password,
      })
      return reply.status(202).send(sent)
    },
  )

  app.post(
    '/me/password',
    {
      onRequest: app.authenticate,
      // On top of the password throttle (per account and address, as at sign-in): a bound on the hashing work.
      config: perPersonHourly('password', 10),
      schema: {
        tags: ['profile'],
        summary: 'Change the password (embedded sign-in); every other session is signed out',
        security: [{ bearer: [] }],
        body: changePasswordSchema,
        response: {
          200: sessionsSignedOutSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { db, clock, config } = app.services
      const embeddedIssuer = config.oidc.mode === 'embedded' ? config.oidc.issuer : null
      return changePassword({ db, clock, embeddedIssuer, signIn: config.signIn }, userOf(request), {
        currentPassword: request.body.current_password,
        newPassword: request.body.new_password,
        clientKey: clientKeyOf(request.ip),
        keepGrantId: request.accessTokenGrantId,
      })
    },
  )

  app.get(
    '/me/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'The browsers signed in to the account (embedded sign-in)',
        security: [{ bearer: [] }],
        response: { 200: signedInSessionsSchema, 401: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => {
      const { db, config } = app.services
      const embeddedIssuer = config.oidc.mode === 'embedded' ? config.oidc.issuer : null
      return listSessions({ db, embeddedIssuer }, userOf(request), request.accessTokenGrantId)
    },
  )

  app.post(
    '/me/sessions/sign_out_others',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'Sign out every other browser (embedded sign-in); this one stays signed in',
        security: [{ bearer: [] }],
        response: { 200: sessionsSignedOutSchema, 401: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => {
      const { db, config } = app.services
      const embeddedIssuer = config.oidc.mode === 'embedded' ? config.oidc.issuer : null
      return signOutOtherSessions({ db, embeddedIssuer }, userOf(request), request.accessTokenGrantId)
    },
  )
}
