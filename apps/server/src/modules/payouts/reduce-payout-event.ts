import { payoutStates } from '@pactum/domain/payouts'
import { z } from 'zod'
import type { ProviderEvent } from '../payments/reduce-provider-event.ts'
import type { PayoutEvent } from './payout-event.ts'

/**
 * The Payout object as Stripe's API reference and the SDK's types give it
 * (stripe 23.1.0, `types/Payouts.d.ts`): `status` is one of `paid`,
 * `pending`, `in_transit`, `canceled`, `failed`; `arrival_date` and
 * `created` are Unix seconds; `failure_code` / `failure_message` are set
 * once it failed; `automatic` says whether the payout schedule made it.
 * The sandbox sends the same shape.
 */
const payoutObjectSchema = z.object({
  id: z.string().min(1),
  object: z.literal('payout'),
  amount: z.number().int(),
  currency: z.string().min(3).max(3),
  status: z.enum(payoutStates),
  arrival_date: z.number().int().nullish(),
  created: z.number().int(),
  automatic: z.boolean().nullish(),
  failure_code: z.string().nullish(),
  failure_message: z.string().nullish(),
})

/** The payout events Stripe sends to a Connect endpoint (Events.d.ts); each carries the payout as it then was. */
export const payoutEventTypes = ['payout.created', 'payout.updated', 'payout.paid', 'payout.failed', 'payout.canceled'] as const

/**
 * A connected account's payout event as a PayoutEvent, or null for any
 * other event. Without `account` a payout event is the platform's own
 * payout to its own bank, which Pactum does not follow.
 */
export function reducePayoutEvent(provider: PayoutEvent['provider'], event: ProviderEvent): PayoutEvent | null {
  if (!event.account || !(payoutEventTypes as readonly string[]).includes(event.type)) return null
  const parsed = payoutObjectSchema.safeParse(event.data.object)
  if (!parsed.success) return null
  const payout = parsed.data
  return {
    kind: 'payout',
    eventId: event.id,
    provider,
    occurredAt: new Date(event.created * 1000),
    accountId: event.account,
    payoutId: payout.id,
    status: payout.status,
    amount: payout.amount,
    currency: payout.currency.toLowerCase(),
    arrivalDate: payout.arrival_date ? new Date(payout.arrival_date * 1000) : null,
    failureCode: payout.failure_code ?? null,
    failureMessage: payout.failure_message ?? null,
    automatic: payout.automatic ?? true,
    created: new Date(payout.created * 1000),
  }
}
