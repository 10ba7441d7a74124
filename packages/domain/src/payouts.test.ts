import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type FollowedPayout, followPayout, type PayoutObservation, type PayoutState, payoutStates } from './payouts.ts'

const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, second))

const seen = (eventId: string, status: PayoutState, second: number, extra: Partial<PayoutObservation> = {}): PayoutObservation => ({
  eventId,
  occurredAt: at(second),
  status,
  amount: 9_660,
  currency: 'eur',
  arrivalDate: new Date('2026-12-03T00:00:00Z'),
  failureCode: status === 'failed' ? 'no_account' : null,
  failureMessage: status === 'failed' ? 'The bank account details on file do not match an account.' : null,
  ...extra,
})

/** Applies events in the order they arrive, as the webhook intake does. */
function replay(events: PayoutObservation[]): { payout: FollowedPayout | null; failures: number } {
  let payout: FollowedPayout | null = null
  let failures = 0
  for (const event of events) {
    const step = followPayout(payout, event)
    if (step.kind === 'recorded') {
      payout = step.next
      if (step.failedNow) failures += 1
    }
  }
  return { payout, failures }
}

describe('a payout followed from its events', () => {
  it('follows a payout from created to paid', () => {
    const { payout } = replay([seen('evt_1', 'pending', 0), seen('evt_2', 'in_transit', 1), seen('evt_3', 'paid', 2)])
    expect(payout).toMatchObject({ status: 'paid', lastEventId: 'evt_3', lastEventAt: at(2) })
  })

  it('ignores an event delivered twice', () => {
    const created = seen('evt_1', 'in_transit', 0)
    const first = followPayout(null, created)
    expect(first.kind).toBe('recorded')
    if (first.kind !== 'recorded') return
    expect(followPayout(first.next, created)).toEqual({ kind: 'ignored', why: 'duplicate' })
  })

  it('keeps paid when payout.created arrives after payout.paid', () => {
    const { payout } = replay([seen('evt_3', 'paid', 20), seen('evt_1', 'in_transit', 0)])
    expect(payout).toMatchObject({ status: 'paid', lastEventId: 'evt_3' })
  })

  it('keeps the newer expected arrival when two updates of one status arrive swapped', () => {
    const { payout } = replay([
      seen('evt_2', 'in_transit', 10, { arrivalDate: new Date('2026-12-04T00:00:00Z') }),
      seen('evt_1', 'in_transit', 5, { arrivalDate: new Date('2026-12-03T00:00:00Z') }),
    ])
    expect(payout?.arrivalDate).toEqual(new Date('2026-12-04T00:00:00Z'))
  })

  it('moves a paid payout to failed, as Stripe does when the bank returns it later', () => {
    const { payout, failures } = replay([seen('evt_1', 'in_transit', 0), seen('evt_2', 'paid', 1), seen('evt_3', 'failed', 2)])
    expect(payout).toMatchObject({ status: 'failed', failureCode: 'no_account' })
    expect(failures).toBe(1)
  })

  it('never moves a failed or cancelled payout again, whatever comes late', () => {
    for (const final of ['failed', 'canceled'] as const) {
      const { payout } = replay([seen('evt_9', final, 30), seen('evt_1', 'in_transit', 0), seen('evt_2', 'paid', 40)])
      expect(payout?.status).toBe(final)
      expect(payout?.lastEventId).toBe('evt_9')
    }
  })

  it('tells of a failure once, however often and in whatever order its events arrive', () => {
    const arbitraryEvent = fc.record({
      id: fc.integer({ min: 1, max: 6 }),
      status: fc.constantFrom(...payoutStates),
      second: fc.integer({ min: 0, max: 50 }),
    })
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { minLength: 1, maxLength: 12 }), (events) => {
        // One status per event id, as the provider's events are immutable.
        const byId = new Map(events.map((event) => [event.id, event]))
        const delivered = events.map((event) => byId.get(event.id)!).map((event) => seen(`evt_${event.id}`, event.status, event.second))
        const { payout, failures } = replay(delivered)
        expect(failures).toBeLessThanOrEqual(1)
        if (delivered.some((event) => event.status === 'failed' || event.status === 'canceled')) {
          expect(['failed', 'canceled']).toContain(payout?.status)
        }
      }),
    )
  })
})
