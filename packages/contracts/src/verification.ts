import { z } from 'zod'

/**
 * Identity verification (spec §3 Verification, Legacy document status; §7
 * Profile and payout; DESIGN §4). Two methods, chosen by the server
 * (`IDENTITY_VERIFICATION_METHOD`):
 * - `legacy`: the user uploads an identity document (and, if asked, an
 *   additional document such as a proof of address), front and back, as
 *   multipart/form-data with the file in the field `file` and the side in the
 *   field `side` (`front`, the default, or `back`). pdf, png or jpeg, checked
 *   by content; at most 10,000,000 bytes. The payment provider checks each
 *   file asynchronously: a side is `pending` until it is `verified` or
 *   `rejected`.
 * - `stripe_identity`: the user goes through the payment provider's hosted
 *   verification session (`GET /me/verification_session` gives its `url`);
 *   the session moves requires_input → processing → verified (or back to
 *   requires_input with a message).
 */

export const identityDocumentKinds = ['identity_document', 'additional_identity_document'] as const
export type IdentityDocumentKind = (typeof identityDocumentKinds)[number]

export const documentSides = ['front', 'back'] as const
export type DocumentSide = (typeof documentSides)[number]

/** Content types accepted for identity files (checked by content, not by name or header). */
export const identityFileTypes = ['application/pdf', 'image/png', 'image/jpeg'] as const
export const maxIdentityFileBytes = 10_000_000

export const documentSideStatuses = ['not_uploaded', 'pending', 'verified', 'rejected'] as const
export type DocumentSideStatus = (typeof documentSideStatuses)[number]

export const documentSideStatusSchema = z.object({
  status: z.enum(documentSideStatuses),
  /** A file was uploaded for this side before (it may since have been rejected or replaced). */
  previously_submitted: z.boolean(),
  /** Why the provider rejected the file; null unless rejected. */
  rejection_reason: z.string().nullable(),
})
export type DocumentSideState = z.infer<typeof documentSideStatusSchema>

/** GET /me/personal/{document}/verification_status, and the answer to an upload. */
export const documentVerificationStatusSchema = z
  .object({
    document: z.enum(identityDocumentKinds),
    /** Whether the payment provider currently asks for this document (payout requirements). */
    required: z.boolean(),
    front: documentSideStatusSchema,
    back: documentSideStatusSchema,
  })
  .meta({ id: 'DocumentVerificationStatus' })
export type DocumentVerificationStatus = z.infer<typeof documentVerificationStatusSchema>

export const verificationMethods = ['legacy', 'stripe_identity'] as const
export type VerificationMethod = (typeof verificationMethods)[number]

/** GET /me/verification_method. `message` is an English hint for the user (the web app shows its own translation). */
export const verificationMethodSchema = z
  .object({ verification_method: z.enum(verificationMethods), message: z.string() })
  .meta({ id: 'VerificationMethod' })
export type VerificationMethodResponse = z.infer<typeof verificationMethodSchema>

export const verificationSessionStatuses = ['not_created', 'requires_input', 'processing', 'verified', 'canceled'] as const
export type VerificationSessionStatus = (typeof verificationSessionStatuses)[number]

/** GET /me/verification_status: the user's verification as a whole, whichever method. */
export const verificationStatusSchema = z
  .object({
    verification_method: z.enum(verificationMethods),
    /** The identity is verified (by the session, or by a verified identity document). */
    verified: z.boolean(),
    /** Why the last attempt failed, or what to do next; '' when nothing to say. */
    message: z.string(),
    verification_session_id: z.string().nullable(),
    verification_session_status: z.enum(verificationSessionStatuses),
  })
  .meta({ id: 'VerificationStatus' })
export type VerificationStatus = z.infer<typeof verificationStatusSchema>

/** GET /me/verification_session: the open session (created if there is none), for the stripe_identity method. */
export const verificationSessionSchema = z
  .object({
    verification_session_id: z.string(),
    verification_session_status: z.enum(verificationSessionStatuses),
    /** For Stripe.js `verifyIdentity` (Stripe); the sandbox's hosted page takes it too. */
    client_secret: z.string(),
    /** The hosted verification page; it returns to `return_url` (a query parameter of this call, same-origin path) when done. */
    url: z.string(),
    message: z.string(),
  })
  .meta({ id: 'VerificationSession' })
export type VerificationSession = z.infer<typeof verificationSessionSchema>

/** GET /me/account_session: for the provider's embedded account components. */
export const accountSessionSchema = z.object({ client_secret: z.string() }).meta({ id: 'AccountSession' })
export type AccountSession = z.infer<typeof accountSessionSchema>

/** POST /me/account_onboarding_link: where the seller comes back to, a path on this site. */
export const onboardingLinkBodySchema = z
  .object({ return_url: z.string().max(2000).default('/profile/details') })
  .meta({ id: 'OnboardingLinkBody' })
export const onboardingLinkSchema = z.object({ url: z.url() }).meta({ id: 'OnboardingLink' })
export type OnboardingLink = z.infer<typeof onboardingLinkSchema>

/** POST /me/personal/business_url: the web page where the seller sells (the provider asks companies for one). */
export const businessUrlBodySchema = z
  .object({
    url: z.url({ protocol: /^https?$/, message: 'A web address starting with http:// or https://' }).max(2000),
  })
  .meta({ id: 'BusinessUrlBody' })
export type BusinessUrlBody = z.infer<typeof businessUrlBodySchema>
export const businessUrlResponseSchema = z.object({ business_url: z.string() }).meta({ id: 'BusinessUrl' })
