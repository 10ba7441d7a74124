import { errorBodySchema } from '@pactum/contracts/errors'
import {
  passkeyCreationOptionsSchema,
  passkeyOptionsBodySchema,
  passkeySchema,
  passkeysSchema,
  registerPasskeyBodySchema,
} from '@pactum/contracts/passkeys'
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { relyingPartyOf } from './oidc/passkeys.ts'
import { signInChangeNotifier } from './oidc/sign-in-change-notice.ts'
import { beginPasskeyRegistration, deletePasskey, finishPasskeyRegistration, type PasskeyDeps, passkeysOf } from './account-passkeys.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { perPersonHourly } from '../../http/per-person-limit.ts'

/** The signed-in person's passkeys (issue 30), for the Account page; embedded sign-in only. */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config, mailer } = app.services
  const notify = signInChangeNotifier({ mailer, supportEmail: config.supportEmail }, app.log)
  const deps: PasskeyDeps = {
    notify,
    db,
    clock,
    relyingParty: relyingPartyOf(config.publicUrl),
    embeddedIssuer: config.oidc.mode === 'embedded' ? config.oidc.issuer : null,
  }
  const secured = { tags: ['profile'], security: [{ bearer: [] }] }
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema }
  // Each call that checks a password or a signature is limited per person.

  app.get(
    '/me/passkeys',
    {
      onRequest: app.authenticate,
      schema: { ...secured, summary: 'The passkeys of the signed-in account', response: { 200: passkeysSchema, ...errors } },
    },
    async (request) => passkeysOf(deps, userOf(request)),
  )

  app.post(
    '/me/passkeys/registration_options',
    {
      onRequest: app.authenticate,
      config: perPersonHourly('passkey_options', 10),
      schema: {
        ...secured,
        summary: 'Begin adding a passkey: the current password, then WebAuthn creation options for the browser (10 an hour)',
        body: passkeyOptionsBodySchema,
        response: { 200: passkeyCreationOptionsSchema, ...errors },
      },
    },
    // Handed to the browser as the WebAuthn library made it; the schema names only its outline.
    async (request) =>
      (await beginPasskeyRegistration(deps, userOf(request), request.body.current_password)) as unknown as z.infer<
        typeof passkeyCreationOptionsSchema
      >,
  )

  app.post(
    '/me/passkeys',
    {
      onRequest: app.authenticate,
      config: perPersonHourly('passkey_register', 20),
      schema: {
        ...secured,
        summary: "Finish adding a passkey: the browser's answer to the creation options",
        body: registerPasskeyBodySchema,
        response: { 201: passkeySchema, ...errors },
      },
    },
    async (request, reply) => {
      const passkey = await finishPasskeyRegistration(deps, userOf(request), {
        name: request.body.name,
        // Checked field by field by the WebAuthn library; the schema only bounds its size.
        response: request.body.response as unknown as RegistrationResponseJSON,
      })
      return reply.status(201).send(passkey)
    },
  )

  app.delete(
    '/me/passkeys/:passkey_id',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Remove a passkey of the signed-in account',
        params: z.object({ passkey_id: z.string().min(1).max(1024) }),
        response: { 204: z.null(), 404: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      await deletePasskey(deps, userOf(request), request.params.passkey_id)
      return reply.status(204).send(null)
    },
  )
}
