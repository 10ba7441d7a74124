import { z } from 'zod'

/**
 * The seller's money at the payment provider (spec §7 Other: GET
 * /app_api/balance and GET /app_api/payouts). Released funds are transferred
 * to the seller's connected account (its balance); on a schedule the
 * available balance is paid out to the seller's bank account. Minor units,
 * lower-case currency codes.
 */

export const moneySchema = z.object({ amount: z.number().int(), currency: z.string() })
export type Money = z.infer<typeof moneySchema>

export const balanceSchema = z
  .object({
    /**
     * Ready to be paid out on the next scheduled payout. Below zero when a
     * refund or dispute came after a payout: taken from the next payouts.
     */
    available: z.array(moneySchema),
    /** On its way: paid out but not yet arrived at the bank. */
    pending: z.array(moneySchema),
  })
  .meta({ id: 'Balance' })
export type Balance = z.infer<typeof balanceSchema>

export const payoutStatuses = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const
export type PayoutStatus = (typeof payoutStatuses)[number]

export const payoutNextSteps = ['update_bank_account', 'waiting_for_next_payout'] as const
export type PayoutNextStep = (typeof payoutNextSteps)[number]

export const payoutSchema = z
  .object({
    id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(payoutStatuses),
    /** ISO 8601. */
    created: z.string(),
    /** When the money is expected (in_transit) or arrived (paid) at the bank; ISO 8601. */
    arrival_date: z.string().nullable(),
    /** Last four digits of the bank account paid into. */
    bank_account_last4: z.string().nullable(),
    /** Why the bank refused it (failed); the money went back to the balance. */
    failure_message: z.string().nullable(),
    /** The provider's code for that reason (`account_closed`, `no_account`, …), which the web app translates; null unless failed. */
    failure_code: z
      .string()
      .nullable()
      .meta({ description: "the provider's failure code (account_closed, no_account, …) of a failed payout; null otherwise" }),
    /**
     * What follows a failed payout (decision 110): `update_bank_account`
     * until the seller gives another bank account (payouts are paused
     * until then), `waiting_for_next_payout` once they did (the provider
     * pays the amount out again with its next payout); null otherwise,
     * and for a failed payout a later payout already made good.
     */
    next_step: z.enum(payoutNextSteps).nullable().meta({
      description:
        'after a failed payout: update_bank_account (payouts paused until the seller gives another), waiting_for_next_payout (done; the next payout takes it); null otherwise',
    }),
  })
  .meta({ id: 'Payout' })
export type Payout = z.infer<typeof payoutSchema>
export const payoutsSchema = z.array(payoutSchema)
