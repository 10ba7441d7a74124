import multipart from '@fastify/multipart'
import { errorBodySchema } from '@pactum/contracts/errors'
import {
  accountSessionSchema,
  onboardingLinkBodySchema,
  onboardingLinkSchema,
  businessUrlBodySchema,
  businessUrlResponseSchema,
  type DocumentSide,
  documentSides,
  documentVerificationStatusSchema,
  identityDocumentKinds,
  maxIdentityFileBytes,
  verificationMethodSchema,
  verificationSessionSchema,
  verificationStatusSchema,
} from '@pactum/contracts/verification'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { isSafeReturnUrl } from '../../http/return-url.ts'
import { setBusinessUrl } from '../profile/profile.ts'
import {
  createAccountSession,
  openProviderOnboarding,
  documentStatus,
  openVerificationSession,
  type UploadedFile,
  uploadIdentityDocument,
  type VerificationDeps,
  verificationMethod,
  verificationStatus,
} from './verification.ts'
import { fieldError } from '../../errors.ts'
import { readFileUpload } from '../../http/multipart-upload.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { perPersonHourly } from '../../http/per-person-limit.ts'

const secured = { tags: ['verification'], security: [{ bearer: [] }] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema }
const documentParamsSchema = z.object({ document: z.enum(identityDocumentKinds) })

/**
 * Identity verification and the account's other provider-side details
 * (spec §7 Profile and payout). Uploads are multipart/form-data: the file in
 * `file`, the side in `side` (DESIGN §5).
 */
export const verificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config, connectedAccounts, identity } = app.services
  const deps: VerificationDeps = { db, clock, connectedAccounts, identity, method: config.verificationMethod }

  // Limits enforced while streaming: a bigger file is cut off, never buffered whole.
  await app.register(multipart, { limits: { fileSize: maxIdentityFileBytes, files: 1, fields: 4, fieldSize: 100, parts: 5 } })

  app.get(
    '/me/verification_method',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'How the user proves who they are',
        response: { 200: verificationMethodSchema, 401: errorBodySchema },
      },
    },
    async () => verificationMethod(deps),
  )

  app.get(
    '/me/verification_status',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Whether the user is verified, whichever the method',
        response: { 200: verificationStatusSchema, 401: errorBodySchema },
      },
    },
    async (request) => verificationStatus(deps, userOf(request).id),
  )

  app.get(
    '/me/verification_session',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'The open identity verification session (created when there is none)',
        querystring: z.object({ return_url: z.string().max(2000).default('/profile/details') }),
        response: { 200: verificationSessionSchema, ...errors },
      },
    },
    async (request) => {
      const returnUrl = request.query.return_url
      if (!isSafeReturnUrl(returnUrl)) {
        throw fieldError('querystring.return_url', 'A path on this site, as /profile/details')
      }
      return openVerificationSession(deps, userOf(request).id, returnUrl)
    },
  )

  app.get(
    '/me/account_session',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: "A session for the provider's embedded account components",
        response: { 200: accountSessionSchema, 401: errorBodySchema },
      },
    },
    async (request) => createAccountSession(deps, userOf(request).id),
  )

  app.post(
    '/me/account_onboarding_link',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: "The payment provider's onboarding page, for what only it collects (409 onboarding_not_required otherwise)",
        body: onboardingLinkBodySchema,
        response: { 200: onboardingLinkSchema, ...errors },
      },
    },
    async (request) => {
      if (!isSafeReturnUrl(request.body.return_url)) throw fieldError('body.return_url', 'A path on this site, as /profile/details')
      return openProviderOnboarding(deps, userOf(request).id, request.body.return_url)
    },
  )

  app.get(
    '/me/personal/:document/verification_status',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Each side of a document: status and whether it was submitted before',
        params: documentParamsSchema,
        response: { 200: documentVerificationStatusSchema, ...errors },
      },
    },
    async (request) => documentStatus(deps, userOf(request).id, request.params.document),
  )

  app.post(
    '/me/personal/:document',
    {
      onRequest: app.authenticate,
      // Per user: room for retries, not for filling the disk.
      config: perPersonHourly('identity_upload', 30),
      schema: {
        ...secured,
        summary: 'Upload one side of an identity document (multipart: file, side)',
        description:
          'multipart/form-data with the file in `file` (pdf, png or jpeg by content, 1 to 10,000,000 bytes) and `side` = front (default) or back.',
        consumes: ['multipart/form-data'],
        params: documentParamsSchema,
        response: { 200: documentVerificationStatusSchema, ...errors, 413: errorBodySchema, 415: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const { side, file } = await readUpload(request)
      return uploadIdentityDocument(deps, userOf(request).id, request.params.document, side, file)
    },
  )

  app.post(
    '/me/personal/business_url',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'The web page where the seller sells',
        body: businessUrlBodySchema,
        response: { 200: businessUrlResponseSchema, ...errors },
      },
    },
    async (request) => ({
      business_url: await setBusinessUrl({ db, connectedAccounts }, userOf(request).id, request.body.url, clock.now()),
    }),
  )
}

/** The upload's `side` and `file`, read from the stream; a file over the limit stops the read. */
async function readUpload(request: FastifyRequest): Promise<{ side: DocumentSide; file: UploadedFile }> {
  if (!request.isMultipart())
    throw fieldError('body', 'Send multipart/form-data with the file in the field "file"', 'unsupported_media_type')
  let side: DocumentSide = 'front'
  const file = await readFileUpload(request, {
    fields: {
      side: (value) => {
        if (!(documentSides as readonly string[]).includes(value)) throw fieldError('body.side', 'front or back')
        side = value as DocumentSide
      },
    },
    maxBytes: maxIdentityFileBytes,
    defaultName: 'document',
    tooManyParts: 'One file and the side only',
  })
  if (!file) throw fieldError('body.file', 'Required: the document in the field "file"')
  return { side, file }
}
