import { invitationActions, onlineActions } from '@pactum/domain/transactions/available-actions'
import { onlineStatuses } from '@pactum/domain/transactions/online-state'
import { supportedLocales } from '@pactum/domain/locales'
import { z } from 'zod'
import { hasVisibleCharacter, localPartFits, localPartRule, visibleTextMessage } from './text-rules.ts'

/**
 * Request and response shapes of the online transaction calls (DESIGN §5,
 * "Pinned shapes"). Amounts are integers in the currency's minor unit;
 * currency codes are lower-case ISO 4217; timestamps are ISO 8601 strings or
 * null while the state has not been reached.
 */
export const roleSchema = z.enum(['buyer', 'seller'])
export type Role = z.infer<typeof roleSchema>

export const paymentMethodSchema = z.enum(['card', 'p24', 'sepa'])
export type PaymentMethod = z.infer<typeof paymentMethodSchema>

export const transactionTypeSchema = z.enum(['online', 'f2f'])

/** The spec's own name for face to face (§3 "type values: online, f"). */
const specFaceToFace = 'f'

/** A type as a request gives it: the spec's `f` is read as `f2f`; answers always say `f2f`. */
export const transactionTypeInputSchema = z
  .enum(['online', 'f2f', specFaceToFace])
  .transform((type) => (type === specFaceToFace ? 'f2f' : type))
  .meta({ description: "`f` (the specification's name) is accepted for `f2f`" })

/** A type read from a link or a form the same way, or null when it names none. */
export function readTransactionType(value: string | null | undefined): z.infer<typeof transactionTypeSchema> | null {
  const parsed = transactionTypeInputSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

export const currencyCodeSchema = z
  .string()
  .regex(/^[a-z]{3}$/, 'a lower-case ISO 4217 code such as eur')
  .meta({ example: 'eur' })

/** Minor units; the refinements that depend on the currency (minimum price) live in the domain. */
export const amountSchema = z.number().int().meta({ description: 'integer amount in the currency minor unit' })

// The state machine's own list: one source for the status names.
export const onlineStatusSchema = z.enum(onlineStatuses)
export type OnlineStatus = z.infer<typeof onlineStatusSchema>

/** What `available_actions` may hold: the state machine's steps and the invitation's re-send. */
export const offeredOnlineActionSchema = z.enum([...onlineActions, ...invitationActions])

// An empty description is said once (too short), not twice: the visibility rule runs only on text that passed the length checks.
export const descriptionSchema = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .refine(hasVisibleCharacter, { message: visibleTextMessage, when: (payload) => payload.issues.length === 0 })

/**
 * Guest transactions: the other party is invited by e-mail instead of by
 * join code (issue 12 #2). The invitation is written in `invitation_language`
 * when given, else in the invitee's own language if they already use Pactum,
 * else in the sender's.
 */
export const guestEmailSchema = z.email().trim().toLowerCase().max(320).refine(localPartFits, localPartRule)
export const guestInvitationFields = {
  counterparty_email: guestEmailSchema
    .optional()
    .meta({ description: 'invite the other party by e-mail; the transaction then has no join code' }),
  invitation_language: z.enum(supportedLocales).optional(),
}

/**
 * The fee schedule's version, an integer as in the anchor product's API. A
 * create or reprice sends back the one its quote named; any other answers
 * 409 `incorrect_calc_version`.
 */
export const chargeCalculatorVersionSchema = z
  .number()
  .int()
  .meta({ description: 'the fee schedule version the charge was quoted with (GET /charge)', example: 1 })

// GET /charge and GET /transactions/{id}/charge
export const chargeQuerySchema = z.object({
  price: z.coerce.number().int(),
  currency: currencyCodeSchema,
  payment_method: paymentMethodSchema.default('card'),
})
export const transactionChargeQuerySchema = chargeQuerySchema.pick({ price: true, payment_method: true })

export const chargeQuoteSchema = z
  .object({
    price: amountSchema,
    currency: currencyCodeSchema,
    payment_method: paymentMethodSchema,
    charge: amountSchema,
    charge_seller: amountSchema,
    charge_buyer_client: amountSchema.meta({ description: 'a partner client’s fee on top of the charge; 0 (no partner fee exists yet)' }),
    charge_seller_client: amountSchema.meta({
      description: 'a partner client’s share withheld from the seller; 0 (no partner fee exists yet)',
    }),
    charge_calculator_version: chargeCalculatorVersionSchema,
  })
  .meta({ id: 'ChargeQuote' })
export type ChargeQuote = z.infer<typeof chargeQuoteSchema>

/** What creating either kind asks for besides its price and fee: the creator's role, the item, and whom to invite. */
export const sharedOfferFields = {
  role: roleSchema,
  currency: currencyCodeSchema,
  description: descriptionSchema,
  charge_calculator_version: chargeCalculatorVersionSchema,
  ...guestInvitationFields,
}

// POST /me/transactions
export const createTransactionBodySchema = z
  .object({
    ...sharedOfferFields,
    price: amountSchema,
    payment_method: paymentMethodSchema.optional(),
    charge: amountSchema,
  })
  .meta({ id: 'CreateTransaction' })
export type CreateTransactionBody = z.infer<typeof createTransactionBodySchema>

// PATCH /transactions/{id} (creator, before anyone joined)
export const updateTransactionBodySchema = z
  .object({
    price: amountSchema.optional(),
    currency: currencyCodeSchema.optional(),
    description: descriptionSchema.optional(),
    payment_method: paymentMethodSchema.optional(),
    charge: amountSchema.optional(),
    charge_calculator_version: chargeCalculatorVersionSchema.optional(),
  })
  .meta({ id: 'UpdateTransaction' })

export const trackingSchema = z.object({
  carrier: z.string(),
  tracking_code: z.string(),
  tracking_url: z
    .string()
    .nullable()
    .meta({ description: "the carrier's public tracking page for this parcel (https), or null when the carrier has none Pactum knows" }),
})
export const trackBodySchema = z
  .object({
    carrier: z.string().min(1).max(64),
    tracking_code: z
      .string()
      .trim()
      .min(3)
      .max(64)
      .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and dashes only'),
  })
  .meta({ id: 'Track' })

/**
 * A complaint or an order issue. Blank text is not refused here but by the
 * domain, after the role and the state, with its own code
 * (`empty_complaint_description`, DESIGN §5).
 */
export const descriptionBodySchema = z.object({ description: z.string().trim().max(1000) }).meta({ id: 'DescriptionBody' })
export const setPaymentMethodBodySchema = z.object({ payment_method: paymentMethodSchema })
export const confirmPaymentBodySchema = z.object({ payment_intent_id: z.string().min(1).max(100) })

/** GET /transactions/{id}/stripe_publishable_key and GET /me/personal/stripe_publishable_key. */
export const publishableKeySchema = z.object({ publishable_key: z.string() }).meta({ id: 'PublishableKey' })
export type PublishableKey = z.infer<typeof publishableKeySchema>

export const payResponseSchema = z
  .object({ payment_intent_id: z.string(), client_secret: z.string(), charge: amountSchema })
  .meta({ id: 'PaymentIntentHandle' })

const timestamp = z.string().nullable()

/**
 * The creator's unclaimed e-mail invitation (issue 12 leftovers): whom it
 * went to, when it was last sent and until when its link works. Present on
 * the calls that answer one transaction to its creator (read, create,
 * re-send), null there once claimed or when the transaction has none; list
 * calls leave it out.
 */
export const pendingInvitationSchema = z
  .object({
    email: z.string(),
    role: roleSchema.meta({ description: 'the role the invitee is to take' }),
    sent_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: 'PendingInvitation' })
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>

/**
 * A card dispute on the sale's payment (issue 34, docs/decisions/109):
 * opened by the buyer's bank, decided by it weeks later. `frozen`: the money
 * was still held when it opened, so the sale waits for the decision.
 */
export const chargebackSchema = z
  .object({
    status: z.enum(['needs_response', 'under_review', 'won', 'lost']),
    amount: amountSchema,
    reason: z
      .string()
      .meta({ description: "the card network's reason, as the provider gives it (`fraudulent`, `product_not_received`, …)" }),
    evidence_due_by: z.string().nullable().meta({ description: 'until when Pactum can answer the bank' }),
    frozen: z.boolean(),
  })
  .meta({ id: 'Chargeback' })
export type Chargeback = z.infer<typeof chargebackSchema>

/**
 * The fields the views of both kinds share: who takes part, what is sold,
 * the money settled, and the steps both kinds have. Each kind's schema adds
 * its prices and its own steps.
 */
export const sharedViewFields = {
  role: roleSchema.nullable().meta({ description: "the caller's role; null for an admin who is no party" }),
  currency: currencyCodeSchema,
  description: z.string(),
  join_code: z.string().nullable().meta({ description: 'shown to the creator while the transaction can be joined' }),
  verify_url: z.string().meta({
    description:
      "the sale's public verification page (`PUBLIC_URL/verify/<code>`): anyone with the link can check that Pactum holds, or held, its money",
    example: 'https://pactum.example/verify/Xq3hV0cM2l9w1PnF7yTzAg',
  }),
  charge_calculator_version: chargeCalculatorVersionSchema,
  buyer_id: z.string().nullable(),
  seller_id: z.string().nullable(),
  client_id: z.string().nullable(),
  listing_id: z
    .string()
    .nullable()
    .meta({ description: 'the listing this sale was bought from; while `created`, it waits for the seller to accept' }),
  high_value: z.boolean(),
  is_payment_in_progress: z.boolean(),
  complaint: z.object({ description: z.string() }).nullable(),
  chargeback: chargebackSchema.nullable(),
  complaint_period_deadline: timestamp,
  amount_released: amountSchema,
  amount_refunded: amountSchema,
  created: z.string(),
  joined: timestamp,
  complained: timestamp,
  complaint_period_ended: timestamp,
  funds_released: timestamp,
  cancelled: timestamp,
  rejected: timestamp,
  payment_refunded: timestamp,
  invitation: pendingInvitationSchema.nullable().optional(),
  unread_messages: z.number().int().min(0).optional().meta({
    description:
      "messages of the conversation the others wrote since the caller last read it; on the reads of one transaction and of My transactions, left out of an action's answer",
  }),
}

export const transactionSchema = z
  .object({
    id: z.string(),
    type: z.literal('online'),
    status: onlineStatusSchema,
    ...sharedViewFields,
    price: amountSchema,
    charge: amountSchema,
    charge_seller: amountSchema,
    charge_buyer_client: amountSchema,
    charge_seller_client: amountSchema,
    quantity: z.number().int(),
    payment_method: paymentMethodSchema.nullable(),
    order_issue: z.object({ description: z.string() }).nullable(),
    tracking: trackingSchema.nullable(),
    tracking_deadline: timestamp,
    paid: timestamp,
    tracked: timestamp,
    in_transit: timestamp.meta({
      description: 'when the carrier first reported the parcel on its way; a step of the history, not a status',
    }),
    delivered: timestamp,
    cancelled_with_payment: timestamp,
    receipt_confirmation_requested_at: timestamp.meta({
      description: 'when the seller last asked the buyer to confirm receipt (at most once a day)',
    }),
    available_actions: z.array(offeredOnlineActionSchema).meta({ description: 'what the caller may do now, as the action paths name it' }),
  })
  .meta({ id: 'Transaction' })
export type Transaction = z.infer<typeof transactionSchema>

/** What the counterparty of either kind sees before joining, of the transaction's own fields. */
export const sharedPreviewPicks = {
  id: true,
  type: true,
  status: true,
  currency: true,
  description: true,
  payment_method: true,
  client_id: true,
  high_value: true,
  is_payment_in_progress: true,
  created: true,
} as const

/** …and of the offer around it: who made it, and whether the caller already joined with the code. */
export const sharedPreviewFields = {
  creator_role: roleSchema,
  creator_first_name: z.string(),
  joined_by_you: z.boolean().meta({ description: 'the caller is the party who joined: the code has done its work for them' }),
}

/** GET /transactions?join_code=CODE: what the counterparty sees before joining. */
export const joinPreviewSchema = transactionSchema
  .pick({ ...sharedPreviewPicks, price: true, charge: true, charge_seller: true, quantity: true })
  .extend(sharedPreviewFields)
  .meta({ id: 'JoinPreview' })
export type JoinPreview = z.infer<typeof joinPreviewSchema>

export const joinCodeQuerySchema = z.object({ join_code: z.string().trim().min(1).max(32) })

export const transactionFilterSchema = z.enum(['active', 'inputRequired', 'waiting', 'completed', 'cancelled'])
export type TransactionFilter = z.infer<typeof transactionFilterSchema>

/**
 * How much of each transaction a list answers with: `full`, the same object
 * as `GET /transactions/{id}`; `summary`, what a row of My transactions shows
 * (a fifth of the bytes, and of the server's work: issue 13).
 */
export const listViewSchema = z.enum(['full', 'summary'])
export type ListView = z.infer<typeof listViewSchema>

// GET /me/transactions
export const listTransactionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(50),
  after_id: z.string().optional(),
  filter: transactionFilterSchema.optional(),
  search: z.string().trim().max(100).optional(),
  view: listViewSchema.default('full'),
})

export const transactionListSchema = z.array(transactionSchema)

export const carrierSchema = z.object({ slug: z.string(), name: z.string() }).meta({ id: 'Carrier' })
export const carrierListSchema = z.array(carrierSchema)

export const releaseFundsQuerySchema = z.object({ to: roleSchema })
/**
 * POST /admin/transactions/{id}/confirm_delivery and /release_funds: the
 * reason is required and kept in the audit trail with who acted and when.
 */
export const adminActionBodySchema = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .meta({ description: 'why the admin acts (a support ticket, the evidence weighed); required, kept in the audit trail' }),
  })
  .meta({
    id: 'AdminAction',
    description: 'An admin action on a transaction. `reason` is required: every admin action records who, when and why.',
  })

// ---------------------------------------------------------------------------
// Transaction details (spec §7): update before joining, the parties' contact
// details, the buyer's address collected at checkout, the user's currencies.

export type UpdateTransactionBody = z.infer<typeof updateTransactionBodySchema>

/** GET /me/supported_payment_methods: what this user may create with and pay by (DESIGN §2). */
export const supportedPaymentMethodsSchema = z.array(paymentMethodSchema).meta({ id: 'SupportedPaymentMethods' })

/** GET /me/supported_currencies and /me/supported_payout_currencies. */
export const supportedCurrenciesSchema = z.array(currencyCodeSchema).meta({ id: 'SupportedCurrencies' })

/** GET /transactions/{id}/seller_details and /buyer_details: null while that party has not joined. */
export const partyDetailsSchema = z
  .object({ first_name: z.string().nullable(), last_name: z.string().nullable(), email: z.string().nullable() })
  .meta({ id: 'PartyDetails' })
export type PartyDetails = z.infer<typeof partyDetailsSchema>

// Region codes Intl knows that are no ISO 3166-1 country (European Union, eurozone, United Nations, UK for gb, …).
const notCountries = new Set(['eu', 'ez', 'un', 'qo', 'zz', 'uk'])
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })

/** Lower-case ISO 3166-1 alpha-2, as `us`. */
export const countryCodeSchema = z
  .string()
  .regex(/^[a-z]{2}$/, 'a lower-case ISO 3166-1 alpha-2 code such as us')
  // Zod runs this even when the pattern failed; Intl throws on anything but two letters.
  .refine(
    (code) => !/^[a-z]{2}$/.test(code) || (!notCountries.has(code) && regionNames.of(code.toUpperCase()) !== undefined),
    'not an ISO 3166-1 country code',
  )
  .meta({ example: 'de' })

const addressLine = (max: number) => z.string().trim().min(1).max(max)
/** Optional: left out, null or blank all mean none. */
const optionalAddressLine = (max: number) => z.string().trim().max(max).nullish()

// POST /transactions/{id}/shipping_details (the buyer, before paying)
export const shippingDetailsBodySchema = z
  .object({
    name: addressLine(200),
    line1: addressLine(200),
    line2: optionalAddressLine(200),
    city: addressLine(100),
    postal_code: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'letters, digits, spaces and dashes'),
    country_code: countryCodeSchema,
    state: optionalAddressLine(100),
  })
  .meta({ id: 'ShippingDetailsBody' })
export type ShippingDetailsBody = z.infer<typeof shippingDetailsBodySchema>

/** GET /transactions/{id}/shipping_details and /billing_details. */
export const shippingDetailsSchema = z
  .object({
    name: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    postal_code: z.string(),
    country_code: z.string(),
    state: z.string().nullable(),
  })
  .meta({ id: 'ShippingDetails' })
export type ShippingDetails = z.infer<typeof shippingDetailsSchema>

/** GET /me/last_shipping_details: the address the user last gave as a buyer, for the next checkout to offer; null before the first. */
export const lastShippingDetailsSchema = z
  .object({ shipping_details: shippingDetailsSchema.nullable() })
  .meta({ id: 'LastShippingDetails' })
export type LastShippingDetails = z.infer<typeof lastShippingDetailsSchema>

/**
 * PUT /transactions?join_code=CODE: the terms the joiner was shown may come
 * along; if the creator changed them since the preview, the join is refused
 * (409 `incorrect_charge`) instead of binding the joiner to a new price.
 */
export const joinQuerySchema = joinCodeQuerySchema.extend({
  price: z.coerce.number().int().optional(),
  charge: z.coerce.number().int().optional(),
  currency: currencyCodeSchema.optional(),
})
export type JoinExpectedTerms = { price?: number | undefined; charge?: number | undefined; currency?: string | undefined }
