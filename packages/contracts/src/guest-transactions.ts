import { z } from 'zod'
import { partnerOfferFields } from './partner-transactions.ts'
import { amountSchema, currencyCodeSchema, guestEmailSchema, roleSchema, transactionTypeSchema } from './transactions.ts'

/**
 * Guest transactions (issue 12 #2): claiming an invitation by its link's
 * secret, and a partner client inviting both parties with its API key.
 */

// The link's secret: 32 random bytes in base64url (43 characters); anything else is no secret.
export const claimSecretSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/)
export const claimSecretParams = z.object({ secret: z.string().max(100) })

// GET /transactions_by_claim_secret/{secret}: what the invitee is about to claim.
export const claimPreviewSchema = z
  .object({
    id: z.string(),
    type: transactionTypeSchema,
    role: roleSchema.meta({ description: 'the role the invitation offers' }),
    status: z.string(),
    claimed: z.boolean(),
    description: z.string(),
    currency: currencyCodeSchema,
    price: amountSchema.meta({ description: 'online: the price; face-to-face: the deposit' }),
    charge: amountSchema,
    invited_email: z.string(),
    inviter_first_name: z.string().nullable().meta({ description: 'the creator; null when a partner client invited both parties' }),
    client_id: z.string().nullable(),
  })
  .meta({ id: 'ClaimPreview' })
export type ClaimPreview = z.infer<typeof claimPreviewSchema>

// GET /guest_invitations/{secret}: the landing an invitation link opens before anyone signs in (issue 33 item 8).
export const invitationLandingSchema = z
  .object({
    type: transactionTypeSchema,
    role: roleSchema.meta({ description: 'the role the invitation offers' }),
    description: z.string(),
    currency: currencyCodeSchema,
    price: amountSchema.meta({ description: 'online: the price; face-to-face: the deposit' }),
    inviter_first_name: z
      .string()
      .nullable()
      .meta({ description: 'the creator’s first name only (never their surname or address); null when a partner client invited both' }),
    invited_email: z.string().meta({ description: 'the address the link was sent to, to prefill sign-up (OIDC login_hint)' }),
  })
  .meta({ id: 'InvitationLanding' })
export type InvitationLanding = z.infer<typeof invitationLandingSchema>

// POST /partner/guest_transactions (partner API key): POST /partner/transactions with both parties invited.
export const partnerGuestTransactionBodySchema = z
  .object({
    ...partnerOfferFields,
    buyer_email: guestEmailSchema,
    seller_email: guestEmailSchema,
  })
  .refine((body) => body.buyer_email !== body.seller_email, { message: 'buyer and seller must differ', path: ['seller_email'] })
  .meta({ id: 'PartnerGuestTransaction' })
export type PartnerGuestTransactionBody = z.infer<typeof partnerGuestTransactionBodySchema>

export const partnerGuestTransactionSchema = z
  .object({
    id: z.string(),
    type: transactionTypeSchema,
    status: z.string(),
    client_id: z.string(),
    price: amountSchema,
    charge: amountSchema,
    currency: currencyCodeSchema,
    description: z.string(),
    buyer_email: z.string(),
    seller_email: z.string(),
  })
  .meta({ id: 'PartnerGuestTransactionCreated' })
