import { z } from 'zod'
import { adminActionBodySchema, chargebackSchema } from './transactions.ts'

/** The admin console's card disputes (chargebacks) and early fraud warnings (issue 34, docs/decisions/109). */

export const chargebackListQuerySchema = z.object({
  state: z.enum(['open', 'closed', 'all']).default('open').meta({ description: 'open: needs a response or under review' }),
})
export type ChargebackListQuery = z.infer<typeof chargebackListQuerySchema>

const moneySchema = z.object({ amount: z.number().int(), currency: z.string() })

/** One dispute as an admin sees it: the parties' view and what the console needs to act. */
export const adminChargebackSchema = chargebackSchema
  .extend({
    id: z.string().meta({ description: "the provider's dispute id" }),
    transaction_id: z.uuid(),
    transaction_type: z.enum(['online', 'f2f']),
    description: z.string(),
    currency: z.string(),
    transaction_status: z.string(),
    payment_intent_id: z.string(),
    opened_at: z.string(),
    closed_at: z.string().nullable(),
    evidence_submitted_at: z.string().nullable(),
    fee: moneySchema.nullable().meta({ description: "the provider's dispute fee, net of any returned, in its currency" }),
    recovered: z.number().int().meta({ description: 'taken back from the seller so far' }),
    recoverable: z
      .number()
      .int()
      .meta({ description: 'what may still be taken back from the seller: a dispute lost on money already released' }),
  })
  .meta({ id: 'AdminChargeback' })
export type AdminChargeback = z.infer<typeof adminChargebackSchema>

export const adminChargebackListSchema = z.array(adminChargebackSchema)

export const chargebackParamsSchema = z.object({ id: z.string().min(1).max(255) })

/** Accepting and sending evidence are admin actions: each records why. */
export const chargebackActionBodySchema = adminActionBodySchema

export const recoverChargebackBodySchema = adminActionBodySchema.extend({
  amount: z
    .number()
    .int()
    .min(1)
    .meta({ description: "minor units of the sale's currency, at most `recoverable` and what the seller's account holds" }),
})
export type RecoverChargebackBody = z.infer<typeof recoverChargebackBodySchema>

/** The sandbox's part of the card networks: open a dispute on any sale's payment, then decide it. */
export const sandboxOpenDisputeBodySchema = z.object({
  transaction_id: z.uuid(),
  payment: z.enum(['payment', 'deposit', 'remainder']).default('payment').meta({ description: "which of the sale's payments" }),
  amount: z.number().int().min(1).optional().meta({ description: 'all of the payment when left out' }),
  reason: z.enum(['fraudulent', 'product_not_received', 'product_unacceptable', 'duplicate', 'general']).default('fraudulent'),
})
export type SandboxOpenDisputeBody = z.infer<typeof sandboxOpenDisputeBodySchema>

export const sandboxDecideDisputeBodySchema = z.object({ outcome: z.enum(['won', 'lost']) })
export type SandboxDecideDisputeBody = z.infer<typeof sandboxDecideDisputeBodySchema>

export const sandboxDisputeSchema = z.object({ id: z.string(), status: z.string(), amount: z.number().int(), currency: z.string() })
