import { describe, expect, it } from 'vitest'
import { ledgerBreaches } from '../ledger-rules.ts'
import { availableActions, availableAdminSteps } from './available-actions.ts'
import type { ChargebackStatus, DisputeNews } from './chargeback.ts'
import { transitionF2f } from './f2f-transaction.ts'
import { createF2fTransaction, type F2fState } from './f2f-state.ts'
import type { Actor, Effect, Result } from './kernel.ts'
import { type OnlineEvent, transitionOnline } from './online-transaction.ts'
import { createOnlineTransaction, type OnlineState } from './online-state.ts'
import { escrowBalance, isTerminal } from './transaction.ts'
import { f2fOffer, onlineOffer } from './testing/offers.ts'
import { ledgerEntries } from './testing/random-histories.ts'

const t0 = new Date('2026-03-01T00:00:00Z')
const day = 86_400
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)
const system: Actor = { kind: 'system' }
const admin: Actor = { kind: 'admin' }
const buyer: Actor = { kind: 'buyer' }
const seller: Actor = { kind: 'seller' }
const paidAmount = 10_340

type Entries = ReturnType<typeof ledgerEntries>
interface History {
  state: OnlineState
  entries: Entries
}

/** Runs the steps from `from`, keeping every ledger entry since the sale began; each step must be taken. */
function history(from: History | OnlineState, steps: [OnlineEvent, Actor, Date][]) {
  let state = 'entries' in from ? from.state : from
  const entries: Entries = 'entries' in from ? [...from.entries] : []
  const effects: Effect[] = []
  for (const [event, actor, now] of steps) {
    const result = transitionOnline(state, event, actor, now)
    if (!result.ok) throw new Error(`${event.type} refused: ${result.code}`)
    entries.push(...ledgerEntries(result.effects))
    effects.push(...result.effects)
    state = result.next
  }
  return { state, entries, effects }
}

function news(status: ChargebackStatus, overrides: Partial<DisputeNews> = {}): OnlineEvent {
  return {
    type: 'dispute_changed',
    dispute: {
      id: 'du_1',
      paymentIntentId: 'pi_1',
      status,
      amount: paidAmount,
      reason: 'fraudulent',
      evidenceDueBy: at(20 * day),
      fee: { amount: 2_000, currency: 'eur' },
      ...overrides,
    },
  }
}

const paidSale = (): History =>
  history(createOnlineTransaction(onlineOffer(), t0), [
    [{ type: 'join', userId: 'u_buyer' }, { kind: 'counterparty' }, at(60)],
    [{ type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: paidAmount }, system, at(120)],
  ])

const tracked = (): History => history(paidSale(), [[{ type: 'track', carrier: 'dhl', trackingCode: 'JD1' }, seller, at(day)]])

const released = (): History =>
  history(tracked(), [
    [{ type: 'carrier_delivered' }, system, at(2 * day)],
    [{ type: 'end_complaint_period' }, buyer, at(2 * day + 60)],
  ])

function expectSound(entries: Entries, state: OnlineState) {
  expect(ledgerBreaches({ entries, terminal: isTerminal(state), openDispute: state.chargeback?.closedAt === null })).toEqual([])
}

describe('a card dispute on money still held', () => {
  it('freezes the sale: escrow moves to disputed, the parties are told, and no party step or timer goes through', () => {
    const { state, entries, effects } = history(tracked(), [[news('needs_response'), system, at(3 * day)]])
    expect(state.chargeback).toMatchObject({ status: 'needs_response', amount: paidAmount, froze: true, evidenceDueBy: at(20 * day) })
    expect(escrowBalance(state)).toBe(0)
    expect(entries.map((entry) => entry.entry)).toEqual(['hold', 'dispute_opened', 'dispute_fee'])
    expect(effects.filter((e) => e.type === 'notify').map((e) => e.type === 'notify' && e.to)).toEqual(['seller', 'buyer'])
    expect(transitionOnline(state, { type: 'confirm_delivery' }, buyer, at(3 * day))).toMatchObject({ ok: false, code: 'chargeback_open' })
    expect(transitionOnline(state, { type: 'release_funds', to: 'seller' }, admin, at(3 * day))).toMatchObject({ code: 'chargeback_open' })
    // The timer does nothing: the outcome sets it again.
    const timer = transitionOnline(state, { type: 'tracking_deadline_elapsed' }, system, at(30 * day))
    expect(timer).toMatchObject({ ok: true, next: state, effects: [] })
    expect(availableActions(state, buyer, at(3 * day))).toEqual([])
    expect(availableActions(state, seller, at(3 * day))).toEqual([])
    expect(availableAdminSteps(tracked().state, at(3 * day))).toEqual(['confirm_delivery', 'release_to_seller', 'refund_buyer'])
    expect(availableAdminSteps(state, at(3 * day))).toEqual([])
    // Messages still pass.
    expect(transitionOnline(state, { type: 'post_message', text: 'hello', notify: true }, buyer, at(3 * day)).ok).toBe(true)
    expectSound(entries, state)
  })

  it('won: the money comes back to escrow, the sale goes on and its deadlines move by the time it was frozen', () => {
    const paid = paidSale()
    const deadline = paid.state.trackingDeadline as Date
    const { state, entries, effects } = history(paid, [
      [news('needs_response'), system, at(day)],
      [news('under_review'), system, at(5 * day)],
      [news('won', { fee: { amount: 0, currency: 'eur' } }), system, at(11 * day)],
    ])
    expect(state.chargeback).toMatchObject({ status: 'won', closedAt: at(11 * day) })
    expect(state.status).toBe('paid')
    expect(escrowBalance(state)).toBe(paidAmount)
    expect(state.trackingDeadline).toEqual(new Date(deadline.getTime() + 10 * day * 1000))
    expect(effects).toContainEqual({ type: 'schedule', timer: 'tracking_deadline', at: state.trackingDeadline })
    // The fee was booked when charged and taken back when the provider returned it.
    expect(entries.map((entry) => entry.entry)).toEqual(['hold', 'dispute_opened', 'dispute_fee', 'dispute_fee', 'dispute_won'])
    expectSound(entries, state)
    // The seller can ship again.
    expect(transitionOnline(state, { type: 'track', carrier: 'dhl', trackingCode: 'JD1' }, seller, at(11 * day)).ok).toBe(true)
  })

  it('lost: the bank returned the money, anything else held is refunded, and the sale ends refunded with escrow at zero', () => {
    const { state, entries, effects } = history(tracked(), [
      [news('needs_response', { amount: 10_000 }), system, at(3 * day)],
      [news('lost', { amount: 10_000 }), system, at(40 * day)],
    ])
    expect(state.status).toBe('payment_refunded')
    expect(state.amountRefunded).toBe(paidAmount)
    expect(escrowBalance(state)).toBe(0)
    // Only what the bank did not return goes back through a refund.
    expect(effects.filter((e) => e.type === 'provider')).toEqual([
      { type: 'provider', action: 'refund', amount: 340, currency: 'eur', idempotencyAction: 'refund', paymentIntentId: 'pi_1' },
    ])
    expect(entries.at(-1)).toMatchObject({ entry: 'chargeback_refund' })
    expectSound(entries, state)
  })
})

describe('a card dispute on money already released', () => {
  it('books the loss beside escrow; lost, the buyer has it back and an admin may recover it from the seller, once', () => {
    const { state, entries, effects } = history(released(), [
      [news('needs_response', { amount: 10_340 }), system, at(10 * day)],
      [news('lost'), system, at(50 * day)],
      [{ type: 'recover_chargeback', amount: 6_000 }, admin, at(51 * day)],
    ])
    expect(state.status).toBe('funds_released')
    expect(state.chargeback).toMatchObject({ status: 'lost', froze: false, recovered: 6_000 })
    expect(state.amountRefunded).toBe(paidAmount)
    expect(effects.filter((e) => e.type === 'provider')).toEqual([
      {
        type: 'provider',
        action: 'reverse_transfer',
        amount: 6_000,
        currency: 'eur',
        idempotencyAction: 'reverse-transfer:du_1:0',
        paymentIntentId: 'pi_1',
      },
    ])
    expectSound(entries, state)
    // No more than the seller was paid for it: 10000 − 0 seller fee.
    expect(transitionOnline(state, { type: 'recover_chargeback', amount: 4_001 }, admin, at(52 * day))).toMatchObject({
      code: 'recovery_too_high',
    })
    expect(transitionOnline(state, { type: 'recover_chargeback', amount: 10 }, seller, at(52 * day))).toMatchObject({ code: 'not_admin' })
  })

  it('won: the platform has its money back and nothing else moves', () => {
    const { state, entries } = history(released(), [
      [news('needs_response'), system, at(10 * day)],
      [news('won'), system, at(50 * day)],
    ])
    expect(state.amountRefunded).toBe(0)
    expect(entries.map((entry) => entry.entry)).toEqual(['hold', 'release', 'dispute_opened', 'dispute_fee', 'dispute_won'])
    expect(transitionOnline(state, { type: 'recover_chargeback', amount: 1 }, admin, at(51 * day))).toMatchObject({
      code: 'no_chargeback_loss',
    })
    expectSound(entries, state)
  })
})

describe("the provider's news about a dispute", () => {
  it('is the same state whether it comes twice, late or out of order', () => {
    const inOrder = history(tracked(), [
      [news('needs_response'), system, at(3 * day)],
      [news('under_review'), system, at(4 * day)],
      [news('lost'), system, at(5 * day)],
    ])
    const shuffled = history(tracked(), [
      [news('lost'), system, at(3 * day)],
      [news('needs_response'), system, at(4 * day)],
      [news('under_review'), system, at(4 * day)],
      [news('lost'), system, at(5 * day)],
    ])
    expect(shuffled.state.status).toBe(inOrder.state.status)
    expect(shuffled.state.chargeback?.status).toBe('lost')
    expect(shuffled.entries.map((entry) => entry.entry)).toEqual(inOrder.entries.map((entry) => entry.entry))
    // A repeat changes nothing at all.
    const again = transitionOnline(shuffled.state, news('lost'), system, at(6 * day))
    expect(again).toMatchObject({ ok: true, next: shuffled.state, effects: [] })
    expectSound(shuffled.entries, shuffled.state)
  })

  it('is refused from a party, and a second dispute waits while one is open', () => {
    const open = history(tracked(), [[news('needs_response'), system, at(3 * day)]]).state
    expect(transitionOnline(tracked().state, news('needs_response'), buyer, at(day))).toMatchObject({ code: 'forbidden' })
    expect(transitionOnline(open, news('needs_response', { id: 'du_2' }), system, at(day))).toMatchObject({ code: 'chargeback_open' })
  })
})

describe("an admin's acceptance of a dispute", () => {
  it('is written to the history alone, while the dispute is open or after the news of its loss came first', () => {
    const open = history(tracked(), [[news('needs_response'), system, at(3 * day)]]).state
    const accepted = transitionOnline(open, { type: 'chargeback_accepted' }, admin, at(4 * day))
    expect(accepted).toEqual({ ok: true, next: open, effects: [{ type: 'audit' }] })
    const lost = history(tracked(), [
      [news('needs_response'), system, at(3 * day)],
      [news('lost'), system, at(4 * day)],
    ]).state
    expect(transitionOnline(lost, { type: 'chargeback_accepted' }, admin, at(4 * day))).toEqual({
      ok: true,
      next: lost,
      effects: [{ type: 'audit' }],
    })
    expect(transitionOnline(open, { type: 'chargeback_accepted' }, seller, at(4 * day))).toMatchObject({ code: 'not_admin' })
    expect(transitionOnline(tracked().state, { type: 'chargeback_accepted' }, admin, at(day))).toMatchObject({
      code: 'no_open_chargeback',
    })
  })
})

describe('an early fraud warning', () => {
  const delivered = () => history(tracked(), [[{ type: 'carrier_delivered' }, system, at(2 * day)]])

  it('holds every release until an admin clears it, then the window timer releases', () => {
    const warned = history(delivered(), [
      [{ type: 'early_fraud_warning', warning: { id: 'issfr_1', paymentIntentId: 'pi_1', fraudType: 'stolen_card' } }, system, at(2 * day)],
    ]).state
    expect(transitionOnline(warned, { type: 'end_complaint_period' }, buyer, at(2 * day))).toMatchObject({ code: 'fraud_warning_open' })
    expect(transitionOnline(warned, { type: 'complaint_window_elapsed' }, system, at(4 * day))).toMatchObject({ ok: true, next: warned })
    // A refund is no release: the buyer's money may go back.
    expect(transitionOnline(warned, { type: 'release_funds', to: 'buyer' }, admin, at(3 * day)).ok).toBe(true)
    // The console offers what the engine takes: the refund and the clearing, not the release to the seller.
    expect(availableAdminSteps(warned, at(3 * day))).toEqual(['refund_buyer', 'clear_fraud_warning'])
    const cleared = transitionOnline(warned, { type: 'clear_fraud_warning' }, admin, at(4 * day)) as Result<OnlineState> & { ok: true }
    expect(availableAdminSteps(cleared.next, at(4 * day))).toEqual(['release_to_seller', 'refund_buyer'])
    expect(cleared.effects).toEqual([{ type: 'schedule', timer: 'complaint_window', at: at(4 * day) }])
    expect(transitionOnline(cleared.next, { type: 'complaint_window_elapsed' }, system, at(4 * day))).toMatchObject({
      ok: true,
      next: { status: 'funds_released' },
    })
  })
})

describe('a face-to-face sale', () => {
  it('lost on the deposit it holds: the bank returned all of it, nothing is left to refund, and the sale ends refunded', () => {
    let state: F2fState = createF2fTransaction(f2fOffer(), t0)
    const steps: [Parameters<typeof transitionF2f>[1], Actor][] = [
      [{ type: 'join', userId: 'u_buyer' }, { kind: 'counterparty' }],
      [{ type: 'payment_intent_opened', paymentIntentId: 'pi_d', part: 'deposit' }, buyer],
      [{ type: 'payment_succeeded', paymentIntentId: 'pi_d', amount: 5_190 }, system],
    ]
    for (const [event, actor] of steps) {
      const result = transitionF2f(state, event, actor, at(60))
      if (!result.ok) throw new Error(result.code)
      state = result.next
    }
    const opened = transitionF2f(state, news('needs_response', { paymentIntentId: 'pi_d', amount: 5_190 }) as never, system, at(day))
    expect(opened).toMatchObject({ ok: true, next: { chargeback: { froze: true, amount: 5_190 } } })
    if (!opened.ok) return
    const lost = transitionF2f(opened.next, news('lost', { paymentIntentId: 'pi_d', amount: 5_190 }) as never, system, at(9 * day))
    expect(lost).toMatchObject({ ok: true, next: { status: 'payment_refunded', amountRefunded: 5_190 } })
    if (lost.ok) expect(lost.effects.filter((e) => e.type === 'provider')).toEqual([])
  })
})
