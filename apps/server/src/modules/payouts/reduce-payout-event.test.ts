import { describe, expect, it } from 'vitest'
import { reducePayoutEvent } from './reduce-payout-event.ts'

/* Stripe's payout events on the wire (the SDK's Payout and Event types) in Pactum's words. */
const payoutEvent = (type: string, payout: Record<string, unknown>, account: string | null = 'acct_1') => ({
  id: `evt_${type}`,
  type,
  created: 1_796_000_100,
  ...(account ? { account } : {}),
  data: {
    object: {
      id: 'po_1',
      object: 'payout',
      amount: 9_660,
      currency: 'EUR',
      status: 'in_transit',
      arrival_date: 1_796_169_600,
      created: 1_796_000_000,
      automatic: true,
      failure_code: null,
      failure_message: null,
      ...payout,
    },
  },
})

describe('payout events', () => {
  it('reads a connected account’s payout event, dates from Unix seconds', () => {
    expect(reducePayoutEvent('stripe', payoutEvent('payout.created', {}))).toEqual({
      kind: 'payout',
      eventId: 'evt_payout.created',
      provider: 'stripe',
      occurredAt: new Date(1_796_000_100_000),
      accountId: 'acct_1',
      payoutId: 'po_1',
      status: 'in_transit',
      amount: 9_660,
      currency: 'eur',
      arrivalDate: new Date(1_796_169_600_000),
      failureCode: null,
      failureMessage: null,
      automatic: true,
      created: new Date(1_796_000_000_000),
    })
  })

  it('keeps the failure code and message of payout.failed', () => {
    const failed = payoutEvent('payout.failed', {
      status: 'failed',
      failure_code: 'account_closed',
      failure_message: 'The bank account has been closed.',
    })
    expect(reducePayoutEvent('stripe', failed)).toMatchObject({ status: 'failed', failureCode: 'account_closed' })
  })

  it('leaves out the platform’s own payouts, other events and statuses Stripe does not have', () => {
    expect(reducePayoutEvent('stripe', payoutEvent('payout.paid', { status: 'paid' }, null))).toBeNull()
    expect(reducePayoutEvent('stripe', payoutEvent('account.updated', {}))).toBeNull()
    expect(reducePayoutEvent('stripe', payoutEvent('payout.updated', { status: 'sent' }))).toBeNull()
  })
})
