import { describe, expect, it } from 'vitest'
import { ledgerBreaches } from '../ledger-rules.ts'
import { type F2fEvent, transitionF2f } from './f2f-transaction.ts'
import { createF2fTransaction } from './f2f-state.ts'
import type { Actor, Effect } from './kernel.ts'
import { type OnlineEvent, transitionOnline } from './online-transaction.ts'
import { createOnlineTransaction } from './online-state.ts'
import { caseDeadlines } from './dispute-case.ts'
import { splitAmounts } from './settlement.ts'
import { accept, admin, at, buyer, day, expectNoop, expectRefusal, seller, system, t0 } from './testing/shared-machine-cases.ts'
import { ledgerEntries } from './testing/random-histories.ts'
import type { TransactionState } from './transaction.ts'
import { transition } from './transaction.ts'

/**
 * A complaint's case (issue 32), the same steps for both kinds: offers,
 * answers, escalation and its timer, an admin's decision, and the money of a
 * split. Each kind's complained sale is built by its own machine.
 */

type Event = OnlineEvent | F2fEvent

function run(state: TransactionState, event: Event, actor: Actor, now: Date): TransactionState {
  return accept(transition(state, event, actor, now)).next
}

/** Online: price 100.00, the buyer's fee 3.40, the seller's 2.00; complained at day 2. */
function onlineComplained(): TransactionState {
  return onlineSale()
}

/** The online sale above, through its first `upTo` steps (all five: complained); a step a minute. */
function onlineSale(upTo = 5): TransactionState {
  const created = createOnlineTransaction(
    {
      creatorRole: 'seller',
      creatorId: 'u_seller',
      joinCode: 'ABCDEFGH',
      price: 10_000,
      currency: 'eur',
      charge: 340,
      chargeSeller: 200,
      chargeCalculatorVersion: 1,
      paymentMethod: 'card',
    },
    t0,
  )
  const steps: [OnlineEvent, Actor][] = [
    [{ type: 'join', userId: 'u_buyer' }, { kind: 'counterparty' }],
    [{ type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: 10_340 }, system],
    [{ type: 'track', carrier: 'dhl', trackingCode: 'JD1' }, seller],
    [{ type: 'carrier_delivered' }, system],
    [{ type: 'complain', description: 'the frame is cracked', reason: 'damaged' }, buyer],
  ]
  return steps.slice(0, upTo).reduce<TransactionState>((state, [event, actor], index) => run(state, event, actor, at(index * 60)), created)
}

/** Face-to-face: deposit 50.00 + 1.90, total 200.00 with 4.90 on the remainder, paid in full; complained after the handover. */
function f2fComplained(): TransactionState {
  const created = createF2fTransaction(
    {
      creatorRole: 'seller',
      creatorId: 'u_seller',
      joinCode: 'ABCDEFGH',
      currency: 'eur',
      depositPrice: 5_000,
      depositCharge: 190,
      chargeCalculatorVersion: 1,
      paymentMethod: 'card',
    },
    t0,
  )
  const steps: [F2fEvent, Actor][] = [
    [{ type: 'join', userId: 'u_buyer' }, { kind: 'counterparty' }],
    [{ type: 'payment_intent_opened', part: 'deposit', paymentIntentId: 'pi_dep' }, buyer],
    [{ type: 'payment_succeeded', paymentIntentId: 'pi_dep', amount: 5_190 }, system],
    [{ type: 'accept_deposit' }, seller],
    [{ type: 'set_price', price: 20_000, charge: 490, chargeSeller: 0, chargeCalculatorVersion: 1 }, seller],
    [{ type: 'payment_intent_opened', part: 'remainder', paymentIntentId: 'pi_rem' }, buyer],
    [{ type: 'payment_succeeded', paymentIntentId: 'pi_rem', amount: 15_490 }, system],
    [{ type: 'confirm_handover' }, seller],
    [{ type: 'complain', description: 'the lens is scratched', reason: 'not_as_described' }, buyer],
  ]
  return steps.reduce<TransactionState>((state, [event, actor], index) => run(state, event, actor, at(index * 60)), created)
}

const kinds = [
  { kind: 'online', complained: onlineComplained, price: 10_000, openedAt: at(4 * 60) },
  { kind: 'f2f', complained: f2fComplained, price: 20_000, openedAt: at(8 * 60) },
] as const

const offer = (id: string, refundToBuyer: number, releaseToSeller: number): Event => ({
  type: 'propose_settlement',
  offerId: id,
  refundToBuyer,
  releaseToSeller,
  note: ' half each ',
})

const later = at(2 * day)

describe.each(kinds)('a case over a $kind sale', ({ complained, price, openedAt }) => {
  it('opens with the reason and the seller’s response window, and its timer', () => {
    const state = complained()
    expect(state.complaint).toMatchObject({ reason: expect.any(String), escalatedAt: null, offers: [] })
    expect(state.complaint?.responseDeadline).toEqual(new Date(openedAt.getTime() + 3 * day * 1000))
  })

  it('lets either party offer a split; a newer offer replaces the open one, and the other party is told', () => {
    const first = accept(transition(complained(), offer('o1', 3_000, price - 3_000), buyer, later))
    expect(first.next.complaint?.offers).toEqual([
      expect.objectContaining({ id: 'o1', by: 'buyer', refundToBuyer: 3_000, note: 'half each', outcome: 'open', answeredAt: null }),
    ])
    expect(first.effects).toEqual([{ type: 'notify', template: 'settlement_offered', to: 'seller' }])
    const counter = accept(transition(first.next, offer('o2', 1_000, price - 1_000), seller, later))
    expect(counter.next.complaint?.offers.map((o) => [o.id, o.outcome])).toEqual([
      ['o1', 'replaced'],
      ['o2', 'open'],
    ])
    expect(counter.effects).toEqual([{ type: 'notify', template: 'settlement_offered', to: 'buyer' }])
  })

  it('refuses offers that do not split the price, from others, reused ids, and outside a case', () => {
    expectRefusal(transition(complained(), offer('o1', 1, price), buyer, later), 'split_not_price', 400)
    expectRefusal(transition(complained(), offer('o1', -1, price + 1), buyer, later), 'split_not_price', 400)
    expectRefusal(transition(complained(), offer('o1', 0.5, price - 0.5), buyer, later), 'split_not_price', 400)
    expectRefusal(transition(complained(), offer('o1', 0, price), admin, later), 'forbidden', 403)
    const offered = run(complained(), offer('o1', 0, price), buyer, later)
    expectRefusal(transition(offered, offer('o1', 0, price), seller, later), 'validation_failed', 400)
    const settled = run(offered, { type: 'accept_settlement', offerId: 'o1' }, seller, later)
    expectRefusal(transition(settled, offer('o2', 0, price), buyer, later), 'funds_already_released', 409)
  })

  it('settles a 30/70 split in one step: a partial refund and a partial release, the fees in proportion', () => {
    const refund = (price * 3) / 10
    const offered = run(complained(), offer('o1', refund, price - refund), seller, later)
    expectRefusal(transition(offered, { type: 'accept_settlement', offerId: 'o1' }, seller, later), 'cannot_answer_own_offer', 403)
    expectRefusal(transition(offered, { type: 'accept_settlement', offerId: 'o0' }, buyer, later), 'offer_not_open', 409)
    const before = offered
    const { next, effects } = accept(transition(offered, { type: 'accept_settlement', offerId: 'o1' }, buyer, later))
    expect(next.status).toBe('funds_released')
    expect(next.amountReleased).toBeGreaterThan(0)
    expect(next.amountRefunded).toBeGreaterThan(0)
    expect(next.complaint?.offers.map((o) => o.outcome)).toEqual(['accepted'])
    const entries = ledgerEntries(effects)
    expect(entries.map((entry) => entry.entry)).toEqual(['split'])
    const posted = (account: string) => entries[0]?.postings.find((p) => p.account === account)?.amount ?? 0
    expect(posted('escrow')).toBe(-before.amountHeld)
    expect(posted('buyer_refund')).toBe(next.amountRefunded)
    expect(posted('seller')).toBe(next.amountReleased)
    expect(posted('buyer_refund') + posted('seller') + posted('revenue')).toBe(before.amountHeld)
    expect(
      ledgerBreaches({
        entries: [
          {
            entry: 'hold',
            postings: [
              { account: 'escrow', amount: before.amountHeld, currency: 'eur' },
              { account: 'buyer_funding', amount: -before.amountHeld, currency: 'eur' },
            ],
          },
          ...entries,
        ],
        terminal: true,
      }),
    ).toEqual([])
    const provider = effects.filter((e): e is Extract<Effect, { type: 'provider' }> => e.type === 'provider')
    expect(provider.filter((e) => e.action === 'refund').reduce((sum, e) => sum + e.amount, 0)).toBe(next.amountRefunded)
    expect(provider.filter((e) => e.action === 'transfer').map((e) => e.amount)).toEqual([next.amountReleased])
    expect(effects.filter((e) => e.type === 'notify')).toEqual([
      { type: 'notify', template: 'case_settled', to: 'buyer' },
      { type: 'notify', template: 'case_settled', to: 'seller' },
    ])
  })

  it('ends a full offer as a full refund or release', () => {
    const refunded = run(
      run(complained(), offer('o1', price, 0), seller, later),
      { type: 'accept_settlement', offerId: 'o1' },
      buyer,
      later,
    )
    expect(refunded.status).toBe('payment_refunded')
    const released = run(
      run(complained(), offer('o1', 0, price), buyer, later),
      { type: 'accept_settlement', offerId: 'o1' },
      seller,
      later,
    )
    expect(released.status).toBe('funds_released')
    expect(released.amountRefunded).toBe(0)
  })

  it('declines: the offer closes, the case stays, its maker is told', () => {
    const offered = run(complained(), offer('o1', 0, price), seller, later)
    const { next, effects } = accept(transition(offered, { type: 'decline_settlement', offerId: 'o1' }, buyer, later))
    expect(next.status).toBe('complained')
    expect(next.complaint?.offers.map((o) => o.outcome)).toEqual(['declined'])
    expect(effects).toEqual([{ type: 'notify', template: 'settlement_declined', to: 'seller' }])
    expectRefusal(transition(next, { type: 'accept_settlement', offerId: 'o1' }, buyer, later), 'offer_not_open', 409)
  })

  it('goes to an admin when a party asks, or by itself when the response window ends', () => {
    const asked = accept(transition(complained(), { type: 'escalate_case' }, seller, later))
    expect(asked.next.complaint?.escalatedAt).toEqual(later)
    expectRefusal(transition(asked.next, { type: 'escalate_case' }, buyer, later), 'case_already_escalated', 409)
    const opened = complained()
    const deadline = opened.complaint?.responseDeadline as Date
    const early = new Date(deadline.getTime() - 1_000)
    expectNoop(opened, transition(opened, { type: 'case_response_elapsed' }, system, early), [
      { type: 'schedule', timer: 'case_response', at: deadline },
    ])
    const timed = accept(transition(complained(), { type: 'case_response_elapsed' }, system, deadline))
    expect(timed.next.complaint?.escalatedAt).toEqual(deadline)
    expectNoop(timed.next, transition(timed.next, { type: 'case_response_elapsed' }, system, deadline))
  })

  it('lets an admin decide a split, which both parties are told with the reason, and lapses the open offer', () => {
    const offered = run(complained(), offer('o1', 0, price), seller, later)
    expectRefusal(transition(offered, { type: 'decide', refundToBuyer: price, releaseToSeller: 0 }, seller, later), 'not_admin', 403)
    const { next, effects } = accept(
      transition(offered, { type: 'decide', refundToBuyer: price / 2, releaseToSeller: price / 2 }, admin, later),
    )
    expect(next.status).toBe('funds_released')
    expect(next.complaint?.offers.map((o) => o.outcome)).toEqual(['lapsed'])
    expect(effects.filter((e) => e.type === 'notify')).toEqual([
      { type: 'notify', template: 'case_decided', to: 'buyer', quotesReason: true },
      { type: 'notify', template: 'case_decided', to: 'seller', quotesReason: true },
    ])
    const full = accept(transition(complained(), { type: 'decide', refundToBuyer: price, releaseToSeller: 0 }, admin, later))
    expect(full.next.status).toBe('payment_refunded')
    expect(full.effects.filter((e) => e.type === 'notify').map((e) => e.type === 'notify' && e.template)).toContain('case_decided')
  })
})

describe('the money of a split', () => {
  it('refunds the fee in proportion to the refunded part, and takes the seller’s fee on the released part only', () => {
    const money = { price: 10_000, buyerFee: 340, sellerFee: 200, refunds: () => [] }
    expect(splitAmounts(money, { refundToBuyer: 3_000, releaseToSeller: 7_000 })).toEqual({ buyerRefund: 3_102, payout: 6_860 })
    // Rounded half up, never more than was paid.
    expect(splitAmounts({ ...money, buyerFee: 1 }, { refundToBuyer: 5_000, releaseToSeller: 5_000 })).toEqual({
      buyerRefund: 5_001,
      payout: 4_900,
    })
    expect(splitAmounts(money, { refundToBuyer: 10_000, releaseToSeller: 0 })).toEqual({ buyerRefund: 10_340, payout: 0 })
  })

  it('refunds a face-to-face split from the remainder’s payment first, then the deposit’s', () => {
    const state = f2fComplained()
    const { effects } = accept(
      transitionF2f(state as never, { type: 'decide', refundToBuyer: 18_000, releaseToSeller: 2_000 }, admin, later),
    )
    const refunds = effects.filter((e) => e.type === 'provider' && e.action === 'refund')
    expect(refunds).toEqual([
      expect.objectContaining({ paymentIntentId: 'pi_dep', idempotencyAction: 'refund:deposit', amount: 18_000 + 612 - 15_490 }),
      expect.objectContaining({ paymentIntentId: 'pi_rem', idempotencyAction: 'refund:remainder', amount: 15_490 }),
    ])
  })

  it('lets the buyer give the seller more time to ship, before a case (online)', () => {
    const paid = run(
      run(
        createOnlineTransaction(
          {
            creatorRole: 'seller',
            creatorId: 'u_s',
            joinCode: 'ABCDEFGH',
            price: 10_000,
            currency: 'eur',
            charge: 340,
            chargeCalculatorVersion: 1,
            paymentMethod: 'card',
          },
          t0,
        ),
        { type: 'join', userId: 'u_b' },
        { kind: 'counterparty' },
        t0,
      ),
      { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: 10_340 },
      system,
      t0,
    )
    const before = paid.kind === 'online' ? (paid.trackingDeadline as Date) : t0
    const { next, effects } = accept(transitionOnline(paid as never, { type: 'extend_tracking_deadline', hours: 48 }, buyer, at(day)))
    const deadline = new Date(before.getTime() + 48 * 3_600_000)
    expect(next.trackingDeadline).toEqual(deadline)
    expect(effects[0]).toEqual({ type: 'schedule', timer: 'tracking_deadline', at: deadline })
    expectRefusal(transitionOnline(paid as never, { type: 'extend_tracking_deadline', hours: 48 }, seller, at(day)), 'not_buyer', 403)
    expectRefusal(transitionOnline(paid as never, { type: 'extend_tracking_deadline', hours: 0 }, buyer, at(day)), 'validation_failed', 400)
    expectRefusal(
      transitionOnline(paid as never, { type: 'extend_tracking_deadline', hours: 337 }, buyer, at(day)),
      'validation_failed',
      400,
    )
    expectRefusal(
      transitionOnline(paid as never, { type: 'extend_tracking_deadline', hours: 1 }, buyer, at(10 * day)),
      'tracking_details_deadline_expired',
      409,
    )
  })
})

describe('the seller asking the buyer to confirm receipt (online, before a case)', () => {
  const ask: OnlineEvent = { type: 'request_receipt_confirmation' }

  it('e-mails the buyer once the parcel is on its way, and again only a day later', () => {
    const shipped = onlineSale(3)
    const first = accept(transitionOnline(shipped as never, ask, seller, at(day)))
    expect(first.effects).toEqual([{ type: 'notify', template: 'receipt_confirmation_requested', to: 'buyer' }])
    expect(first.next.receiptConfirmationRequestedAt).toEqual(at(day))
    expectRefusal(transitionOnline(first.next, ask, seller, at(2 * day - 1)), 'receipt_confirmation_requested_recently', 429)
    expect(accept(transitionOnline(first.next, ask, seller, at(2 * day))).next.receiptConfirmationRequestedAt).toEqual(at(2 * day))
  })

  it('is the seller’s, and only between shipping and the buyer’s answer', () => {
    expectRefusal(transitionOnline(onlineSale(3) as never, ask, buyer, at(day)), 'not_seller', 403)
    expectRefusal(transitionOnline(onlineSale(2) as never, ask, seller, at(day)), 'tracking_not_added', 409)
    accept(transitionOnline(onlineSale(4) as never, ask, seller, at(day)))
    expectRefusal(transitionOnline(onlineSale(5) as never, ask, seller, at(day)), 'already_complained', 409)
  })
})

describe('the terms’ deadlines of a case', () => {
  it('counts 3 business days for the summary, skipping the weekend, and 8 weeks for the final answer', () => {
    // Thursday 2026-03-05 12:00 UTC → Tuesday 2026-03-10 12:00.
    const { summaryDue, finalAnswerDue } = caseDeadlines(new Date('2026-03-05T12:00:00Z'))
    expect(summaryDue).toEqual(new Date('2026-03-10T12:00:00Z'))
    expect(finalAnswerDue).toEqual(new Date('2026-04-30T12:00:00Z'))
    expect(caseDeadlines(new Date('2026-03-02T08:00:00Z')).summaryDue).toEqual(new Date('2026-03-05T08:00:00Z'))
  })
})
