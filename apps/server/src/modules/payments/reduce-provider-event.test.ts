import { describe, expect, it } from 'vitest'
import { reduceProviderEvent } from './reduce-provider-event.ts'

/* Stripe's refund events in Pactum's words: which status settles a refund, whichever event carries it. */

const refundEvent = (type: string, status: string) => ({
  id: `evt_${type}_${status}`,
  type,
  created: 1_795_000_000,
  data: {
    object: {
      id: 're_1',
      object: 'refund',
      amount: 10_340,
      currency: 'eur',
      status,
      payment_intent: 'pi_1',
      failure_reason: status === 'failed' ? 'expired_or_canceled_card' : null,
      metadata: { transaction_id: 'tx-1' },
    },
  },
})

describe('refund events', () => {
  it('settles a card refund from refund.created, which is the only event Stripe sends for it', () => {
    expect(reduceProviderEvent('stripe', refundEvent('refund.created', 'succeeded'))).toMatchObject({
      type: 'refund_succeeded',
      refundId: 're_1',
      paymentIntentId: 'pi_1',
      transactionId: 'tx-1',
    })
  })

  it('waits on a refund made pending (a bank’s), and settles it from refund.updated', () => {
    expect(reduceProviderEvent('stripe', refundEvent('refund.created', 'pending'))).toBeNull()
    expect(reduceProviderEvent('stripe', refundEvent('refund.updated', 'succeeded'))).toMatchObject({ type: 'refund_succeeded' })
    expect(reduceProviderEvent('stripe', refundEvent('refund.failed', 'failed'))).toMatchObject({
      type: 'refund_failed',
      reason: 'expired_or_canceled_card',
    })
  })
})
