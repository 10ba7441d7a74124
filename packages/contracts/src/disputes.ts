import { complaintReasons } from '@pactum/domain/transactions/dispute-case'
import { z } from 'zod'
import { adminActionBodySchema, amountSchema, currencyCodeSchema, descriptionBodySchema, roleSchema } from './transactions.ts'

/**
 * A complaint's case (issue 32): the calls that open, settle, escalate and
 * decide it, and the case as the parties and the admins read it.
 */

export const complaintReasonSchema = z.enum(complaintReasons).meta({ id: 'ComplaintReason' })

/** The complaint opens the case; `reason` is `other` when left out, so clients from before cases keep working. */
export const complainBodySchema = descriptionBodySchema.extend({ reason: complaintReasonSchema.optional() }).meta({ id: 'ComplainBody' })

const splitFields = {
  refund_to_buyer: z.number().int().min(0).meta({ description: 'back to the buyer, in minor units of the sale' }),
  release_to_seller: z.number().int().min(0).meta({ description: 'to the seller, in minor units; the two add up to the price in dispute' }),
}

export const settlementOfferBodySchema = z
  .object({ ...splitFields, note: z.string().trim().max(1000).default('') })
  .meta({ id: 'SettlementOfferBody' })

/** POST /admin/transactions/{id}/decide: full to either side (one part zero) or a split, with the reason both parties receive. */
export const decideBodySchema = adminActionBodySchema.extend(splitFields).meta({ id: 'DecideBody' })

export const offerParamsSchema = z.object({ id: z.uuid(), offer_id: z.uuid() })

/** POST …/extend_tracking_deadline: the buyer gives the seller more time to ship. */
export const extendTrackingDeadlineBodySchema = z
  .object({ hours: z.number().int().min(1).max(336).meta({ description: 'added to the current deadline; at most 14 days at a time' }) })
  .meta({ id: 'ExtendTrackingDeadlineBody' })

export const settlementOfferSchema = z
  .object({
    id: z.string(),
    by: roleSchema,
    ...splitFields,
    note: z.string(),
    made_at: z.string(),
    outcome: z.enum(['open', 'accepted', 'declined', 'replaced', 'lapsed']),
    answered_at: z.string().nullable(),
  })
  .meta({ id: 'SettlementOffer' })
export type SettlementOfferView = z.infer<typeof settlementOfferSchema>

/** GET …/case: the case as a party (or an admin) reads it. */
export const caseSchema = z
  .object({
    transaction_id: z.string(),
    state: z
      .enum(['open', 'escalated', 'closed'])
      .meta({ description: '`escalated`: with an admin; `closed`: settled, decided or refunded' }),
    reason: complaintReasonSchema,
    description: z.string(),
    opened_at: z.string(),
    currency: currencyCodeSchema,
    price_in_dispute: amountSchema,
    response_deadline: z.string().nullable().meta({ description: 'until then the seller answers and the parties may settle alone' }),
    escalated_at: z.string().nullable(),
    summary_due: z.string().meta({ description: "the terms' summary within 3 business days of the complaint" }),
    final_answer_due: z.string().meta({ description: "the terms' final answer within 8 weeks of the complaint" }),
    offers: z.array(settlementOfferSchema),
    amount_refunded: amountSchema,
    amount_released: amountSchema,
  })
  .meta({ id: 'Case' })
export type CaseView = z.infer<typeof caseSchema>

/** GET /admin/cases: the queue, oldest escalation first. */
export const caseQueueQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) })
export const caseQueueSchema = z.array(caseSchema).meta({ id: 'CaseQueue' })
