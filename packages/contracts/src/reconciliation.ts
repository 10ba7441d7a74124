import { z } from 'zod'

/** The admin console's daily reconciliation (docs/decisions/107-daily-reconciliation.md). */

/** A UTC day, YYYY-MM-DD, that exists in the calendar, in this millennium (no provider kept records before). */
export const reconciliationDateSchema = z
  .string()
  .regex(/^2\d{3}-\d{2}-\d{2}$/)
  .refine((day) => {
    const parsed = new Date(`${day}T00:00:00Z`)
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day
  }, 'not a date')

export const reconciliationQuerySchema = z.object({ date: reconciliationDateSchema })

export const differenceKindSchema = z.enum([
  'missing_at_provider',
  'missing_in_ledger',
  'amount_mismatch',
  'currency_mismatch',
  'unbooked_provider_movement',
])

export const movementSchema = z.enum(['charge', 'refund', 'transfer', 'transfer_reversal', 'dispute', 'payout', 'fee', 'other'])

const sideSchema = z.object({ amount: z.number().int(), currency: z.string() })

const totalsSchema = z.object({
  currency: z.string(),
  charged: z.number().int(),
  refunded: z.number().int(),
  transferred: z.number().int(),
  disputed: z.number().int(),
  paid_out: z.number().int(),
  fees: z.number().int(),
})

export const reconciliationDifferenceSchema = z
  .object({
    id: z.uuid(),
    kind: differenceKindSchema,
    movement: movementSchema,
    provider_id: z.string(),
    transaction_id: z.uuid().nullable(),
    /** What the ledger says, in the sale's currency. */
    ledger: sideSchema.nullable(),
    /** What the provider's balance says, positive. */
    provider: sideSchema.nullable(),
    status: z.enum(['open', 'explained']),
    reason: z.string().nullable(),
    explained_by: z.string().nullable(),
    explained_at: z.iso.datetime().nullable(),
    found_at: z.iso.datetime(),
  })
  .meta({ id: 'ReconciliationDifference' })
export type ReconciliationDifference = z.infer<typeof reconciliationDifferenceSchema>

export const reconciliationDaySchema = z
  .object({
    date: reconciliationDateSchema,
    /** False until the day was compared (the daily job runs for yesterday, two hours after midnight UTC). */
    reconciled: z.boolean(),
    reconciled_at: z.iso.datetime().nullable(),
    provider: z.string().nullable(),
    totals: z.object({ ledger: z.array(totalsSchema), provider: z.array(totalsSchema) }),
    differences: z.array(reconciliationDifferenceSchema),
  })
  .meta({ id: 'ReconciliationDay' })
export type ReconciliationDay = z.infer<typeof reconciliationDaySchema>

/** Marking a difference explained: the reason is kept with who gave it and when. */
export const explainDifferenceSchema = z.object({ reason: z.string().trim().min(1).max(1000) })
export type ExplainDifference = z.infer<typeof explainDifferenceSchema>
