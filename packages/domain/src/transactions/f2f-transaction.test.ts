import { describe, expect, it } from 'vitest'
import { quoteCharge } from '../fees.ts'
import { availableActions, type TransactionAction } from './available-actions.ts'
import { type F2fEvent, transitionF2f as transition } from './f2f-transaction.ts'
import { createF2fTransaction, depositAmount, type F2fState, f2fStatuses, f2fTerminalStatuses, remainderAmount } from './f2f-state.ts'
import type { Actor, Effect, Party, Result, ReturnReason } from './kernel.ts'
import { defaultPolicy } from './kernel.ts'
import { filterClauses, matchesFilter, type TransactionFilter, whoMustAct } from './list-filters.ts'
import { onlineStatuses } from './online-state.ts'
import { escrowBalance, isTerminal, transition as dispatch } from './transaction.ts'
import {
  accept,
  admin,
  at,
  buyer,
  counterparty,
  day,
  expectNeverLeft,
  expectNoop,
  expectRefusal,
  expectReturnedUnheld,
  holdEntry,
  ledger,
  type MachineUnderTest,
  refundEntry,
  releaseEntry,
  seller,
  sharedMachineCases,
  system,
  t0,
} from './testing/shared-machine-cases.ts'
import { f2fOffer } from './testing/offers.ts'

type TransitionResult = Result<F2fState>

const everyActor = [buyer, seller, admin, system, counterparty]

// Deposit 5000 eur by card: 3 % (150) + 40 = 190. Total 20000: the remainder
// 15000 by card costs 3 % (450) + 40 = 490 (fees.ts).
const deposit = { price: 5_000, charge: 190 }
const depositPaidAmount = 5_190
const total = 20_000
const remainder = { price: 15_000, charge: 490 }
const remainderPaidAmount = 15_490
const heldInFull = depositPaidAmount + remainderPaidAmount
const version = 1

interface Options {
  readonly creatorRole?: Party
  readonly sellerConfirmsHandover?: boolean
  readonly depositChargeSeller?: number
  readonly paymentMethod?: 'card' | 'sepa' | null
}

/** The deposit of `deposit` (testing/offers.ts), for a bike. */
function created({ creatorRole = 'seller', paymentMethod = 'card', ...options }: Options = {}): F2fState {
  return createF2fTransaction(f2fOffer({ creatorRole, paymentMethod, description: 'A bike', ...options }), t0)
}

function run(state: F2fState, event: F2fEvent, actor: Actor, now = t0): F2fState {
  return accept(transition(state, event, actor, now)).next
}

/** A payment the sale does not hold: sent straight back, and on the record, once (testing/shared-machine-cases.ts). */
function expectSentBack(state: F2fState, paymentIntentId: string, amount: number, part: 'deposit' | 'remainder', reason: ReturnReason) {
  expectReturnedUnheld({ transition }, state, { paymentIntentId, amount, part, reason, now: at(5 * day) })
}

/** A no-op step: the very same state back, and only these effects. */
function expectIgnored(state: F2fState, event: F2fEvent, actor: Actor, now = t0, effects: readonly Effect[] = []) {
  expectNoop(state, transition(state, event, actor, now), effects)
}

function provider(effects: readonly Effect[]) {
  return effects.filter((effect) => effect.type === 'provider')
}

const setPrice = (price = total, charge = remainder.charge, chargeSeller = 0): F2fEvent => ({
  type: 'set_price',
  price,
  charge,
  chargeSeller,
  chargeCalculatorVersion: version,
})
const cancel = (description = 'changed my mind'): F2fEvent => ({ type: 'cancel', description })
const payDeposit = (paymentIntentId = 'pi_dep'): F2fEvent => ({ type: 'payment_intent_opened', part: 'deposit', paymentIntentId })
const payRemainder = (paymentIntentId = 'pi_rem'): F2fEvent => ({ type: 'payment_intent_opened', part: 'remainder', paymentIntentId })
const succeeded = (paymentIntentId: string, amount: number): F2fEvent => ({ type: 'payment_succeeded', paymentIntentId, amount })
const sepa: F2fEvent = { type: 'set_payment_method', paymentMethod: 'sepa', charge: 90, chargeCalculatorVersion: version }

// One transaction walked through the table; every builder starts afresh.
const joined = (o: Options = {}) => run(created(o), { type: 'join', userId: 'u_joiner' }, counterparty, at(60))
const depositOpened = (o: Options = {}) => run(joined(o), payDeposit(), buyer, at(90))
const depositProcessing = (o: Options = {}) =>
  run(depositOpened(o), { type: 'payment_started', paymentIntentId: 'pi_dep' }, system, at(100))
const depositPaid = (o: Options = {}) => run(depositOpened(o), succeeded('pi_dep', depositPaidAmount), system, at(120))
const depositAccepted = (o: Options = {}) => run(depositPaid(o), { type: 'accept_deposit' }, seller, at(day))
const priced = (o: Options = {}, price = setPrice()) => run(depositAccepted(o), price, seller, at(day + 60))
const remainderOpened = (o: Options = {}) => run(priced(o), payRemainder(), buyer, at(day + 90))
const remainderProcessing = (o: Options = {}) =>
  run(remainderOpened(o), { type: 'payment_started', paymentIntentId: 'pi_rem' }, buyer, at(day + 100))
const remainderPaid = (o: Options = {}) => run(remainderOpened(o), succeeded('pi_rem', remainderPaidAmount), system, at(day + 120))
const remainderSkipped = (o: Options = {}) => run(depositAccepted(o), { type: 'skip_remainder' }, seller, at(day + 60))
// The complaint window runs from 2 days to 3 days.
const sellerConfirmed = (o: Options = {}) => run(remainderPaid(o), { type: 'confirm_handover' }, seller, at(2 * day))
const buyerConfirmedFirst = () => run(remainderPaid(), { type: 'confirm_handover' }, buyer, at(2 * day))
const buyerConfirmedAlone = () => run(remainderPaid({ sellerConfirmsHandover: false }), { type: 'confirm_handover' }, buyer, at(2 * day))
const complained = () => run(sellerConfirmed(), { type: 'complain', description: 'broken' }, buyer, at(2 * day + 60))
const fundsReleased = () => run(sellerConfirmed(), { type: 'end_complaint_period' }, buyer, at(2 * day + 60))
const paymentRefunded = () => run(complained(), { type: 'accept_complaint' }, seller, at(3 * day))
const cancelledWithDeposit = () => run(depositPaid(), cancel(), buyer, at(day))
const depositRefunded = () => run(cancelledWithDeposit(), { type: 'refund_succeeded' }, system, at(day + 60))
const cancelled = () => run(created(), cancel(), seller, at(5))
const cancelledAfterJoin = () => run(joined(), cancel(), buyer, at(90))
const rejected = () => run(created(), { type: 'reject' }, counterparty, at(5))

const f2f: MachineUnderTest<F2fState> = {
  transition,
  cancel: (state, actor, now) => transition(state, cancel(), actor, now),
  created: (creatorRole) => created({ creatorRole }),
  joined: () => joined(),
  opened: () => depositOpened(),
  processing: () => depositProcessing(),
  paymentIntentId: 'pi_dep',
  held: () => depositPaid(),
  cancelled,
  rejected,
  beforeWindow: () => [depositPaid(), remainderPaid()],
  inWindow: () => sellerConfirmed(),
  complained,
  fundsReleased,
  cancelledStates: () => [cancelled(), cancelledAfterJoin(), rejected(), cancelledWithDeposit(), depositRefunded(), paymentRefunded()],
  heldInWindow: heldInFull,
  released: total,
  refundsInWindow: [
    ['refund:deposit', depositPaidAmount, 'pi_dep'],
    ['refund:remainder', remainderPaidAmount, 'pi_rem'],
  ],
  refundingStatus: 'cancelled_with_deposit',
  underWay: [
    ['created, the creator waits for the counterparty', () => created(), 'counterparty'],
    ['joined, the buyer pays the deposit', joined, 'buyer'],
    ['deposit processing, the provider decides', depositProcessing, 'system'],
    ['deposit_paid, the seller accepts it', depositPaid, 'seller'],
    ['deposit_accepted, the seller prices', depositAccepted, 'seller'],
    ['priced, the buyer pays the remainder', priced, 'buyer'],
    ['remainder processing, the provider decides', remainderProcessing, 'system'],
    ['remainder_paid, the seller confirms the handover', remainderPaid, 'seller'],
    ['remainder_skipped, the seller confirms the handover', remainderSkipped, 'seller'],
    ['remainder_paid without a seller step, the buyer confirms', () => remainderPaid({ sellerConfirmsHandover: false }), 'buyer'],
    ['buyer confirmed first, the seller confirms', buyerConfirmedFirst, 'seller'],
    ['buyer confirmed alone, the buyer has the window', buyerConfirmedAlone, 'buyer'],
    ['seller confirmed, the buyer has the window', sellerConfirmed, 'buyer'],
    ['complained, the seller answers', complained, 'seller'],
  ],
  settleable: [
    // Before the remainder is paid (priced too), only the deposit is there to pay out.
    ...(
      [
        ['deposit_paid', depositPaid],
        ['deposit_accepted', depositAccepted],
        ['priced', priced],
        ['priced with a remainder payment opened', remainderOpened],
        ['remainder_skipped', remainderSkipped],
      ] as const
    ).map(([name, build]) => ({
      name,
      build,
      held: depositPaidAmount,
      payout: deposit.price,
      refunds: [['refund:deposit', depositPaidAmount, 'pi_dep']] as const,
    })),
    ...(
      [
        ['remainder_paid', remainderPaid],
        ['buyer_handover_confirmed', buyerConfirmedFirst],
        ['seller_handover_confirmed', sellerConfirmed],
        ['complained', complained],
      ] as const
    ).map(([name, build]) => ({
      name,
      build,
      held: heldInFull,
      payout: total,
      refunds: [
        ['refund:deposit', depositPaidAmount, 'pi_dep'],
        ['refund:remainder', remainderPaidAmount, 'pi_rem'],
      ] as const,
    })),
  ],
}

sharedMachineCases(f2f)

describe('fixture', () => {
  it('uses the amounts fees.ts quotes', () => {
    expect(quoteCharge({ price: deposit.price, currency: 'eur', paymentMethod: 'card' })).toMatchObject({
      ok: true,
      quote: { charge: deposit.charge },
    })
    expect(quoteCharge({ price: remainder.price, currency: 'eur', paymentMethod: 'card' })).toMatchObject({
      ok: true,
      quote: { charge: remainder.charge },
    })
    expect(quoteCharge({ price: deposit.price, currency: 'eur', paymentMethod: 'sepa' })).toMatchObject({ ok: true, quote: { charge: 90 } })
    expect(depositAmount(depositPaid())).toBe(depositPaidAmount)
    expect(remainderAmount(priced())).toBe(remainderPaidAmount)
    expect(remainderAmount(depositAccepted())).toBe(0)
  })
})

describe('created', () => {
  it('starts with the deposit as its terms, only the created stamp and nothing held', () => {
    const state = created()
    expect(state).toMatchObject({
      kind: 'f2f',
      status: 'created',
      sellerId: 'u_creator',
      buyerId: null,
      joinCode: 'ABCDEFGH',
      price: deposit.price,
      charge: deposit.charge,
      chargeSeller: 0,
      pricing: null,
      remainderPaymentIntentId: null,
      sellerConfirmsHandover: true,
      cancellation: null,
      highValue: false,
      amountHeld: 0,
    })
    expect(state.timestamps.created).toEqual(t0)
    expect(Object.values(state.timestamps).filter(Boolean)).toHaveLength(1)
    expect(escrowBalance(state)).toBe(0)
  })
  it('lets the seller have a handover step by default, or none', () => {
    const minimal = createF2fTransaction(
      {
        creatorRole: 'buyer',
        creatorId: 'u_creator',
        joinCode: 'X',
        currency: 'eur',
        depositPrice: 100,
        depositCharge: 43,
        chargeCalculatorVersion: version,
      },
      t0,
    )
    expect(minimal).toMatchObject({
      buyerId: 'u_creator',
      sellerId: null,
      sellerConfirmsHandover: true,
      paymentMethod: null,
      chargeSeller: 0,
      description: '',
    })
    expect(created({ sellerConfirmsHandover: false }).sellerConfirmsHandover).toBe(false)
  })
  it("keeps a cancel's description, trimmed, by the creator or, once joined, either party", () => {
    expect(run(created({ creatorRole: 'buyer' }), cancel('  no longer needed '), buyer, at(5)).cancellation).toEqual({
      description: 'no longer needed',
    })
    for (const actor of [buyer, seller])
      expect(run(depositOpened(), cancel(' found another '), actor, at(90)).cancellation).toEqual({ description: 'found another' })
  })
  it('refuses a cancel by anyone but the creator, then one without a description', () => {
    expectRefusal(transition(created(), cancel(), buyer, t0), 'not_seller', 403)
    expectRefusal(transition(created(), cancel(), counterparty, t0), 'not_seller', 403)
    expectRefusal(transition(created({ creatorRole: 'buyer' }), cancel(), seller, t0), 'not_buyer', 403)
    expectRefusal(transition(created({ creatorRole: 'buyer' }), cancel(), admin, t0), 'not_buyer', 403)
    expectRefusal(transition(created(), cancel('  '), counterparty, t0), 'not_seller', 403)
    expectRefusal(transition(created(), cancel('  '), seller, t0), 'validation_failed', 400)
    expectRefusal(transition(created(), cancel(''), seller, t0), 'validation_failed', 400)
  })
  it('lets the creator change the description and the deposit terms, re-judging high value', () => {
    const terms = {
      price: 600_000,
      currency: 'eur',
      charge: 18_040,
      chargeSeller: 0,
      chargeCalculatorVersion: version,
      paymentMethod: 'card',
    } as const
    const { next, effects } = accept(transition(created(), { type: 'update', description: ' A red bike ', terms }, seller, t0))
    expect(next).toMatchObject({ status: 'created', description: 'A red bike', price: 600_000, charge: 18_040, highValue: true })
    expect(effects).toEqual([])
    expectRefusal(transition(created(), { type: 'update', description: 'x' }, buyer, t0), 'forbidden', 403)
    expectRefusal(transition(created(), { type: 'update', description: 'x' }, counterparty, t0), 'forbidden', 403)
    expectRefusal(transition(joined(), { type: 'update', description: 'x' }, seller, t0), 'already_joined', 409)
    expectRefusal(transition(cancelled(), { type: 'update', description: 'x' }, seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(created(), { type: 'update', description: ' ' }, seller, t0), 'validation_failed', 400)
    expectRefusal(transition(created(), { type: 'update', terms: { ...terms, charge: -1 } }, seller, t0), 'validation_failed', 400)
    expectRefusal(
      transition(created(), { type: 'update', terms: { ...terms, chargeCalculatorVersion: 0 } }, seller, t0),
      'validation_failed',
      400,
    )
  })
  it('refuses paying before the seller joined: not_accepted', () => {
    const own = created({ creatorRole: 'buyer' })
    expectRefusal(transition(own, payDeposit(), buyer, t0), 'not_accepted', 409)
    expectRefusal(transition(own, sepa, buyer, t0), 'not_accepted', 409)
    expectRefusal(transition(own, { type: 'payment_started', paymentIntentId: 'pi_dep' }, buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(own, payRemainder(), buyer, t0), 'deposit_not_paid', 409)
  })
})

describe('claim (a guest invited by e-mail)', () => {
  it('makes the guest the seller the buyer left open, joined as after a join', () => {
    const { next, effects } = accept(
      transition(created({ creatorRole: 'buyer' }), { type: 'claim', role: 'seller', userId: 'u_guest' }, counterparty, at(60)),
    )
    expect(next).toMatchObject({ status: 'joined', buyerId: 'u_creator', sellerId: 'u_guest' })
    expect(effects).toEqual([{ type: 'notify', template: 'joined', to: 'buyer' }])
    expectRefusal(transition(next, { type: 'claim', role: 'seller', userId: 'u_other' }, counterparty, at(61)), 'already_joined', 409)
  })
})

describe('joined', () => {
  it('lets the buyer set the deposit payment method, repriced', () => {
    const { next, effects } = accept(transition(joined(), sepa, buyer, at(70)))
    expect(next).toMatchObject({ status: 'joined', paymentMethod: 'sepa', charge: 90, chargeCalculatorVersion: version })
    expect(next.timestamps).toEqual(joined().timestamps)
    expect(effects).toEqual([])
    expect(depositAmount(next)).toBe(5_090)
  })
  it('refuses setting the payment method: by the seller, in the wrong state, while paying, with a bad charge', () => {
    expectRefusal(transition(joined(), sepa, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(joined(), sepa, admin, t0), 'not_buyer', 403)
    expectRefusal(transition(depositPaid(), sepa, buyer, t0), 'already_paid', 409)
    expectRefusal(transition(priced(), sepa, buyer, t0), 'already_paid', 409)
    expectRefusal(transition(remainderPaid(), sepa, buyer, t0), 'already_paid', 409)
    expectRefusal(transition(cancelledWithDeposit(), sepa, buyer, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), sepa, buyer, t0), 'funds_already_released', 409)
    expectRefusal(transition(depositProcessing(), sepa, buyer, t0), 'payment_method_already_set', 409)
    expectRefusal(transition(joined(), { ...sepa, charge: -1 } as F2fEvent, buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(joined(), { ...sepa, charge: 1.5 } as F2fEvent, buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(joined(), { ...sepa, chargeCalculatorVersion: 0 } as F2fEvent, buyer, t0), 'validation_failed', 400)
  })
  it('records the deposit payment the buyer opens, and a new one replaces it', () => {
    const { next, effects } = accept(transition(joined(), payDeposit('pi_dep'), buyer, at(90)))
    expect(next).toMatchObject({ status: 'joined', paymentIntentId: 'pi_dep', remainderPaymentIntentId: null, isPaymentInProgress: false })
    expect(effects).toEqual([])
    // Opening the same payment again changes nothing; another one replaces it while nothing is on its way.
    expectNoop(next, transition(next, payDeposit('pi_dep'), buyer, at(95)))
    expect(run(next, payDeposit('pi_dep2'), buyer, at(95)).paymentIntentId).toBe('pi_dep2')
  })
  it('refuses opening a deposit payment: by others, in the wrong state, without a method, without an id, while one is processing', () => {
    expectRefusal(transition(joined(), payDeposit(), seller, t0), 'not_buyer', 403)
    expectRefusal(transition(joined(), payDeposit(), system, t0), 'not_buyer', 403)
    expectRefusal(transition(depositPaid(), payDeposit(), buyer, t0), 'already_paid', 409)
    expectRefusal(transition(depositAccepted(), payDeposit(), buyer, t0), 'already_paid', 409)
    expectRefusal(transition(remainderPaid(), payDeposit(), buyer, t0), 'already_paid', 409)
    expectRefusal(transition(cancelledAfterJoin(), payDeposit(), buyer, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), payDeposit(), buyer, t0), 'funds_already_released', 409)
    expectRefusal(transition(joined(), payRemainder(), buyer, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(joined({ paymentMethod: null }), payDeposit(), buyer, t0), 'invalid_payment_method', 400)
    expectRefusal(transition(joined(), payDeposit(''), buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(depositProcessing(), payDeposit('pi_other'), buyer, t0), 'deposit_payment_in_review', 409)
    expectIgnored(depositProcessing(), payDeposit('pi_dep'), buyer, t0)
  })
  it('marks the deposit payment as processing when the buyer or the provider reports it started, once', () => {
    for (const actor of [buyer, system]) {
      const { next, effects } = accept(transition(depositOpened(), { type: 'payment_started', paymentIntentId: 'pi_dep' }, actor, at(100)))
      expect(next).toMatchObject({ status: 'joined', isPaymentInProgress: true, paymentIntentId: 'pi_dep' })
      expect(effects).toEqual([])
      expectNoop(next, transition(next, { type: 'payment_started', paymentIntentId: 'pi_dep' }, actor, at(110)))
    }
  })
  it('ignores news of another payment from the provider, and refuses it from the buyer', () => {
    const state = depositOpened()
    expectNoop(state, transition(state, { type: 'payment_started', paymentIntentId: 'pi_other' }, system, t0))
    // Not the payment opened here: as confirm_payment answers for a stranger's payment.
    expectRefusal(transition(state, { type: 'payment_started', paymentIntentId: 'pi_other' }, buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(joined(), { type: 'payment_started', paymentIntentId: 'pi_dep' }, buyer, t0), 'validation_failed', 400)
    // A payment that is no longer due: why, as for opening it.
    expectRefusal(transition(depositPaid(), { type: 'payment_started', paymentIntentId: 'pi_dep' }, buyer, t0), 'already_paid', 409)
    expectRefusal(transition(remainderOpened(), { type: 'payment_started', paymentIntentId: 'pi_dep' }, buyer, t0), 'already_paid', 409)
    expectRefusal(
      transition(remainderPaid(), { type: 'payment_started', paymentIntentId: 'pi_rem' }, buyer, t0),
      'remainder_already_paid',
      409,
    )
    expectRefusal(
      transition(cancelledWithDeposit(), { type: 'payment_started', paymentIntentId: 'pi_dep' }, buyer, t0),
      'already_cancelled',
      409,
    )
    expectIgnored(depositPaid(), { type: 'payment_started', paymentIntentId: 'pi_dep' }, system, t0)
    expectRefusal(transition(state, { type: 'payment_started', paymentIntentId: 'pi_dep' }, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(state, { type: 'payment_started', paymentIntentId: 'pi_dep' }, admin, t0), 'not_buyer', 403)
  })
  it('holds the deposit when its payment succeeds, and tells both', () => {
    const { next, effects } = accept(transition(depositProcessing(), succeeded('pi_dep', depositPaidAmount), system, at(120)))
    expect(next).toMatchObject({
      status: 'deposit_paid',
      amountHeld: depositPaidAmount,
      isPaymentInProgress: false,
      paymentIntentId: 'pi_dep',
    })
    expect(next.timestamps.deposit_paid).toEqual(at(120))
    expect(next.timestamps.joined).toEqual(at(60))
    expect(escrowBalance(next)).toBe(depositPaidAmount)
    expect(effects).toEqual([
      holdEntry(depositPaidAmount, 'deposit'),
      { type: 'notify', template: 'deposit_paid', to: 'buyer' },
      { type: 'notify', template: 'deposit_paid', to: 'seller' },
    ])
  })
  it('holds the repriced deposit amount after a change of method', () => {
    const state = run(run(joined(), sepa, buyer), payDeposit(), buyer)
    expectSentBack(state, 'pi_dep', depositPaidAmount, 'deposit', 'wrong_amount')
    expect(run(state, succeeded('pi_dep', 5_090), system).amountHeld).toBe(5_090)
  })
  it('applies a payment once, however often the news arrives', () => {
    for (const later of [
      depositPaid(),
      depositAccepted(),
      priced(),
      remainderPaid(),
      sellerConfirmed(),
      complained(),
      fundsReleased(),
      paymentRefunded(),
      cancelledWithDeposit(),
      depositRefunded(),
    ]) {
      expectNoop(later, transition(later, succeeded('pi_dep', depositPaidAmount), system, at(5 * day)))
    }
    for (const later of [remainderPaid(), sellerConfirmed(), fundsReleased(), paymentRefunded()]) {
      expectNoop(later, transition(later, succeeded('pi_rem', remainderPaidAmount), system, at(5 * day)))
    }
  })
  it('holds nothing of a payment it cannot take, and sends it straight back on the record', () => {
    // Another amount (the price without its fee), another payment, nothing opened.
    expectSentBack(depositOpened(), 'pi_dep', deposit.price, 'deposit', 'wrong_amount')
    expectSentBack(depositOpened(), 'pi_other', depositPaidAmount, 'deposit', 'superseded')
    expectSentBack(joined(), 'pi_dep', depositPaidAmount, 'deposit', 'superseded')
    // Nobody is the buyer yet: sent back, with no account to record it on.
    const noBuyer = created()
    expectNoop(noBuyer, transition(noBuyer, succeeded('pi_dep', depositPaidAmount), system, at(5 * day)), [
      {
        type: 'provider',
        action: 'refund',
        amount: depositPaidAmount,
        currency: 'eur',
        idempotencyAction: 'refund-unheld:pi_dep',
        paymentIntentId: 'pi_dep',
      },
    ])
    // Arriving after the sale was called off or the deposit was paid through another payment.
    expectSentBack(run(depositOpened(), cancel(), seller), 'pi_dep', depositPaidAmount, 'deposit', 'cancelled')
    expectSentBack(depositPaid(), 'pi_dep2', depositPaidAmount, 'deposit', 'superseded')
    // A remainder that is not due (not priced, skipped, priced then cancelled) or not the opened one.
    expectSentBack(depositAccepted(), 'pi_rem', remainderPaidAmount, 'deposit', 'superseded')
    expectSentBack(run(remainderOpened(), cancel(), buyer), 'pi_rem', remainderPaidAmount, 'remainder', 'cancelled')
    expectSentBack(
      run(remainderOpened(), { type: 'skip_remainder' }, seller),
      'pi_rem',
      remainderPaidAmount,
      'remainder',
      'remainder_skipped',
    )
    expectSentBack(remainderOpened(), 'pi_rem', remainder.price, 'remainder', 'wrong_amount')
    expectSentBack(remainderOpened(), 'pi_rem2', remainderPaidAmount, 'deposit', 'superseded')
    expectSentBack(priced(), 'pi_rem', remainderPaidAmount, 'deposit', 'superseded')
    expectSentBack(fundsReleased(), 'pi_late', 700, 'deposit', 'superseded')
    expectRefusal(transition(depositOpened(), succeeded('pi_dep', depositPaidAmount), buyer, t0), 'forbidden', 403)
    expectRefusal(transition(depositOpened(), succeeded('pi_dep', depositPaidAmount), admin, t0), 'forbidden', 403)
  })
  it('counts a deposit refund on top of a payment sent back before', () => {
    const returned = run(depositPaid(), succeeded('pi_dep2', depositPaidAmount), system)
    const { next } = accept(transition(returned, cancel(), seller, at(day)))
    expect(next).toMatchObject({ status: 'cancelled_with_deposit', amountRefunded: depositPaidAmount + deposit.price })
  })
  it('refuses a cancel by others, without a description, or while the deposit is processing', () => {
    expectRefusal(transition(joined(), cancel(), admin, t0), 'forbidden', 403)
    expectRefusal(transition(joined(), cancel(), counterparty, t0), 'forbidden', 403)
    expectRefusal(transition(joined(), cancel(), system, t0), 'forbidden', 403)
    expectRefusal(transition(joined(), cancel(' '), buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(depositProcessing(), cancel(), buyer, t0), 'deposit_payment_in_review', 409)
    expectRefusal(transition(depositProcessing(), cancel(), seller, t0), 'deposit_payment_in_review', 409)
  })
  it('refuses the later steps before the deposit', () => {
    expectRefusal(transition(joined(), { type: 'accept_deposit' }, seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(depositProcessing(), { type: 'accept_deposit' }, seller, t0), 'deposit_payment_in_review', 409)
    expectRefusal(transition(joined(), setPrice(), seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(joined(), { type: 'skip_remainder' }, seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(joined(), { type: 'confirm_handover' }, buyer, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(created(), { type: 'confirm_handover' }, seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(joined(), { type: 'release_funds', to: 'seller' }, admin, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(depositProcessing(), { type: 'release_funds', to: 'seller' }, admin, t0), 'deposit_payment_in_review', 409)
  })
  it('says the deposit is on its way, not unpaid, while it is processing', () => {
    const processing = depositProcessing()
    expectRefusal(transition(processing, setPrice(), seller, t0), 'deposit_payment_in_review', 409)
    expectRefusal(transition(processing, { type: 'skip_remainder' }, seller, t0), 'deposit_payment_in_review', 409)
    expectRefusal(transition(processing, { type: 'confirm_handover' }, buyer, t0), 'deposit_payment_in_review', 409)
    expectRefusal(transition(processing, payRemainder(), buyer, t0), 'deposit_payment_in_review', 409)
  })
})

describe('deposit_paid', () => {
  it('moves to deposit_accepted when the seller accepts, and tells the buyer', () => {
    const { next, effects } = accept(transition(depositPaid(), { type: 'accept_deposit' }, seller, at(day)))
    expect(next).toMatchObject({ status: 'deposit_accepted', amountHeld: depositPaidAmount })
    expect(next.timestamps.deposit_accepted).toEqual(at(day))
    expect(next.timestamps.deposit_paid).toEqual(at(120))
    expect(effects).toEqual([{ type: 'notify', template: 'deposit_accepted', to: 'buyer' }])
  })
  it('refuses accepting the deposit: by others, twice, or once over', () => {
    expectRefusal(transition(depositPaid(), { type: 'accept_deposit' }, buyer, t0), 'not_seller', 403)
    expectRefusal(transition(depositPaid(), { type: 'accept_deposit' }, admin, t0), 'not_seller', 403)
    for (const later of [
      depositAccepted(),
      priced(),
      remainderPaid(),
      remainderSkipped(),
      sellerConfirmed(),
      buyerConfirmedFirst(),
      complained(),
    ]) {
      expectRefusal(transition(later, { type: 'accept_deposit' }, seller, t0), 'deposit_already_accepted', 409)
    }
    expectRefusal(transition(created(), { type: 'accept_deposit' }, seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(cancelledWithDeposit(), { type: 'accept_deposit' }, seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), { type: 'accept_deposit' }, seller, t0), 'funds_already_released', 409)
    expectRefusal(transition(paymentRefunded(), { type: 'accept_deposit' }, seller, t0), 'already_cancelled', 409)
  })
  it('refuses pricing, skipping and handover before the seller accepted the deposit, naming what is missing', () => {
    expectRefusal(transition(depositPaid(), setPrice(), seller, t0), 'deposit_not_accepted', 409)
    expectRefusal(transition(depositPaid(), { type: 'skip_remainder' }, seller, t0), 'deposit_not_accepted', 409)
    expectRefusal(transition(depositPaid(), { type: 'confirm_handover' }, seller, t0), 'remainder_required', 409)
    expectRefusal(transition(depositPaid(), payRemainder(), buyer, t0), 'price_not_set', 409)
  })

  const cancelWithDepositEffects: Effect[] = [
    refundEntry(depositPaidAmount, 5_000, 190),
    { type: 'provider', action: 'refund', amount: 5_000, currency: 'eur', idempotencyAction: 'refund:deposit', paymentIntentId: 'pi_dep' },
    { type: 'notify', template: 'cancelled_with_deposit', to: 'buyer' },
    { type: 'notify', template: 'cancelled_with_deposit', to: 'seller' },
  ]
  it('returns the deposit price and keeps its fee when either party cancels after the deposit', () => {
    for (const from of [depositPaid, depositAccepted, priced, remainderOpened]) {
      for (const actor of [buyer, seller]) {
        const { next, effects } = accept(transition(from(), cancel(' seller ill '), actor, at(day + 600)))
        expect(next).toMatchObject({
          status: 'cancelled_with_deposit',
          cancellation: { description: 'seller ill' },
          amountHeld: depositPaidAmount,
          amountRefunded: 5_000,
          amountReleased: 0,
        })
        expect(next.timestamps.cancelled_with_deposit).toEqual(at(day + 600))
        expect(escrowBalance(next)).toBe(0)
        expect(effects).toEqual(cancelWithDepositEffects)
      }
    }
  })
  it('refuses a cancel after the deposit by others, without a description, or while the remainder is processing', () => {
    expectRefusal(transition(depositPaid(), cancel(), admin, t0), 'forbidden', 403)
    expectRefusal(transition(depositPaid(), cancel(), system, t0), 'forbidden', 403)
    expectRefusal(transition(depositPaid(), cancel('\n'), seller, t0), 'validation_failed', 400)
    expectRefusal(transition(remainderProcessing(), cancel(), buyer, t0), 'payment_in_progress', 409)
    expectRefusal(transition(remainderProcessing(), cancel(), seller, t0), 'payment_in_progress', 409)
  })
  it('refuses a cancel once the remainder is settled, or the sale is over', () => {
    for (const later of [
      remainderPaid(),
      remainderSkipped(),
      sellerConfirmed(),
      buyerConfirmedFirst(),
      buyerConfirmedAlone(),
      complained(),
    ]) {
      for (const actor of [buyer, seller]) expectRefusal(transition(later, cancel(), actor, t0), 'already_paid', 409)
    }
    expectRefusal(transition(cancelledWithDeposit(), cancel(), seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(depositRefunded(), cancel(), seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(cancelledAfterJoin(), cancel(), seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), cancel(), buyer, t0), 'funds_already_released', 409)
    expectRefusal(transition(paymentRefunded(), cancel(), buyer, t0), 'already_cancelled', 409)
  })
  it('ends in deposit_refunded when the provider confirms the refund, once', () => {
    const { next, effects } = accept(transition(cancelledWithDeposit(), { type: 'refund_succeeded' }, system, at(day + 60)))
    expect(next).toMatchObject({ status: 'deposit_refunded', amountRefunded: 5_000 })
    expect(next.timestamps.deposit_refunded).toEqual(at(day + 60))
    expect(next.timestamps.cancelled_with_deposit).toEqual(at(day))
    expect(escrowBalance(next)).toBe(0)
    expect(effects).toEqual([{ type: 'notify', template: 'deposit_refunded', to: 'buyer' }])
    expectIgnored(depositRefunded(), { type: 'refund_succeeded' }, system, at(day + 90))
    expectIgnored(paymentRefunded(), { type: 'refund_succeeded' }, system, at(day + 90))
    // The refund of a payment sent back unheld is not the deposit's: the sale still waits for that one.
    expectIgnored(cancelledWithDeposit(), { type: 'refund_succeeded', paymentIntentId: 'pi_other' }, system, at(day + 60))
    expect(
      accept(transition(cancelledWithDeposit(), { type: 'refund_succeeded', paymentIntentId: 'pi_dep' }, system, at(day + 60))).next.status,
    ).toBe('deposit_refunded')
  })
  it('refuses refund news from anyone but the system, and lets a refund nobody waits for change nothing', () => {
    expectRefusal(transition(cancelledWithDeposit(), { type: 'refund_succeeded' }, admin, t0), 'forbidden', 403)
    expectRefusal(transition(cancelledWithDeposit(), { type: 'refund_succeeded' }, buyer, t0), 'forbidden', 403)
    // Money sent straight back unheld (a second payment, a wrong amount) has its refund too.
    for (const state of [joined(), depositPaid(), priced(), cancelledAfterJoin(), fundsReleased()]) {
      expectIgnored(state, { type: 'refund_succeeded' }, system, at(day))
    }
  })
})

describe('deposit_accepted', () => {
  it('moves to priced when the seller sets the total, and tells the buyer', () => {
    const { next, effects } = accept(transition(depositAccepted(), setPrice(), seller, at(day + 60)))
    expect(next).toMatchObject({
      status: 'priced',
      price: deposit.price,
      charge: deposit.charge,
      pricing: { price: total, charge: remainder.charge, chargeSeller: 0, chargeCalculatorVersion: version },
      highValue: false,
      amountHeld: depositPaidAmount,
    })
    expect(next.timestamps.priced).toEqual(at(day + 60))
    expect(remainderAmount(next)).toBe(remainderPaidAmount)
    expect(effects).toEqual([{ type: 'notify', template: 'priced', to: 'buyer' }])
  })
  it('judges high value on the total, not the deposit', () => {
    expect(run(depositAccepted(), setPrice(499_999, 15_190), seller).highValue).toBe(false)
    expect(run(depositAccepted(), setPrice(500_000, 15_190), seller).highValue).toBe(true)
  })
  it('accepts a remainder of exactly 100', () => {
    expect(run(depositAccepted(), setPrice(deposit.price + 100, 43), seller).pricing?.price).toBe(5_100)
  })
  it('refuses a price whose remainder is under 100 with remainder_too_low', () => {
    for (const price of [deposit.price + 99, deposit.price, deposit.price - 1, 0]) {
      expectRefusal(transition(depositAccepted(), setPrice(price, 43), seller, t0), 'remainder_too_low', 400)
    }
  })
  it('refuses a price that is not a well-formed amount', () => {
    expectRefusal(transition(depositAccepted(), setPrice(20_000.5), seller, t0), 'validation_failed', 400)
    expectRefusal(transition(depositAccepted(), setPrice(Number.NaN), seller, t0), 'validation_failed', 400)
    expectRefusal(transition(depositAccepted(), setPrice(total, -1), seller, t0), 'validation_failed', 400)
    expectRefusal(transition(depositAccepted(), setPrice(total, 1.5), seller, t0), 'validation_failed', 400)
    expectRefusal(
      transition(depositAccepted(), { ...setPrice(), chargeCalculatorVersion: 0 } as F2fEvent, seller, t0),
      'validation_failed',
      400,
    )
  })
  it('refuses setting the price: by others, before the deposit is accepted, twice, or once settled', () => {
    expectRefusal(transition(depositAccepted(), setPrice(), buyer, t0), 'not_seller', 403)
    expectRefusal(transition(depositAccepted(), setPrice(), admin, t0), 'not_seller', 403)
    expectRefusal(transition(depositAccepted(), setPrice(1), buyer, t0), 'not_seller', 403)
    expectRefusal(transition(created(), setPrice(), seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(priced(), setPrice(), seller, t0), 'price_already_set', 409)
    expectRefusal(transition(priced(), setPrice(1), seller, t0), 'price_already_set', 409)
    expectRefusal(transition(remainderSkipped(), setPrice(), seller, t0), 'remainder_already_skipped', 409)
    expectRefusal(transition(remainderPaid(), setPrice(), seller, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(sellerConfirmed(), setPrice(), seller, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(complained(), setPrice(), seller, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(cancelledWithDeposit(), setPrice(), seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), setPrice(), seller, t0), 'funds_already_released', 409)
  })
  it('moves to remainder_skipped when the seller skips the remainder, and tells the buyer', () => {
    const { next, effects } = accept(transition(depositAccepted(), { type: 'skip_remainder' }, seller, at(day + 60)))
    expect(next).toMatchObject({ status: 'remainder_skipped', pricing: null, amountHeld: depositPaidAmount })
    expect(next.timestamps.remainder_skipped).toEqual(at(day + 60))
    expect(effects).toEqual([{ type: 'notify', template: 'remainder_skipped', to: 'buyer' }])
  })
  it('lets the seller skip the remainder after pricing, dropping the price and re-judging high value on the deposit', () => {
    const highPriced = priced({}, setPrice(600_000, 18_040))
    expect(highPriced.highValue).toBe(true)
    const { next, effects } = accept(transition(highPriced, { type: 'skip_remainder' }, seller, at(day + 200)))
    expect(next).toMatchObject({ status: 'remainder_skipped', pricing: null, highValue: false })
    expect(next.timestamps.priced).toEqual(at(day + 60))
    expect(effects).toEqual([{ type: 'notify', template: 'remainder_skipped', to: 'buyer' }])
    // A remainder payment opened but not on its way does not stop it either.
    expect(run(remainderOpened(), { type: 'skip_remainder' }, seller).status).toBe('remainder_skipped')
  })
  it('refuses skipping the remainder: by others, while it is processing, before the deposit is accepted, or once settled', () => {
    expectRefusal(transition(depositAccepted(), { type: 'skip_remainder' }, buyer, t0), 'not_seller', 403)
    expectRefusal(transition(depositAccepted(), { type: 'skip_remainder' }, admin, t0), 'not_seller', 403)
    expectRefusal(transition(remainderProcessing(), { type: 'skip_remainder' }, seller, t0), 'payment_in_progress', 409)
    expectRefusal(transition(depositOpened(), { type: 'skip_remainder' }, seller, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(remainderSkipped(), { type: 'skip_remainder' }, seller, t0), 'remainder_already_skipped', 409)
    expectRefusal(transition(remainderPaid(), { type: 'skip_remainder' }, seller, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(buyerConfirmedFirst(), { type: 'skip_remainder' }, seller, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(cancelledWithDeposit(), { type: 'skip_remainder' }, seller, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), { type: 'skip_remainder' }, seller, t0), 'funds_already_released', 409)
  })
  it('refuses the remainder payment and the handover before pricing', () => {
    expectRefusal(transition(depositAccepted(), payRemainder(), buyer, t0), 'price_not_set', 409)
    expectRefusal(transition(depositAccepted(), { type: 'confirm_handover' }, seller, t0), 'remainder_required', 409)
    expectRefusal(transition(depositAccepted(), { type: 'confirm_handover' }, buyer, t0), 'remainder_required', 409)
  })
})

describe('priced', () => {
  it('records the remainder payment the buyer opens, apart from the deposit', () => {
    const { next, effects } = accept(transition(priced(), payRemainder(), buyer, at(day + 90)))
    expect(next).toMatchObject({ status: 'priced', paymentIntentId: 'pi_dep', remainderPaymentIntentId: 'pi_rem' })
    expect(effects).toEqual([])
    expectNoop(next, transition(next, payRemainder(), buyer, at(day + 95)))
    expect(run(next, payRemainder('pi_rem2'), buyer).remainderPaymentIntentId).toBe('pi_rem2')
  })
  it('refuses opening a remainder payment: by others, for the deposit, without an id, while one is processing, or once settled', () => {
    expectRefusal(transition(priced(), payRemainder(), seller, t0), 'not_buyer', 403)
    expectRefusal(transition(priced(), payDeposit(), buyer, t0), 'already_paid', 409)
    expectRefusal(transition(priced(), payRemainder(''), buyer, t0), 'validation_failed', 400)
    expectRefusal(transition(remainderProcessing(), payRemainder('pi_rem2'), buyer, t0), 'payment_in_progress', 409)
    expectIgnored(remainderProcessing(), payRemainder('pi_rem'), buyer, t0)
    expectRefusal(transition(remainderPaid(), payRemainder(), buyer, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(remainderSkipped(), payRemainder(), buyer, t0), 'remainder_already_skipped', 409)
    expectRefusal(transition(sellerConfirmed(), payRemainder(), buyer, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(complained(), payRemainder(), buyer, t0), 'remainder_already_paid', 409)
    expectRefusal(transition(cancelledWithDeposit(), payRemainder(), buyer, t0), 'already_cancelled', 409)
    expectRefusal(transition(fundsReleased(), payRemainder(), buyer, t0), 'funds_already_released', 409)
  })
  it('holds the remainder when its payment succeeds, and tells both', () => {
    const processing = remainderProcessing()
    expect(processing).toMatchObject({ status: 'priced', isPaymentInProgress: true })
    const { next, effects } = accept(transition(processing, succeeded('pi_rem', remainderPaidAmount), system, at(day + 120)))
    expect(next).toMatchObject({ status: 'remainder_paid', amountHeld: heldInFull, isPaymentInProgress: false })
    expect(next.timestamps.remainder_paid).toEqual(at(day + 120))
    expect(escrowBalance(next)).toBe(heldInFull)
    expect(effects).toEqual([
      holdEntry(remainderPaidAmount, 'remainder'),
      { type: 'notify', template: 'remainder_paid', to: 'buyer' },
      { type: 'notify', template: 'remainder_paid', to: 'seller' },
    ])
  })
  it('clears the processing flag when the remainder payment fails', () => {
    const { next, effects } = accept(
      transition(remainderProcessing(), { type: 'payment_failed', paymentIntentId: 'pi_rem' }, system, at(day + 200)),
    )
    expect(next).toMatchObject({ status: 'priced', isPaymentInProgress: false })
    expect(effects).toEqual([{ type: 'notify', template: 'payment_failed', to: 'buyer' }])
    expectIgnored(remainderProcessing(), { type: 'payment_failed', paymentIntentId: 'pi_dep' }, system, t0)
  })
  it('refuses an admin settlement while the remainder is processing', () => {
    expectRefusal(transition(remainderProcessing(), { type: 'release_funds', to: 'seller' }, admin, t0), 'payment_in_progress', 409)
    expectRefusal(transition(remainderProcessing(), { type: 'release_funds', to: 'buyer' }, admin, t0), 'payment_in_progress', 409)
  })
  it('refuses the handover before the remainder is paid or skipped', () => {
    expectRefusal(transition(priced(), { type: 'confirm_handover' }, seller, t0), 'remainder_required', 409)
    expectRefusal(transition(remainderProcessing(), { type: 'confirm_handover' }, buyer, t0), 'remainder_required', 409)
  })
})

describe('handover, the seller confirming (sellerConfirmsHandover true)', () => {
  it('starts the complaint window when the seller confirms', () => {
    for (const from of [remainderPaid, remainderSkipped]) {
      const { next, effects } = accept(transition(from(), { type: 'confirm_handover' }, seller, at(2 * day)))
      expect(next).toMatchObject({ status: 'seller_handover_confirmed', complaintPeriodDeadline: at(3 * day) })
      expect(next.timestamps.seller_handover_confirmed).toEqual(at(2 * day))
      expect(next.timestamps.buyer_handover_confirmed).toBeNull()
      expect(effects).toEqual([
        { type: 'schedule', timer: 'complaint_window', at: at(3 * day) },
        { type: 'notify', template: 'handover_confirmed', to: 'buyer' },
        { type: 'notify', template: 'handover_confirmed', to: 'seller' },
      ])
    }
  })
  it('takes the window from the policy', () => {
    const result = accept(
      transition(remainderPaid(), { type: 'confirm_handover' }, seller, at(2 * day), {
        ...defaultPolicy,
        complaintPeriodSeconds: 10,
        trackingDeadlineSeconds: 20,
      }),
    )
    expect(result.next.complaintPeriodDeadline).toEqual(at(2 * day + 10))
  })
  it('records the buyer confirming first without starting the window, and tells the seller', () => {
    const { next, effects } = accept(transition(remainderPaid(), { type: 'confirm_handover' }, buyer, at(2 * day)))
    expect(next).toMatchObject({ status: 'buyer_handover_confirmed', complaintPeriodDeadline: null })
    expect(next.timestamps.buyer_handover_confirmed).toEqual(at(2 * day))
    expect(effects).toEqual([{ type: 'notify', template: 'handover_awaiting_seller', to: 'seller' }])
    // Not the buyer's window yet.
    expectRefusal(transition(next, { type: 'complain', description: 'broken' }, buyer, at(2 * day + 1)), 'unconfirmed_delivery', 409)
    expectRefusal(transition(next, { type: 'end_complaint_period' }, buyer, at(2 * day + 1)), 'unconfirmed_delivery', 409)
    expectNoop(next, transition(next, { type: 'complaint_window_elapsed' }, system, at(9 * day)))
  })
  it('starts the window when the seller confirms after the buyer', () => {
    const { next, effects } = accept(transition(buyerConfirmedFirst(), { type: 'confirm_handover' }, seller, at(2 * day + 600)))
    expect(next).toMatchObject({ status: 'seller_handover_confirmed', complaintPeriodDeadline: at(3 * day + 600) })
    expect(next.timestamps.buyer_handover_confirmed).toEqual(at(2 * day))
    expect(next.timestamps.seller_handover_confirmed).toEqual(at(2 * day + 600))
    expect(effects).toEqual([
      { type: 'schedule', timer: 'complaint_window', at: at(3 * day + 600) },
      { type: 'notify', template: 'handover_confirmed', to: 'buyer' },
      { type: 'notify', template: 'handover_confirmed', to: 'seller' },
    ])
  })
  it('refuses confirming: by others, twice, or once over', () => {
    for (const actor of [admin, system, counterparty])
      expectRefusal(transition(remainderPaid(), { type: 'confirm_handover' }, actor, t0), 'forbidden', 403)
    expectRefusal(transition(buyerConfirmedFirst(), { type: 'confirm_handover' }, buyer, t0), 'handover_already_confirmed', 409)
    expectRefusal(transition(sellerConfirmed(), { type: 'confirm_handover' }, seller, t0), 'handover_already_confirmed', 409)
    expectRefusal(transition(sellerConfirmed(), { type: 'confirm_handover' }, buyer, t0), 'handover_already_confirmed', 409)
    expectRefusal(transition(complained(), { type: 'confirm_handover' }, seller, t0), 'handover_already_confirmed', 409)
    expectRefusal(transition(fundsReleased(), { type: 'confirm_handover' }, buyer, t0), 'funds_already_released', 409)
    expectRefusal(transition(cancelledWithDeposit(), { type: 'confirm_handover' }, buyer, t0), 'already_cancelled', 409)
    expectRefusal(transition(paymentRefunded(), { type: 'confirm_handover' }, buyer, t0), 'already_cancelled', 409)
  })
})

describe('handover, the buyer alone confirming (sellerConfirmsHandover false)', () => {
  const noSellerStep: Options = { sellerConfirmsHandover: false }
  it('starts the complaint window when the buyer confirms, and tells both', () => {
    for (const from of [remainderPaid, remainderSkipped]) {
      const { next, effects } = accept(transition(from(noSellerStep), { type: 'confirm_handover' }, buyer, at(2 * day)))
      expect(next).toMatchObject({ status: 'buyer_handover_confirmed', complaintPeriodDeadline: at(3 * day) })
      expect(next.timestamps.buyer_handover_confirmed).toEqual(at(2 * day))
      expect(effects).toEqual([
        { type: 'schedule', timer: 'complaint_window', at: at(3 * day) },
        { type: 'notify', template: 'handover_confirmed', to: 'buyer' },
        { type: 'notify', template: 'handover_confirmed', to: 'seller' },
      ])
    }
  })
  it('refuses the seller confirming with not_buyer, wherever it is', () => {
    expectRefusal(transition(remainderPaid(noSellerStep), { type: 'confirm_handover' }, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(remainderSkipped(noSellerStep), { type: 'confirm_handover' }, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(buyerConfirmedAlone(), { type: 'confirm_handover' }, seller, t0), 'not_buyer', 403)
    expectRefusal(transition(buyerConfirmedAlone(), { type: 'confirm_handover' }, buyer, t0), 'handover_already_confirmed', 409)
    expectRefusal(transition(remainderPaid(noSellerStep), { type: 'confirm_handover' }, admin, t0), 'forbidden', 403)
  })
  it('lets the buyer complain or end the period in that window, and the timer release it', () => {
    const state = buyerConfirmedAlone()
    expect(run(state, { type: 'complain', description: 'broken' }, buyer, at(2 * day + 60)).status).toBe('complained')
    expect(run(state, { type: 'end_complaint_period' }, buyer, at(2 * day + 60)).status).toBe('funds_released')
    const { next, effects } = accept(transition(state, { type: 'complaint_window_elapsed' }, system, at(3 * day)))
    expect(next).toMatchObject({ status: 'funds_released', amountReleased: total })
    expect(next.timestamps.complaint_period_ended).toEqual(at(3 * day))
    expect(ledger(effects).map((e) => e.entry)).toEqual(['release'])
    expectNoop(state, transition(state, { type: 'complaint_window_elapsed' }, system, at(3 * day - 1)), [
      { type: 'schedule', timer: 'complaint_window', at: at(3 * day) },
    ])
    expect(accept(transition(state, { type: 'release_funds', to: 'seller' }, admin, at(2 * day + 60))).effects).toContainEqual({
      type: 'cancel_timer',
      timer: 'complaint_window',
    })
  })
})

describe('complaint window', () => {
  it('lets the buyer end the period even after the deadline, before the timer ran', () => {
    expect(run(sellerConfirmed(), { type: 'end_complaint_period' }, buyer, at(4 * day)).status).toBe('funds_released')
  })
  it('pays the seller the total less both seller charges, and keeps every fee', () => {
    const withSellerFees = run(
      run(
        run(priced({ depositChargeSeller: 50 }, setPrice(total, remainder.charge, 150)), payRemainder(), buyer),
        succeeded('pi_rem', remainderPaidAmount),
        system,
      ),
      { type: 'confirm_handover' },
      seller,
      at(2 * day),
    )
    const { next, effects } = accept(transition(withSellerFees, { type: 'end_complaint_period' }, buyer, at(2 * day + 60)))
    expect(next.amountReleased).toBe(total - 50 - 150)
    expect(ledger(effects)[0]?.postings).toEqual([
      { account: 'escrow', amount: -heldInFull, currency: 'eur' },
      { account: 'seller', amount: 19_800, currency: 'eur' },
      { account: 'revenue', amount: 190 + 490 + 50 + 150, currency: 'eur' },
    ])
    expect(provider(effects)).toEqual([
      { type: 'provider', action: 'transfer', amount: 19_800, currency: 'eur', idempotencyAction: 'transfer', paymentIntentId: 'pi_dep' },
    ])
  })
  it('pays the seller the deposit alone when the remainder was skipped', () => {
    const skipped = run(remainderSkipped({ depositChargeSeller: 50 }), { type: 'confirm_handover' }, seller, at(2 * day))
    const { next, effects } = accept(transition(skipped, { type: 'end_complaint_period' }, buyer, at(2 * day + 60)))
    expect(next).toMatchObject({ status: 'funds_released', amountHeld: depositPaidAmount, amountReleased: 4_950 })
    expect(escrowBalance(next)).toBe(0)
    expect(ledger(effects)).toEqual([releaseEntry(depositPaidAmount, 4_950, 240)])
    expect(provider(effects)).toEqual([
      { type: 'provider', action: 'transfer', amount: 4_950, currency: 'eur', idempotencyAction: 'transfer', paymentIntentId: 'pi_dep' },
    ])
  })
})

describe('complained', () => {
  it('refunds the deposit alone when the remainder was skipped', () => {
    const state = run(
      run(remainderSkipped(), { type: 'confirm_handover' }, seller, at(2 * day)),
      { type: 'complain', description: 'x' },
      buyer,
      at(2 * day + 1),
    )
    const { next, effects } = accept(transition(state, { type: 'accept_complaint' }, seller, at(3 * day)))
    expect(next).toMatchObject({ status: 'payment_refunded', amountRefunded: depositPaidAmount })
    expect(ledger(effects)[0]?.postings).toEqual([
      { account: 'escrow', amount: -depositPaidAmount, currency: 'eur' },
      { account: 'buyer_refund', amount: depositPaidAmount, currency: 'eur' },
    ])
    expect(provider(effects)).toEqual([
      {
        type: 'provider',
        action: 'refund',
        amount: depositPaidAmount,
        currency: 'eur',
        idempotencyAction: 'refund:deposit',
        paymentIntentId: 'pi_dep',
      },
    ])
  })
})

describe('admin settlement', () => {
  it('refuses release_funds with nothing held, or while a payment is on its way (the rest: testing/shared-machine-cases.ts)', () => {
    expectRefusal(transition(created(), { type: 'release_funds', to: 'buyer' }, admin, t0), 'deposit_not_paid', 409)
    expectRefusal(transition(depositProcessing(), { type: 'release_funds', to: 'buyer' }, admin, t0), 'deposit_payment_in_review', 409)
    expectRefusal(transition(remainderProcessing(), { type: 'release_funds', to: 'seller' }, admin, t0), 'payment_in_progress', 409)
  })
})

describe('terminal states', () => {
  const terminals: [string, () => F2fState][] = [
    ['cancelled', cancelled],
    ['cancelled after joining', cancelledAfterJoin],
    ['rejected', rejected],
    ['funds_released', fundsReleased],
    ['payment_refunded', paymentRefunded],
    ['deposit_refunded', depositRefunded],
  ]
  const everyEvent: F2fEvent[] = [
    { type: 'join', userId: 'u_other' },
    { type: 'reject' },
    { type: 'update', description: 'x' },
    cancel(),
    sepa,
    payDeposit('pi_new'),
    payRemainder('pi_new'),
    { type: 'payment_started', paymentIntentId: 'pi_dep' },
    { type: 'payment_failed', paymentIntentId: 'pi_dep' },
    succeeded('pi_dep', depositPaidAmount),
    succeeded('pi_rem', remainderPaidAmount),
    succeeded('pi_new', 999),
    { type: 'refund_succeeded' },
    { type: 'accept_deposit' },
    setPrice(),
    { type: 'skip_remainder' },
    { type: 'confirm_handover' },
    { type: 'complain', description: 'x' },
    { type: 'end_complaint_period' },
    { type: 'complaint_window_elapsed' },
    { type: 'accept_complaint' },
    { type: 'release_funds', to: 'buyer' },
    { type: 'release_funds', to: 'seller' },
  ]
  for (const [name, build] of terminals) {
    it(`${name} is never left and moves no held money`, () => {
      expectNeverLeft(transition, build(), everyEvent, [
        'payment_started',
        'payment_failed',
        'payment_succeeded',
        'refund_succeeded',
        'complaint_window_elapsed',
      ])
    })
  }
  it('are exactly the terminal statuses', () => {
    expect([...f2fTerminalStatuses].sort()).toEqual(['cancelled', 'deposit_refunded', 'funds_released', 'payment_refunded', 'rejected'])
    for (const status of f2fStatuses) {
      expect(isTerminal({ kind: 'f2f', status })).toBe((f2fTerminalStatuses as readonly string[]).includes(status))
    }
    // Waiting for the provider to confirm the deposit refund is not the end yet.
    expect(isTerminal(cancelledWithDeposit())).toBe(false)
  })
})

describe('dispatcher', () => {
  it('routes face-to-face events to the face-to-face table', () => {
    const direct = transition(depositPaid(), cancel(), buyer, at(day))
    expect(dispatch(depositPaid(), cancel(), buyer, at(day))).toEqual(direct)
    expect(dispatch(depositAccepted(), setPrice(), seller, at(day))).toEqual(transition(depositAccepted(), setPrice(), seller, at(day)))
  })
  it('answers events of the online kind, and online-shaped ones, not_found, as the API answers a path of the other kind', () => {
    expectRefusal(dispatch(depositPaid(), { type: 'cancel' }, buyer, t0) as TransitionResult, 'not_found', 404)
    expectRefusal(
      dispatch(joined(), { type: 'payment_intent_opened', paymentIntentId: 'pi_dep' }, buyer, t0) as TransitionResult,
      'not_found',
      404,
    )
    expectRefusal(dispatch(sellerConfirmed(), { type: 'confirm_delivery' }, buyer, t0) as TransitionResult, 'not_found', 404)
    // An admin's confirm_delivery on a face-to-face sale (POST /admin/transactions/{id}/confirm_delivery).
    expectRefusal(dispatch(sellerConfirmed(), { type: 'confirm_delivery' }, admin, t0) as TransitionResult, 'not_found', 404)
    expectRefusal(
      dispatch(depositPaid(), { type: 'track', carrier: 'dhl', trackingCode: 'X' }, seller, t0) as TransitionResult,
      'not_found',
      404,
    )
    expectRefusal(transition(depositPaid(), { type: 'track' } as unknown as F2fEvent, seller, t0), 'not_found', 404)
  })
})

describe('available actions', () => {
  const offered = (state: F2fState, actor: Actor, now = at(2 * day + 60)): TransactionAction[] => availableActions(state, actor, now)
  it('offers each party exactly what it can do now, from created to the deposit', () => {
    expect(offered(created(), seller)).toEqual(['update', 'cancel_with_description'])
    expect(offered(created(), counterparty)).toEqual(['join', 'reject'])
    expect(offered(created(), buyer)).toEqual([])
    expect(offered(created(), admin)).toEqual([])
    expect(offered(joined(), buyer)).toEqual(['cancel_with_description', 'set_deposit_payment_method', 'pay_deposit'])
    expect(offered(joined({ paymentMethod: null }), buyer)).toEqual(['cancel_with_description', 'set_deposit_payment_method'])
    expect(offered(joined(), seller)).toEqual(['cancel_with_description'])
    expect(offered(joined(), admin)).toEqual([])
    expect(offered(joined(), counterparty)).toEqual([])
    expect(offered(depositProcessing(), buyer)).toEqual([])
    expect(offered(depositProcessing(), seller)).toEqual([])
  })
  it('offers the deposit and pricing steps to the seller, payment to the buyer, settlement to the admin', () => {
    expect(offered(depositPaid(), seller)).toEqual(['cancel_with_description', 'accept_deposit'])
    expect(offered(depositPaid(), buyer)).toEqual(['cancel_with_description'])
    expect(offered(depositPaid(), admin)).toEqual(['release_funds'])
    expect(offered(depositAccepted(), seller)).toEqual(['cancel_with_description', 'set_price', 'skip_remainder'])
    expect(offered(depositAccepted(), buyer)).toEqual(['cancel_with_description'])
    expect(offered(depositAccepted(), admin)).toEqual(['release_funds'])
    expect(offered(priced(), buyer)).toEqual(['cancel_with_description', 'pay_remainder'])
    expect(offered(priced(), seller)).toEqual(['cancel_with_description', 'skip_remainder'])
    expect(offered(priced(), admin)).toEqual(['release_funds'])
    expect(offered(remainderProcessing(), buyer)).toEqual([])
    expect(offered(remainderProcessing(), seller)).toEqual([])
    expect(offered(remainderProcessing(), admin)).toEqual([])
  })
  it('offers the handover to both parties, or only the buyer where the seller has no such step', () => {
    for (const build of [remainderPaid, remainderSkipped]) {
      expect(offered(build(), seller)).toEqual(['confirm_handover'])
      expect(offered(build(), buyer)).toEqual(['confirm_handover'])
      expect(offered(build(), admin)).toEqual(['release_funds'])
      expect(offered(build({ sellerConfirmsHandover: false }), seller)).toEqual([])
      expect(offered(build({ sellerConfirmsHandover: false }), buyer)).toEqual(['confirm_handover'])
    }
    expect(offered(buyerConfirmedFirst(), seller)).toEqual(['confirm_handover'])
    expect(offered(buyerConfirmedFirst(), buyer)).toEqual([])
    expect(offered(buyerConfirmedFirst(), admin)).toEqual(['release_funds'])
  })
  it('offers the buyer the complaint window, and the seller the complaint', () => {
    expect(offered(sellerConfirmed(), buyer, at(2 * day + 60))).toEqual(['complain', 'end_complaint_period'])
    expect(offered(sellerConfirmed(), buyer, at(3 * day))).toEqual(['end_complaint_period'])
    expect(offered(sellerConfirmed(), seller)).toEqual([])
    expect(offered(sellerConfirmed(), admin)).toEqual(['release_funds'])
    expect(offered(buyerConfirmedAlone(), buyer, at(2 * day + 60))).toEqual(['complain', 'end_complaint_period'])
    expect(offered(buyerConfirmedAlone(), seller)).toEqual([])
    expect(offered(complained(), seller)).toEqual(['accept_complaint', 'propose_settlement', 'escalate_case'])
    expect(offered(complained(), buyer)).toEqual(['propose_settlement', 'escalate_case'])
    expect(offered(complained(), admin)).toEqual(['release_funds', 'decide'])
  })
  it('offers nothing while a deposit refund is on its way, once over, or to the system', () => {
    for (const state of [cancelledWithDeposit(), cancelled(), rejected(), fundsReleased(), paymentRefunded(), depositRefunded()]) {
      for (const actor of everyActor) expect(offered(state, actor)).toEqual([])
    }
    for (const state of [joined(), depositPaid(), sellerConfirmed(), complained()]) expect(offered(state, system)).toEqual([])
  })
})

describe('list filters', () => {
  it('hands the passing complaint_period_ended to the system', () => {
    expect(whoMustAct({ kind: 'f2f', status: 'complaint_period_ended', isPaymentInProgress: false })).toBe('system')
    expect(whoMustAct({ kind: 'f2f', status: 'buyer_handover_confirmed', isPaymentInProgress: false })).toBe('seller')
  })
})

describe('filterClauses', () => {
  const filters: TransactionFilter[] = ['active', 'inputRequired', 'waiting', 'completed', 'cancelled']
  const statusesOf = { online: onlineStatuses, f2f: f2fStatuses } as const
  it('agrees with matchesFilter for every kind, status, flag and role', () => {
    let checked = 0
    for (const filter of filters) {
      for (const role of ['buyer', 'seller'] as const) {
        const clauses = filterClauses(filter, role)
        // Each clause names one kind and statuses of that kind only, each once.
        for (const clause of clauses) {
          expect(clause.statuses.length).toBeGreaterThan(0)
          expect(new Set(clause.statuses).size).toBe(clause.statuses.length)
          for (const status of clause.statuses) expect(statusesOf[clause.kind] as readonly string[]).toContain(status)
        }
        for (const kind of ['online', 'f2f'] as const) {
          for (const status of statusesOf[kind]) {
            for (const isPaymentInProgress of [false, true]) {
              for (const sellerConfirmsHandover of [false, true]) {
                const row = { kind, status, isPaymentInProgress, sellerConfirmsHandover }
                const byClauses = clauses.some(
                  (clause) =>
                    clause.kind === kind &&
                    clause.statuses.includes(status) &&
                    (clause.isPaymentInProgress === undefined || clause.isPaymentInProgress === isPaymentInProgress) &&
                    (clause.sellerConfirmsHandover === undefined || clause.sellerConfirmsHandover === sellerConfirmsHandover),
                )
                expect(byClauses, `${filter} ${role} ${JSON.stringify(row)}`).toBe(
                  matchesFilter(row as Parameters<typeof matchesFilter>[0], role, filter),
                )
                checked += 1
              }
            }
          }
        }
      }
    }
    expect(checked).toBe(5 * 2 * (onlineStatuses.length + f2fStatuses.length) * 4)
  })
  it('needs a flag only where whose move it is depends on it', () => {
    // The handover states depend on the seller's step; online never does.
    const buyerInput = filterClauses('inputRequired', 'buyer')
    expect(buyerInput.filter((clause) => clause.kind === 'online').every((clause) => clause.sellerConfirmsHandover === undefined)).toBe(
      true,
    )
    expect(
      buyerInput.some(
        (clause) => clause.kind === 'f2f' && clause.statuses.includes('remainder_paid') && clause.sellerConfirmsHandover === false,
      ),
    ).toBe(true)
    expect(filterClauses('completed', 'seller')).toEqual([
      { kind: 'online', statuses: ['funds_released'] },
      { kind: 'f2f', statuses: ['funds_released'] },
    ])
  })
})
