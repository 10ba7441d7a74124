import { z } from 'zod'
import {
  amountSchema,
  chargeCalculatorVersionSchema,
  currencyCodeSchema,
  descriptionSchema,
  paymentMethodSchema,
  transactionTypeInputSchema,
  transactionTypeSchema,
} from './transactions.ts'

/**
 * A seller's listing (DESIGN §3 "Listings and guests"): a reusable offer a
 * buyer opens by its link to start a purchase the seller then accepts or
 * rejects. Single-use listings close at their first accepted sale;
 * multi-use ones stay open until the seller closes them.
 */

export const listingTypeSchema = z.enum(['single_use', 'multi_use'])
export type ListingType = z.infer<typeof listingTypeSchema>

/** The path segment of a listing type (`/single_use_listings/{id}`). */
export const listingPathSegments = { single_use: 'single_use_listings', multi_use: 'multi_use_listings' } as const satisfies Record<
  ListingType,
  string
>

export const listingStatusSchema = z.enum(['open', 'closed'])

// POST /me/listings
export const createListingBodySchema = z
  .object({
    listing_type: listingTypeSchema,
    type: transactionTypeInputSchema,
    price: amountSchema.meta({ description: 'the price; for a face-to-face listing, the deposit (deposit_price)' }).optional(),
    deposit_price: amountSchema.meta({ description: 'face-to-face listings: the deposit asked for (price is accepted too)' }).optional(),
    currency: currencyCodeSchema,
    description: descriptionSchema,
  })
  .meta({ id: 'CreateListing' })
export type CreateListingBody = z.infer<typeof createListingBodySchema>

// PATCH /me/listings/{id}
export const updateListingBodySchema = z
  .object({
    price: amountSchema.optional(),
    deposit_price: amountSchema.optional(),
    currency: currencyCodeSchema.optional(),
    description: descriptionSchema.optional(),
  })
  .meta({ id: 'UpdateListing' })
export type UpdateListingBody = z.infer<typeof updateListingBodySchema>

export const listingSchema = z
  .object({
    id: z.string(),
    code: z.string().meta({
      description:
        'the short code a buyer can type instead of the id, in two groups of five ("K7M2Q-9QHDX"); either form is accepted as {id}',
    }),
    listing_type: listingTypeSchema,
    type: transactionTypeSchema,
    price: amountSchema.meta({ description: 'for a face-to-face listing, the deposit' }),
    currency: currencyCodeSchema,
    description: z.string(),
    status: listingStatusSchema,
    url: z.string().meta({ description: 'the shareable link a buyer opens (/join-transaction/listing/{id})' }),
  })
  .meta({ id: 'Listing' })
export type Listing = z.infer<typeof listingSchema>

export const listingListSchema = z.array(listingSchema)

const purchaseCount = z.number().int().min(0)

/**
 * A listing as its seller sees it in My listings: with its purchases counted
 * (never in the buyers' preview, which would tell anyone the seller's sales)
 * and whether a single-use listing is held by a purchase waiting for the
 * seller's answer, when buyers are already told it is unavailable.
 */
export const ownListingSchema = listingSchema
  .extend({
    reserved: z.boolean().meta({ description: 'single-use and open, but held by a purchase waiting for the seller’s answer' }),
    purchases: z.object({
      awaiting_acceptance: purchaseCount.meta({ description: 'purchases waiting for the seller to accept or decline' }),
      in_progress: purchaseCount.meta({ description: 'accepted and not yet ended' }),
      completed: purchaseCount.meta({ description: 'the money released to the seller' }),
    }),
  })
  .meta({ id: 'OwnListing' })
export type OwnListing = z.infer<typeof ownListingSchema>
export const ownListingListSchema = z.array(ownListingSchema)

// GET /single_use_listings/{id}, /multi_use_listings/{id}, /{listingType}/{id}
export const listingPreviewSchema = listingSchema
  .extend({
    seller_first_name: z.string(),
    /** Whether a purchase can start now (open, and for a single-use listing no purchase waiting for the seller). */
    available: z.boolean(),
    payment_method: paymentMethodSchema,
    charge: amountSchema.meta({ description: 'the buyer’s fee for the default method (card), as the buyer will be asked to confirm' }),
    charge_calculator_version: chargeCalculatorVersionSchema,
  })
  .meta({ id: 'ListingPreview' })
export type ListingPreview = z.infer<typeof listingPreviewSchema>

// POST /{listingType}/{id}/create_transaction: the fee the buyer was shown, checked as create checks it.
export const createFromListingBodySchema = z
  .object({
    charge: amountSchema,
    charge_calculator_version: chargeCalculatorVersionSchema,
  })
  .meta({ id: 'CreateFromListing' })
export type CreateFromListingBody = z.infer<typeof createFromListingBodySchema>
