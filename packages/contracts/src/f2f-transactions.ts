import { f2fActions, invitationActions } from '@pactum/domain/transactions/available-actions'
import { f2fStatuses } from '@pactum/domain/transactions/f2f-state'
import { z } from 'zod'
import {
  amountSchema,
  chargeCalculatorVersionSchema,
  currencyCodeSchema,
  descriptionSchema,
  joinPreviewSchema,
  paymentMethodSchema,
  roleSchema,
  sharedOfferFields,
  sharedPreviewFields,
  sharedPreviewPicks,
  sharedViewFields,
  type Transaction,
  transactionSchema,
} from './transactions.ts'

/**
 * Request and response shapes of the face-to-face calls under /p2p (spec §7,
 * DESIGN §5 and the pinned shapes of the face-to-face work). A face-to-face
 * sale is priced twice: the deposit when it is created, the total when the
 * seller sets it (`pricing.price` is the total; its `charge` is the fee on the
 * remainder, total − deposit).
 */
export const f2fStatusSchema = z.enum(f2fStatuses)
export type F2fStatus = z.infer<typeof f2fStatusSchema>

/** What `available_actions` may hold: the state machine's steps and the invitation's re-send. */
export const offeredF2fActionSchema = z.enum([...f2fActions, ...invitationActions])

export const pricingSchema = z.object({ price: amountSchema, charge: amountSchema, charge_seller: amountSchema }).meta({ id: 'Pricing' })
export type Pricing = z.infer<typeof pricingSchema>

const timestamp = z.string().nullable()

export const f2fTransactionSchema = z
  .object({
    id: z.string(),
    type: z.literal('f2f'),
    status: f2fStatusSchema,
    ...sharedViewFields,
    creator_role: roleSchema,
    deposit_pricing: pricingSchema,
    pricing: pricingSchema.nullable().meta({ description: 'the total and the remainder’s fee; null until the seller sets the price' }),
    payment_method: paymentMethodSchema.nullable().meta({ description: 'the deposit’s method; the remainder is paid the same way' }),
    show_seller_confirm_handover: z.boolean(),
    cancellation: z.object({ description: z.string() }).nullable(),
    deposit_paid: timestamp,
    deposit_accepted: timestamp,
    priced: timestamp,
    remainder_paid: timestamp,
    remainder_skipped: timestamp,
    seller_handover_confirmed: timestamp,
    buyer_handover_confirmed: timestamp,
    cancelled_with_deposit: timestamp,
    deposit_refunded: timestamp,
    available_actions: z.array(offeredF2fActionSchema).meta({ description: 'what the caller may do now, as the action paths name it' }),
  })
  .meta({ id: 'F2fTransaction' })
export type F2fTransaction = z.infer<typeof f2fTransactionSchema>

/** GET /me/transactions lists both kinds; `type` tells them apart. */
export const anyTransactionSchema = z.discriminatedUnion('type', [transactionSchema, f2fTransactionSchema])
export type AnyTransaction = Transaction | F2fTransaction
export const anyTransactionListSchema = z.array(anyTransactionSchema)
export const f2fTransactionListSchema = z.array(f2fTransactionSchema)

/** What a row of a list shows: the amount a row names besides the fields of the full view it shares. */
const rowAmountSchema = amountSchema.meta({
  description: 'the price; for a face-to-face sale the total once the seller has set it, the deposit before',
})
const summaryFields = {
  id: true,
  type: true,
  status: true,
  role: true,
  description: true,
  currency: true,
  listing_id: true,
  created: true,
  unread_messages: true,
} as const

/** Who the reader deals with, as a row names them. */
const counterpartyNameSchema = z.string().nullable().meta({
  description: "the other party's first name and the initial of their surname (`Anna K.`); null until they joined",
})
const rowFields = { amount: rowAmountSchema, counterparty_name: counterpartyNameSchema }

/** `GET /me/transactions?view=summary`: one row of My transactions, and nothing else (strict, see below). */
export const transactionSummarySchema = z
  .discriminatedUnion('type', [
    transactionSchema.pick(summaryFields).extend(rowFields).strict(),
    f2fTransactionSchema.pick(summaryFields).extend(rowFields).strict(),
  ])
  .meta({ id: 'TransactionSummary' })
export type TransactionSummary = z.infer<typeof transactionSummarySchema>

/**
 * A list answers with summaries or with full transactions (`view`). The
 * summaries first, being the cheaper check of the page's own request; they
 * are strict, so that a full transaction fails them instead of passing with
 * its other fields stripped.
 */
export const anyTransactionListOrSummariesSchema = z.union([z.array(transactionSummarySchema), anyTransactionListSchema])
export const f2fTransactionListOrSummariesSchema = z.union([z.array(transactionSummarySchema), f2fTransactionListSchema])

// POST /p2p/me/transactions
export const createF2fTransactionBodySchema = z
  .object({
    ...sharedOfferFields,
    deposit_price: amountSchema,
    deposit_charge: amountSchema,
  })
  .meta({ id: 'CreateF2fTransaction' })
export type CreateF2fTransactionBody = z.infer<typeof createF2fTransactionBodySchema>

// PATCH /p2p/transactions/{id} (creator, before anyone joined)
export const updateF2fTransactionBodySchema = z
  .object({
    description: descriptionSchema.optional(),
    currency: currencyCodeSchema.optional(),
    deposit_price: amountSchema.optional(),
    deposit_charge: amountSchema.optional(),
    charge_calculator_version: chargeCalculatorVersionSchema.optional(),
  })
  .meta({ id: 'UpdateF2fTransaction' })
export type UpdateF2fTransactionBody = z.infer<typeof updateF2fTransactionBodySchema>

// POST /p2p/transactions/{id}/set_price
export const setPriceBodySchema = z
  .object({
    price: amountSchema.meta({ description: 'the total, deposit included' }),
    charge: amountSchema.meta({ description: 'the fee on the remainder as quoted by GET /p2p/transactions/{id}/charge' }),
    charge_calculator_version: chargeCalculatorVersionSchema,
  })
  .meta({ id: 'SetPrice' })
export type SetPriceBody = z.infer<typeof setPriceBodySchema>

// POST /p2p/transactions/{id}/cancel_with_description
export const cancelWithDescriptionBodySchema = z.object({ description: descriptionSchema }).meta({ id: 'CancelWithDescription' })

/** The fixed text the creator's cancellation sends (spec §4). */
export const creatorCancellationDescription = 'cancelled by creator'

// GET /p2p/transactions/{id}/charge prices the remainder for a total
export const remainderChargeQuerySchema = z.object({
  price: z.coerce.number().int().meta({ description: 'the total, deposit included' }),
  payment_method: paymentMethodSchema.optional(),
})

/** GET /p2p/transactions_by_join_code/{code}: what the counterparty sees before joining. */
export const f2fJoinPreviewSchema = f2fTransactionSchema
  .pick({ ...sharedPreviewPicks, deposit_pricing: true })
  .extend({
    ...sharedPreviewFields,
    charge_seller: amountSchema.meta({ description: 'withheld from the seller’s deposit payout, as deposit_pricing.charge_seller' }),
    quantity: z.number().int(),
  })
  .meta({ id: 'F2fJoinPreview' })
export type F2fJoinPreview = z.infer<typeof f2fJoinPreviewSchema>

/** GET /transactions?join_code={code}: the preview of either kind, `type` telling which (a join link does not say). */
export const anyJoinPreviewSchema = z.discriminatedUnion('type', [joinPreviewSchema, f2fJoinPreviewSchema]).meta({ id: 'AnyJoinPreview' })
