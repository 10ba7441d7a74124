import { describe, expect, it } from 'vitest'
import { availableActions } from './available-actions.ts'
import type { Actor, Party, ReturnReason } from './kernel.ts'
import { defaultPolicy } from './kernel.ts'
import { matchesFilter, whoMustAct } from './list-filters.ts'
import { type OnlineEvent, transitionOnline as transition } from './online-transaction.ts'
import { createOnlineTransaction, type OnlineState } from './online-state.ts'
import { escrowBalance } from './transaction.ts'
import {
  accept,
  admin,
  at,
  buyer,
  counterparty,
  day,
  expectNeverLeft,
  expectRefusal,
  expectReturnedUnheld,
  holdEntry,
  ledger,
  type MachineUnderTest,
  refundEntry,
  seller,
  sharedMachineCases,
  system,
  t0,
} from './testing/shared-machine-cases.ts'
import { onlineOffer } from './testing/offers.ts'

// price 10000 + card charge 340 (fees.ts worked example)
const paidAmount = 10_340

function created(creatorRole: Party = 'seller'): OnlineState {
  return createOnlineTransaction(onlineOffer({ creatorRole }), t0)
}

function run(state: OnlineState, event: OnlineEvent, actor: Actor, now = t0): OnlineState {
  return accept(transition(state, event, actor, now)).next
}

const joined = () => run(created(), { type: 'join', userId: 'u_joiner' }, counterparty, at(60))
const paid = () => run(joined(), { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, system, at(120))
const tracked = () => run(paid(), { type: 'track', carrier: 'dhl', trackingCode: 'JD0001' }, seller, at(day))
const delivered = () => run(tracked(), { type: 'carrier_delivered' }, system, at(2 * day))
const complained = () => run(delivered(), { type: 'complain', description: 'broken' }, buyer, at(2 * day + 60))
const fundsReleased = () => run(delivered(), { type: 'end_complaint_period' }, buyer, at(2 * day + 60))
const cancelledWithPayment = () => run(paid(), { type: 'cancel' }, seller, at(day))
const refunded = () => run(cancelledWithPayment(), { type: 'refund_succeeded' }, system, at(day + 60))
const cancelled = () => run(created(), { type: 'cancel' }, seller)
const rejected = () => run(created(), { type: 'reject' }, counterparty)

const opened = () => run(joined(), { type: 'payment_intent_opened', paymentIntentId: 'pi_1' }, buyer)
const online: MachineUnderTest<OnlineState> = {
  transition,
  cancel: (state, actor, now) => transition(state, { type: 'cancel' }, actor, now),
  created,
  joined,
  opened,
  processing: () => run(joined(), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer),
  paymentIntentId: 'pi_1',
  held: paid,
  cancelled,
  rejected,
  beforeWindow: () => [paid(), tracked()],
  inWindow: delivered,
  complained,
  fundsReleased,
  cancelledStates: () => [cancelled(), rejected(), cancelledWithPayment(), refunded()],
  heldInWindow: paidAmount,
  released: 10_000,
  refundsInWindow: [['refund', paidAmount, 'pi_1']],
  refundingStatus: 'cancelled_with_payment',
  underWay: [
    ['created, the creator waits for the counterparty', () => created('seller'), 'counterparty'],
    ['joined, the buyer pays', joined, 'buyer'],
    ['paid, the seller tracks', paid, 'seller'],
    ['tracked, the buyer confirms', tracked, 'buyer'],
    ['delivered, the buyer checks', delivered, 'buyer'],
    ['complained, the seller answers', complained, 'seller'],
  ],
  settleable: (
    [
      ['tracked', tracked],
      ['delivered', delivered],
      ['complained', complained],
    ] as const
  ).map(([name, build]) => ({ name, build, held: paidAmount, payout: 10_000, refunds: [['refund', paidAmount, 'pi_1']] as const })),
}

sharedMachineCases(online)

describe('created', () => {
  it('starts with only the created stamp and nothing held', () => {
    const state = created()
    expect(state.status).toBe('created')
    expect(state.timestamps.created).toEqual(t0)
    expect(Object.values(state.timestamps).filter(Boolean)).toHaveLength(1)
    expect(escrowBalance(state)).toBe(0)
  })
})

describe('claim (a guest invited by e-mail)', () => {
  const guestSale = () => createOnlineTransaction(onlineOffer({ joinCode: null, paymentMethod: undefined }), t0)
  const partnerSale = () => createOnlineTransaction(onlineOffer({ creatorId: null, joinCode: null, paymentMethod: undefined }), t0)

  it('makes the guest the open party and the transaction joined, telling the creator', () => {
    const { next, effects } = accept(transition(guestSale(), { type: 'claim', role: 'buyer', userId: 'u_guest' }, counterparty, at(60)))
    expect(next).toMatchObject({ status: 'joined', buyerId: 'u_guest', sellerId: 'u_creator', joinCode: null })
    expect(next.timestamps.joined).toEqual(at(60))
    expect(effects).toEqual([{ type: 'notify', template: 'joined', to: 'seller' }])
  })

  it('refuses the role that is taken, the creator claiming their own, and anyone but a counterparty', () => {
    expectRefusal(transition(guestSale(), { type: 'claim', role: 'seller', userId: 'u_guest' }, counterparty, t0), 'already_claimed', 409)
    expectRefusal(
      transition(guestSale(), { type: 'claim', role: 'buyer', userId: 'u_creator' }, counterparty, t0),
      'cannot_join_own_transaction',
      403,
    )
    expectRefusal(transition(guestSale(), { type: 'claim', role: 'buyer', userId: 'u_guest' }, seller, t0), 'forbidden', 403)
    expectRefusal(transition(guestSale(), { type: 'claim', role: 'buyer', userId: '' }, counterparty, t0), 'validation_failed', 400)
  })

  it('refuses once the transaction left created', () => {
    const claimed = run(guestSale(), { type: 'claim', role: 'buyer', userId: 'u_guest' }, counterparty, at(60))
    expectRefusal(transition(claimed, { type: 'claim', role: 'buyer', userId: 'u_other' }, counterparty, at(61)), 'already_joined', 409)
    const withdrawn = run(guestSale(), { type: 'cancel' }, seller)
    expectRefusal(
      transition(withdrawn, { type: 'claim', role: 'buyer', userId: 'u_guest' }, counterparty, at(61)),
      'already_cancelled',
      409,
    )
  })

  it("waits in created for a partner's second party, then joins and tells the first", () => {
    const first = accept(transition(partnerSale(), { type: 'claim', role: 'seller', userId: 'u_seller' }, counterparty, at(60)))
    expect(first.next).toMatchObject({ status: 'created', sellerId: 'u_seller', buyerId: null })
    expect(first.effects).toEqual([])
    expectRefusal(
      transition(first.next, { type: 'claim', role: 'buyer', userId: 'u_seller' }, counterparty, at(61)),
      'cannot_join_own_transaction',
      403,
    )
    const second = accept(transition(first.next, { type: 'claim', role: 'buyer', userId: 'u_buyer' }, counterparty, at(120)))
    expect(second.next).toMatchObject({ status: 'joined', sellerId: 'u_seller', buyerId: 'u_buyer' })
    expect(second.effects).toEqual([{ type: 'notify', template: 'joined', to: 'seller' }])
  })
})

describe('joined', () => {
  it('reprices when the buyer changes the payment method', () => {
    const event: OnlineEvent = { type: 'set_payment_method', paymentMethod: 'sepa', charge: 140, chargeCalculatorVersion: 1 }
    const { next, effects } = accept(transition(joined(), event, buyer, t0))
    expect(next).toMatchObject({ status: 'joined', paymentMethod: 'sepa', charge: 140 })
    expect(effects).toEqual([])
    expectRefusal(transition(joined(), event, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(paid(), event, buyer, t0), 'already_paid', 409)
    // Before the seller joined (a buyer's own offer), nothing can be paid yet.
    expectRefusal(transition(created('buyer'), event, buyer, t0), 'not_accepted', 409)
    expectRefusal(transition(joined(), { ...event, charge: -1 }, buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(joined(), { ...event, charge: 1.5 }, buyer, t0), 'validation_failed', 400)
  })
  it('marks a SEPA payment in progress and holds repricing and cancelling meanwhile', () => {
    const processing = run(joined(), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer)
    expect(processing).toMatchObject({ status: 'joined', isPaymentInProgress: true, paymentIntentId: 'pi_1' })
    const reprice: OnlineEvent = { type: 'set_payment_method', paymentMethod: 'card', charge: 340, chargeCalculatorVersion: 1 }
    expectRefusal(transition(processing, reprice, buyer, t0), 'payment_method_already_set', 409)
    expectRefusal(transition(processing, { type: 'cancel' }, seller, t0), 'payment_in_progress', 409)
    expectRefusal(transition(processing, { type: 'cancel' }, buyer, t0), 'payment_in_progress', 409)
    // The same news twice (browser and webhook) is fine; a second payment is not.
    expect(accept(transition(processing, { type: 'payment_started', paymentIntentId: 'pi_1' }, system, t0)).next).toBe(processing)
    expectRefusal(transition(processing, { type: 'payment_started', paymentIntentId: 'pi_2' }, buyer, t0), 'payment_in_progress', 409)
    expectRefusal(transition(processing, { type: 'payment_intent_opened', paymentIntentId: 'pi_2' }, buyer, t0), 'payment_in_progress', 409)
  })
  it('refuses to start a payment without a method, by the seller, or after paying', () => {
    const noMethod = run(
      createOnlineTransaction(onlineOffer({ paymentMethod: undefined }), t0),
      { type: 'join', userId: 'u_joiner' },
      counterparty,
    )
    expectRefusal(transition(noMethod, { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer, t0), 'invalid_payment_method', 400)
    expectRefusal(transition(joined(), { type: 'payment_started', paymentIntentId: 'pi_1' }, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(paid(), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer, t0), 'already_paid', 409)
    expectRefusal(transition(created('buyer'), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer, t0), 'not_accepted', 409)
    expectRefusal(transition(created('buyer'), { type: 'payment_intent_opened', paymentIntentId: 'pi_1' }, buyer, t0), 'not_accepted', 409)
  })
  it('holds the money and starts the tracking deadline when the payment succeeds', () => {
    const processing = run(joined(), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer)
    const { next, effects } = accept(
      transition(processing, { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, system, at(120)),
    )
    expect(next).toMatchObject({ status: 'paid', amountHeld: paidAmount, isPaymentInProgress: false, paymentIntentId: 'pi_1' })
    expect(next.timestamps.paid).toEqual(at(120))
    expect(next.trackingDeadline).toEqual(at(120 + 345_600))
    expect(escrowBalance(next)).toBe(paidAmount)
    expect(effects).toEqual([
      holdEntry(paidAmount, 'payment'),
      { type: 'schedule', timer: 'tracking_deadline', at: at(120 + 345_600) },
      { type: 'notify', template: 'paid', to: 'seller' },
      { type: 'notify', template: 'paid', to: 'buyer' },
    ])
  })
  it('takes the deadline from the policy', () => {
    const result = accept(
      transition(joined(), { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, system, t0, {
        ...defaultPolicy,
        complaintPeriodSeconds: 10,
        trackingDeadlineSeconds: 20,
      }),
    )
    expect(result.next.trackingDeadline).toEqual(at(20))
  })
  it('applies a payment once, however often the news arrives', () => {
    const state = paid()
    for (const later of [state, tracked(), fundsReleased(), refunded()]) {
      expect(transition(later, { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, system, at(500))).toEqual({
        ok: true,
        next: later,
        effects: [],
      })
    }
  })
  it('holds nothing of a payment of another amount, a second payment or one nobody can take, and sends it back on the record', () => {
    const sentBack = (state: OnlineState, paymentIntentId: string, amount: number, reason: ReturnReason) =>
      expectReturnedUnheld(online, state, { paymentIntentId, amount, part: 'payment', reason })
    sentBack(run(joined(), { type: 'payment_intent_opened', paymentIntentId: 'pi_1' }, buyer), 'pi_1', 10_000, 'wrong_amount')
    sentBack(joined(), 'pi_1', 10_000, 'superseded')
    sentBack(paid(), 'pi_2', paidAmount, 'superseded')
    sentBack(run(joined(), { type: 'cancel' }, seller), 'pi_1', paidAmount, 'cancelled')
    // Sent back, then its news once the amount due matches it again: still not held.
    const returned = sentBack(
      run(joined(), { type: 'payment_intent_opened', paymentIntentId: 'pi_1' }, buyer),
      'pi_1',
      10_000,
      'wrong_amount',
    )
    expect(
      transition({ ...returned, price: 10_000 - 340 }, { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: 10_000 }, system, t0),
    ).toMatchObject({ ok: true, effects: [] })
    // Nobody is the buyer yet: sent back, with no account to record it on.
    expect(transition(created(), { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, system, t0)).toEqual({
      ok: true,
      next: created(),
      effects: [
        {
          type: 'provider',
          action: 'refund',
          amount: paidAmount,
          currency: 'eur',
          idempotencyAction: 'refund-unheld:pi_1',
          paymentIntentId: 'pi_1',
        },
      ],
    })
    expectRefusal(
      transition(joined(), { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, buyer, t0),
      'forbidden',
      403,
    )
  })
  it('counts what a later refund returns on top of a payment sent back before', () => {
    const returned = run(paid(), { type: 'payment_succeeded', paymentIntentId: 'pi_2', amount: paidAmount }, system)
    const { next } = accept(transition(returned, { type: 'cancel' }, seller, at(day)))
    expect(next).toMatchObject({ status: 'cancelled_with_payment', amountHeld: paidAmount, amountRefunded: 2 * paidAmount })
  })
})

describe('paid', () => {
  it('moves to tracked when the seller adds tracking, and stops the deadline', () => {
    const { next, effects } = accept(transition(paid(), { type: 'track', carrier: 'dhl', trackingCode: ' JD0001 ' }, seller, at(day)))
    expect(next.status).toBe('tracked')
    expect(next.tracking).toEqual({ carrier: 'dhl', trackingCode: 'JD0001' })
    expect(next.timestamps.tracked).toEqual(at(day))
    expect(effects).toEqual([
      { type: 'cancel_timer', timer: 'tracking_deadline' },
      { type: 'notify', template: 'tracked', to: 'buyer' },
    ])
  })
  it('refuses tracking from the buyer, twice, after the deadline, before payment, or blank', () => {
    const track: OnlineEvent = { type: 'track', carrier: 'dhl', trackingCode: 'JD0001' }
    expectRefusal(transition(paid(), track, buyer, t0), 'not_seller', 403)
    expectRefusal(transition(tracked(), track, seller, t0), 'tracking_already_added', 409)
    expectRefusal(transition(delivered(), track, seller, t0), 'tracking_already_added', 409)
    expectRefusal(transition(paid(), track, seller, at(120 + 345_600)), 'tracking_details_deadline_expired', 409)
    expectRefusal(transition(joined(), track, seller, t0), 'not_paid', 409)
    expectRefusal(transition(created(), track, seller, t0), 'not_paid', 409)
    expectRefusal(transition(paid(), { ...track, trackingCode: '  ' }, seller, t0), 'validation_failed', 400)
  })
  it('records an order issue from the buyer and stays paid', () => {
    const { next, effects } = accept(transition(paid(), { type: 'submit_order_issue', description: ' late ' }, buyer, at(day)))
    expect(next).toMatchObject({ status: 'paid', orderIssue: { description: 'late' } })
    expect(effects).toEqual([{ type: 'notify', template: 'order_issue', to: 'seller' }])
    expectRefusal(transition(paid(), { type: 'submit_order_issue', description: ' ' }, buyer, t0), 'empty_complaint_description', 400)
    expectRefusal(transition(paid(), { type: 'submit_order_issue', description: 'x' }, seller, t0), 'not_buyer', 403)
  })
  it('refuses an order issue before payment, or once the goods are on their way, naming what happened', () => {
    const issue: OnlineEvent = { type: 'submit_order_issue', description: 'x' }
    expectRefusal(transition(joined(), issue, buyer, t0), 'not_paid', 409)
    expectRefusal(transition(tracked(), issue, buyer, t0), 'tracking_already_added', 409)
    expectRefusal(transition(delivered(), issue, buyer, t0), 'delivery_already_set', 409)
    expectRefusal(transition(complained(), issue, buyer, t0), 'already_complained', 409)
    expectRefusal(transition(fundsReleased(), issue, buyer, t0), 'funds_already_released', 409)
  })
  it('refunds everything the buyer paid when the seller cancels', () => {
    const { next, effects } = accept(transition(paid(), { type: 'cancel' }, seller, at(day)))
    expect(next).toMatchObject({ status: 'cancelled_with_payment', amountRefunded: paidAmount })
    expect(next.timestamps.cancelled_with_payment).toEqual(at(day))
    expect(escrowBalance(next)).toBe(0)
    expect(effects).toEqual([
      { type: 'cancel_timer', timer: 'tracking_deadline' },
      refundEntry(paidAmount, paidAmount),
      { type: 'provider', action: 'refund', amount: paidAmount, currency: 'eur', idempotencyAction: 'refund', paymentIntentId: 'pi_1' },
      { type: 'notify', template: 'cancelled_with_payment', to: 'buyer' },
      { type: 'notify', template: 'cancelled_with_payment', to: 'seller' },
    ])
  })
  it('ends in payment_refunded when the provider confirms the refund, once', () => {
    const { next, effects } = accept(transition(cancelledWithPayment(), { type: 'refund_succeeded' }, system, at(day + 60)))
    expect(next.status).toBe('payment_refunded')
    expect(next.timestamps.payment_refunded).toEqual(at(day + 60))
    expect(effects).toEqual([{ type: 'notify', template: 'payment_refunded', to: 'buyer' }])
    expect(ledger(effects)).toEqual([])
    const done = refunded()
    expect(transition(done, { type: 'refund_succeeded' }, system, at(day + 90))).toEqual({ ok: true, next: done, effects: [] })
    expectRefusal(transition(cancelledWithPayment(), { type: 'refund_succeeded' }, admin, t0), 'forbidden', 403)
  })
  it('lets news of a refund nobody waits for (money sent back unheld) change nothing', () => {
    for (const state of [joined(), paid(), tracked(), cancelled(), fundsReleased()]) {
      expect(transition(state, { type: 'refund_succeeded' }, system, at(day))).toEqual({ ok: true, next: state, effects: [] })
    }
    // Cancelled with the payment: the refund of a second payment, sent back unheld, settles first; the held one's closes it.
    const waiting = cancelledWithPayment()
    expect(transition(waiting, { type: 'refund_succeeded', paymentIntentId: 'pi_2' }, system, at(day))).toEqual({
      ok: true,
      next: waiting,
      effects: [],
    })
    expect(accept(transition(waiting, { type: 'refund_succeeded', paymentIntentId: 'pi_1' }, system, at(day))).next.status).toBe(
      'payment_refunded',
    )
  })
  it('refuses a cancel by the buyer once paid', () => {
    for (const state of [paid(), tracked(), delivered(), complained()]) {
      expectRefusal(transition(state, { type: 'cancel' }, buyer, at(day)), 'already_paid', 409)
    }
    expectRefusal(transition(paid(), { type: 'cancel' }, admin, at(day)), 'not_seller', 403)
    // The seller may cancel only until the goods are on their way.
    expectRefusal(transition(tracked(), { type: 'cancel' }, seller, at(day)), 'tracking_already_added', 409)
    expectRefusal(transition(delivered(), { type: 'cancel' }, seller, at(day)), 'delivery_already_set', 409)
    expectRefusal(transition(complained(), { type: 'cancel' }, seller, at(day)), 'already_complained', 409)
    expectRefusal(transition(cancelledWithPayment(), { type: 'cancel' }, seller, at(day)), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), { type: 'cancel' }, seller, at(day)), 'funds_already_released', 409)
  })
  it('refunds the buyer when the tracking deadline passes without tracking', () => {
    const deadline = at(120 + 345_600)
    const { next, effects } = accept(transition(paid(), { type: 'tracking_deadline_elapsed' }, system, deadline))
    expect(next.status).toBe('cancelled_with_payment')
    expect(ledger(effects).map((e) => e.entry)).toEqual(['refund'])
    expect(effects).toContainEqual({
      type: 'provider',
      action: 'refund',
      amount: paidAmount,
      currency: 'eur',
      idempotencyAction: 'refund',
      paymentIntentId: 'pi_1',
    })
  })
  it('puts the tracking timer back when it fires early, and ignores it once tracked', () => {
    const state = paid()
    expect(transition(state, { type: 'tracking_deadline_elapsed' }, system, at(day))).toEqual({
      ok: true,
      next: state,
      effects: [{ type: 'schedule', timer: 'tracking_deadline', at: at(120 + 345_600) }],
    })
    const later = tracked()
    expect(transition(later, { type: 'tracking_deadline_elapsed' }, system, at(10 * day))).toEqual({ ok: true, next: later, effects: [] })
    expectRefusal(transition(state, { type: 'tracking_deadline_elapsed' }, seller, at(10 * day)), 'forbidden', 403)
  })
})

describe('tracked', () => {
  it('moves to delivered when the carrier reports it, and opens the complaint window', () => {
    const { next, effects } = accept(transition(tracked(), { type: 'carrier_delivered' }, system, at(2 * day)))
    expect(next.status).toBe('delivered')
    expect(next.timestamps.delivered).toEqual(at(2 * day))
    expect(next.complaintPeriodDeadline).toEqual(at(3 * day))
    expect(effects).toEqual([
      { type: 'schedule', timer: 'complaint_window', at: at(3 * day) },
      { type: 'notify', template: 'delivered', to: 'buyer' },
      { type: 'notify', template: 'delivered', to: 'seller' },
    ])
  })
  it('moves to delivered when the buyer or an admin confirms', () => {
    for (const actor of [buyer, admin]) {
      const { next } = accept(transition(tracked(), { type: 'confirm_delivery' }, actor, at(2 * day)))
      expect(next).toMatchObject({ status: 'delivered', complaintPeriodDeadline: at(3 * day) })
    }
  })
  it('stamps the carrier\'s first "in transit" report with its time, staying tracked', () => {
    const reported = at(day + 3_600)
    const { next, effects } = accept(transition(tracked(), { type: 'carrier_in_transit', occurredAt: reported }, system, at(day + 3_700)))
    expect(next).toMatchObject({ status: 'tracked', inTransit: reported })
    expect(effects).toEqual([])
    // A repeat keeps the first time; the delivery keeps the step in the history.
    expect(transition(next, { type: 'carrier_in_transit', occurredAt: at(day + 7_200) }, system, at(day + 7_200))).toEqual({
      ok: true,
      next,
      effects: [],
    })
    expect(run(next, { type: 'carrier_delivered' }, system, at(2 * day))).toMatchObject({ status: 'delivered', inTransit: reported })
  })
  it('reads a parcel scanned before the code was added as in transit from the moment tracking was added', () => {
    const { next } = accept(transition(tracked(), { type: 'carrier_in_transit', occurredAt: at(600) }, system, at(day + 60)))
    expect(next.inTransit).toEqual(at(day))
  })
  it('ignores "in transit" news outside tracked, and from anyone but the system', () => {
    for (const state of [paid(), delivered(), complained(), fundsReleased()]) {
      expect(transition(state, { type: 'carrier_in_transit', occurredAt: at(day) }, system, at(4 * day))).toEqual({
        ok: true,
        next: state,
        effects: [],
      })
    }
    expectRefusal(transition(tracked(), { type: 'carrier_in_transit', occurredAt: at(day) }, seller, at(day)), 'forbidden', 403)
  })
  it('ignores repeated carrier reports', () => {
    for (const state of [delivered(), complained(), fundsReleased(), paid()]) {
      expect(transition(state, { type: 'carrier_delivered' }, system, at(4 * day))).toEqual({ ok: true, next: state, effects: [] })
    }
    expectRefusal(transition(tracked(), { type: 'carrier_delivered' }, buyer, t0), 'forbidden', 403)
  })
  it('refuses confirming delivery twice, too early, or by the seller', () => {
    expectRefusal(transition(delivered(), { type: 'confirm_delivery' }, buyer, t0), 'delivery_already_set', 409)
    expectRefusal(transition(complained(), { type: 'confirm_delivery' }, admin, t0), 'delivery_already_set', 409)
    expectRefusal(transition(paid(), { type: 'confirm_delivery' }, buyer, t0), 'tracking_not_added', 409)
    expectRefusal(transition(paid(), { type: 'confirm_delivery' }, admin, t0), 'tracking_not_added', 409)
    expectRefusal(transition(joined(), { type: 'confirm_delivery' }, buyer, t0), 'tracking_not_added', 409)
    expectRefusal(transition(fundsReleased(), { type: 'confirm_delivery' }, buyer, t0), 'funds_already_released', 409)
    expectRefusal(transition(tracked(), { type: 'confirm_delivery' }, seller, t0), 'not_buyer', 403)
  })
})

describe('delivered', () => {
  it('answers complaint_period_expired once the period has ended, before the release is recorded', () => {
    // complaint_period_ended passes straight on to funds_released; a row caught in between still answers precisely.
    const ending: OnlineState = { ...delivered(), status: 'complaint_period_ended' }
    expectRefusal(transition(ending, { type: 'end_complaint_period' }, buyer, at(2 * day)), 'complaint_period_expired', 409)
    expectRefusal(transition(ending, { type: 'complain', description: 'late' }, buyer, at(2 * day)), 'complaint_period_expired', 409)
    expectRefusal(transition(ending, { type: 'release_funds', to: 'buyer' }, admin, at(2 * day)), 'complaint_period_expired', 409)
    expectRefusal(transition(ending, { type: 'cancel' }, seller, at(2 * day)), 'complaint_period_expired', 409)
  })
  it('pays the seller the price less charge_seller and keeps both fees', () => {
    const withSellerFee = { ...delivered(), chargeSeller: 250 }
    const { next, effects } = accept(transition(withSellerFee, { type: 'end_complaint_period' }, buyer, at(2 * day)))
    expect(next.amountReleased).toBe(9_750)
    expect(ledger(effects)[0]?.postings).toEqual([
      { account: 'escrow', amount: -paidAmount, currency: 'eur' },
      { account: 'seller', amount: 9_750, currency: 'eur' },
      { account: 'revenue', amount: 590, currency: 'eur' },
    ])
    expect(effects).toContainEqual(expect.objectContaining({ type: 'provider', action: 'transfer', amount: 9_750 }))
  })
})

describe('complained', () => {
  it('refuses release_funds before tracking (the rest: testing/shared-machine-cases.ts)', () => {
    expectRefusal(transition(paid(), { type: 'release_funds', to: 'buyer' }, admin, t0), 'tracking_not_added', 409)
    expectRefusal(transition(joined(), { type: 'release_funds', to: 'seller' }, admin, t0), 'not_paid', 409)
  })
})

describe('terminal states', () => {
  const everyEvent: OnlineEvent[] = [
    { type: 'join', userId: 'u_joiner' },
    { type: 'reject' },
    { type: 'cancel' },
    { type: 'track', carrier: 'dhl', trackingCode: 'X1' },
    { type: 'confirm_delivery' },
    { type: 'complain', description: 'x' },
    { type: 'accept_complaint' },
    { type: 'release_funds', to: 'buyer' },
    { type: 'release_funds', to: 'seller' },
    { type: 'payment_started', paymentIntentId: 'pi_1' },
    { type: 'payment_failed', paymentIntentId: 'pi_1' },
    { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount },
    { type: 'payment_succeeded', paymentIntentId: 'pi_new', amount: 999 },
    { type: 'refund_succeeded' },
    { type: 'tracking_deadline_elapsed' },
    { type: 'carrier_delivered' },
    { type: 'complaint_window_elapsed' },
  ]
  const terminals: [string, () => OnlineState][] = [
    ['cancelled', cancelled],
    ['rejected', rejected],
    ['funds_released', fundsReleased],
    ['payment_refunded', refunded],
  ]
  for (const [name, build] of terminals) {
    it(`${name} is never left and moves no held money`, () => {
      expectNeverLeft(transition, build(), everyEvent, [
        'payment_started',
        'payment_failed',
        'payment_succeeded',
        'refund_succeeded',
        'tracking_deadline_elapsed',
        'carrier_delivered',
        'complaint_window_elapsed',
      ])
    })
  }
})

describe('events this kind does not have', () => {
  it('answers not_found, as the API answers a path of the other kind', () => {
    expectRefusal(transition(paid(), { type: 'accept_deposit' } as unknown as OnlineEvent, seller, t0), 'not_found', 404)
  })
})

describe('available actions', () => {
  it('offers each party exactly what it can do now', () => {
    expect(availableActions(created('seller'), seller, t0)).toEqual(['update', 'cancel'])
    expect(availableActions(created('buyer'), buyer, t0)).toEqual(['update', 'cancel'])
    expect(availableActions(created('seller'), counterparty, t0)).toEqual(['join', 'reject'])
    expect(availableActions(joined(), buyer, t0)).toEqual(['cancel', 'set_payment_method', 'pay'])
    expect(availableActions(joined(), seller, t0)).toEqual(['cancel'])
    expect(availableActions(paid(), seller, at(day))).toEqual(['cancel', 'track'])
    expect(availableActions(paid(), seller, at(10 * day))).toEqual(['cancel'])
    expect(availableActions(paid(), buyer, at(day))).toEqual(['extend_tracking_deadline', 'submit_order_issue'])
    expect(availableActions(tracked(), buyer, at(day))).toEqual(['confirm_delivery'])
    expect(availableActions(tracked(), admin, at(day))).toEqual(['confirm_delivery', 'release_funds'])
    expect(availableActions(delivered(), buyer, at(2 * day))).toEqual(['complain_with_description', 'end_complaint_period'])
    expect(availableActions(delivered(), buyer, at(3 * day))).toEqual(['end_complaint_period'])
    expect(availableActions(delivered(), seller, at(2 * day))).toEqual(['request_receipt_confirmation'])
    expect(availableActions(tracked(), seller, at(day))).toEqual(['request_receipt_confirmation'])
    expect(availableActions(complained(), seller, at(2 * day))).toEqual(['accept_complaint', 'propose_settlement', 'escalate_case'])
    expect(availableActions(complained(), buyer, at(2 * day))).toEqual(['propose_settlement', 'escalate_case'])
    expect(availableActions(complained(), admin, at(2 * day))).toEqual(['release_funds', 'decide'])
    expect(availableActions(fundsReleased(), buyer, at(9 * day))).toEqual([])
    expect(availableActions(paid(), system, at(day))).toEqual([])
  })
  it('hides paying and cancelling while a payment is processing', () => {
    const processing = run(joined(), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer)
    expect(availableActions(processing, buyer, t0)).toEqual([])
    expect(availableActions(processing, seller, t0)).toEqual([])
  })
})

describe('list filters', () => {
  it('files a processing payment as waiting for the buyer', () => {
    const processing = run(joined(), { type: 'payment_started', paymentIntentId: 'pi_1' }, buyer)
    expect(whoMustAct(processing)).toBe('system')
    expect(matchesFilter(processing, 'buyer', 'waiting')).toBe(true)
  })
})
