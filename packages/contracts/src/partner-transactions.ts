import { supportedLocales } from '@pactum/domain/locales'
import { z } from 'zod'
import { f2fTransactionSchema } from './f2f-transactions.ts'
import {
  amountSchema,
  currencyCodeSchema,
  descriptionSchema,
  guestEmailSchema,
  transactionSchema,
  transactionTypeInputSchema,
} from './transactions.ts'

/**
 * A partner client creates a transaction on behalf of its users, known to
 * Pactum only by e-mail (issue 35): `POST /partner/transactions` invites the
 * seller, the buyer or both; `POST /partner/guest_transactions` is the same
 * call with both required (docs/decisions/116-partner-creates-and-cancels.md).
 */

/** The offer's terms, the same in both calls. */
export const partnerOfferFields = {
  type: transactionTypeInputSchema,
  price: amountSchema.meta({ description: 'online: the price; face-to-face: the deposit' }),
  currency: currencyCodeSchema,
  description: descriptionSchema,
  invitation_language: z.enum(supportedLocales).optional().meta({
    description: 'the language of the invitations; else the invitee’s own when they use Pactum already; else English',
  }),
}

const differentParties = (body: { buyer_email?: string | undefined; seller_email?: string | undefined }) =>
  body.buyer_email === undefined || body.buyer_email !== body.seller_email

// POST /partner/transactions
export const partnerTransactionBodySchema = z
  .object({
    ...partnerOfferFields,
    seller_email: guestEmailSchema.optional().meta({ description: 'invite the seller by e-mail (a claim link)' }),
    buyer_email: guestEmailSchema.optional().meta({ description: 'invite the buyer by e-mail (a claim link)' }),
  })
  .refine((body) => body.seller_email !== undefined || body.buyer_email !== undefined, {
    message: 'give seller_email, buyer_email or both',
    path: ['seller_email'],
  })
  .refine(differentParties, { message: 'buyer and seller must differ', path: ['seller_email'] })
  .meta({ id: 'PartnerTransactionInput' })
export type PartnerTransactionBody = z.infer<typeof partnerTransactionBodySchema>

/** What the creating call adds to the transaction as the partner API shows it. */
const createdFields = {
  seller_email: z.string().nullable().meta({ description: 'the address the seller’s invitation went to; null when not invited' }),
  buyer_email: z.string().nullable().meta({ description: 'the address the buyer’s invitation went to; null when not invited' }),
  join_code: z.string().nullable().meta({
    description:
      'when one party was invited: the code the other takes their place with (show it on your site; PUT /transactions?join_code=CODE); null when both were invited',
  }),
}

// 201 of POST /partner/transactions: the view of GET /partner/transactions/{id}, with the invitations and the join code.
export const partnerTransactionCreatedSchema = z
  .discriminatedUnion('type', [transactionSchema.extend(createdFields), f2fTransactionSchema.extend(createdFields)])
  .meta({ id: 'PartnerTransactionCreated' })
export type PartnerTransactionCreated = z.infer<typeof partnerTransactionCreatedSchema>

/** The fixed text of a face-to-face sale the partner calls off, as the creator's is "cancelled by creator" (spec §4). */
export const partnerCancellationDescription = 'cancelled by partner'
