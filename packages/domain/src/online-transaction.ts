import type { CurrencyCode, PaymentMethod } from './currencies.ts'
import type { LedgerEntryKind } from './ledger-rules.ts'

/**
 * The online transaction state machine (DESIGN §3 "Online states"). Pure: the
 * caller loads the state, passes the clock reading and the actor, and persists
 * `next` together with every effect in one database transaction. Nothing here
 * reads a clock, a database or the network, which is what lets the property
 * tests drive it through thousands of random histories.
 */

export const onlineStatuses = [
  'created',
  'joined',
  'paid',
  'tracked',
  'delivered',
  'complained',
  'complaint_period_ended',
  'funds_released',
  'cancelled',
  'rejected',
  'cancelled_with_payment',
  'payment_refunded',
] as const
export type OnlineStatus = (typeof onlineStatuses)[number]

export const terminalStatuses = ['rejected', 'cancelled', 'funds_released', 'payment_refunded'] as const
export type TerminalStatus = (typeof terminalStatuses)[number]

export function isTerminal(status: OnlineStatus): status is TerminalStatus {
  return (terminalStatuses as readonly string[]).includes(status)
}

export type Party = 'buyer' | 'seller'

/**
 * Who is acting. `buyer` / `seller` are the parties (the creator is whichever
 * one `state.creatorRole` names, so no separate creator flag is needed);
 * `counterparty` is a signed-in user who reached the transaction through its
 * join code and is not a party yet (join, reject); `admin` acts through the
 * admin calls; `system` is timers and provider or carrier webhooks.
 */
export interface Actor {
  readonly kind: Party | 'counterparty' | 'admin' | 'system'
}

export type OnlineTimestamps = { readonly [S in OnlineStatus]: Date | null }

export interface OnlineState {
  readonly status: OnlineStatus
  readonly creatorRole: Party
  readonly price: number
  readonly currency: CurrencyCode
  /** The buyer's fee on top of the price, as last quoted. */
  readonly charge: number
  /** Withheld from the seller's payout and kept as revenue. */
  readonly chargeSeller: number
  readonly chargeCalculatorVersion: string
  readonly paymentMethod: PaymentMethod | null
  /** An asynchronous payment (SEPA) is processing: no repricing, no cancelling. */
  readonly isPaymentInProgress: boolean
  /** The provider payment the money came (or is coming) from; refunds go back to it. */
  readonly paymentIntentId: string | null
  readonly tracking: { readonly carrier: string; readonly trackingCode: string } | null
  readonly orderIssue: { readonly description: string } | null
  readonly complaint: { readonly description: string } | null
  readonly trackingDeadline: Date | null
  readonly complaintPeriodDeadline: Date | null
  /** Put into escrow by the payment: price + charge. */
  readonly amountHeld: number
  /** Paid out to the seller: price − chargeSeller. */
  readonly amountReleased: number
  /** Returned to the buyer: everything they paid. */
  readonly amountRefunded: number
  /** One per state, set when the state is entered (`joined`, `paid`, …). */
  readonly timestamps: OnlineTimestamps
}

export interface OnlinePolicy {
  readonly complaintPeriodSeconds: number
  readonly trackingDeadlineSeconds: number
}

/** COMPLAINT_PERIOD_SECONDS and TRACKING_DEADLINE_SECONDS defaults (DESIGN §5). */
export const defaultOnlinePolicy: OnlinePolicy = { complaintPeriodSeconds: 86_400, trackingDeadlineSeconds: 345_600 }

export type OnlineEvent =
  | { readonly type: 'join' }
  | { readonly type: 'reject' }
  | { readonly type: 'cancel' }
  | {
      readonly type: 'set_payment_method'
      readonly paymentMethod: PaymentMethod
      /** Computed by the caller with fees.ts for this price, currency and method. */
      readonly charge: number
      readonly chargeCalculatorVersion: string
    }
  | { readonly type: 'payment_started'; readonly paymentIntentId: string }
  | { readonly type: 'payment_succeeded'; readonly paymentIntentId: string; readonly amount: number }
  | { readonly type: 'payment_failed'; readonly paymentIntentId: string }
  | { readonly type: 'refund_succeeded' }
  | { readonly type: 'track'; readonly carrier: string; readonly trackingCode: string }
  | { readonly type: 'submit_order_issue'; readonly description: string }
  | { readonly type: 'carrier_delivered' }
  | { readonly type: 'confirm_delivery' }
  | { readonly type: 'complain'; readonly description: string }
  | { readonly type: 'end_complaint_period' }
  | { readonly type: 'complaint_window_elapsed' }
  | { readonly type: 'accept_complaint' }
  | { readonly type: 'release_funds'; readonly to: Party }
  | { readonly type: 'tracking_deadline_elapsed' }

export type OnlineEventType = OnlineEvent['type']

/** Symbolic accounts; the server qualifies them (`escrow:<tx>`, `seller:<user>`). */
export type LedgerAccount = 'buyer_funding' | 'escrow' | 'seller' | 'revenue' | 'buyer_refund'

export interface OnlinePosting {
  readonly account: LedgerAccount
  /** Signed change of the account's balance, minor units. */
  readonly amount: number
  readonly currency: CurrencyCode
}

export type TimerKind = 'tracking_deadline' | 'complaint_window'

export type NotifyTemplate =
  | 'joined'
  | 'rejected'
  | 'cancelled'
  | 'paid'
  | 'payment_failed'
  | 'tracked'
  | 'order_issue'
  | 'delivered'
  | 'complained'
  | 'funds_released'
  | 'cancelled_with_payment'
  | 'payment_refunded'

export type Effect =
  | { readonly type: 'ledger'; readonly entry: LedgerEntryKind; readonly postings: readonly OnlinePosting[] }
  /** Schedule (or move) the one timer of that kind for this transaction. */
  | { readonly type: 'schedule'; readonly timer: TimerKind; readonly at: Date }
  | { readonly type: 'cancel_timer'; readonly timer: TimerKind }
  | {
      readonly type: 'provider'
      readonly action: 'refund' | 'transfer'
      readonly amount: number
      readonly currency: CurrencyCode
      /**
       * With the transaction id this makes the provider idempotency key. A
       * transaction is refunded at most once and transferred at most once, so
       * the action alone is unique within it.
       */
      readonly idempotencyAction: 'refund' | 'transfer'
      /** Refunds go back to this payment; transfers cite it as their source. */
      readonly paymentIntentId: string | null
    }
  | { readonly type: 'notify'; readonly template: NotifyTemplate; readonly to: Party }

export type RefusalCode =
  | 'validation_failed'
  | 'invalid_payment_method'
  | 'empty_complaint_description'
  | 'forbidden'
  | 'not_buyer'
  | 'not_seller'
  | 'not_admin'
  | 'cannot_join_own_transaction'
  | 'invalid_state'
  | 'already_joined'
  | 'already_cancelled'
  | 'already_paid'
  | 'payment_method_already_set'
  | 'tracking_already_added'
  | 'tracking_details_deadline_expired'
  | 'delivery_already_set'
  | 'unconfirmed_delivery'
  | 'already_complained'
  | 'complaint_period_expired'
  | 'funds_already_released'
  | 'incorrect_charge'

/** Same statuses as the API's error table: 400 bad input, 403 wrong role, 409 wrong state. */
export const refusalStatus: Readonly<Record<RefusalCode, 400 | 403 | 409>> = {
  validation_failed: 400,
  invalid_payment_method: 400,
  empty_complaint_description: 400,
  forbidden: 403,
  not_buyer: 403,
  not_seller: 403,
  not_admin: 403,
  cannot_join_own_transaction: 403,
  invalid_state: 409,
  already_joined: 409,
  already_cancelled: 409,
  already_paid: 409,
  payment_method_already_set: 409,
  tracking_already_added: 409,
  tracking_details_deadline_expired: 409,
  delivery_already_set: 409,
  unconfirmed_delivery: 409,
  already_complained: 409,
  complaint_period_expired: 409,
  funds_already_released: 409,
  incorrect_charge: 409,
}

export type Refusal = { readonly ok: false; readonly code: RefusalCode; readonly status: 400 | 403 | 409 }
export type Step = { readonly ok: true; readonly next: OnlineState; readonly effects: readonly Effect[] }
export type TransitionResult = Step | Refusal

export interface NewOnlineTransaction {
  readonly creatorRole: Party
  readonly price: number
  readonly currency: CurrencyCode
  readonly charge: number
  readonly chargeSeller?: number
  readonly chargeCalculatorVersion: string
  readonly paymentMethod?: PaymentMethod | null
}

const noTimestamps: OnlineTimestamps = {
  created: null,
  joined: null,
  paid: null,
  tracked: null,
  delivered: null,
  complained: null,
  complaint_period_ended: null,
  funds_released: null,
  cancelled: null,
  rejected: null,
  cancelled_with_payment: null,
  payment_refunded: null,
}

/**
 * The state of a transaction just created. The price and charge are expected
 * to have been validated with fees.ts (`quoteCharge`, `checkShownCharge`).
 */
export function createOnlineTransaction(input: NewOnlineTransaction, now: Date): OnlineState {
  return {
    status: 'created',
    creatorRole: input.creatorRole,
    price: input.price,
    currency: input.currency,
    charge: input.charge,
    chargeSeller: input.chargeSeller ?? 0,
    chargeCalculatorVersion: input.chargeCalculatorVersion,
    paymentMethod: input.paymentMethod ?? null,
    isPaymentInProgress: false,
    paymentIntentId: null,
    tracking: null,
    orderIssue: null,
    complaint: null,
    trackingDeadline: null,
    complaintPeriodDeadline: null,
    amountHeld: 0,
    amountReleased: 0,
    amountRefunded: 0,
    timestamps: { ...noTimestamps, created: now },
  }
}

/** What sits in escrow right now: held and not yet released or refunded. */
export function escrowBalance(state: OnlineState): number {
  if (state.amountReleased > 0 || state.amountRefunded > 0) return 0
  return state.amountHeld
}

// ---------------------------------------------------------------------------
// Building blocks

function refuse(code: RefusalCode): Refusal {
  return { ok: false, code, status: refusalStatus[code] }
}

function step(next: OnlineState, effects: readonly Effect[] = []): Step {
  return { ok: true, next, effects }
}

/** Success that changes nothing: a repeated webhook, or a timer that lost a race. */
function noop(state: OnlineState, effects: readonly Effect[] = []): Step {
  return { ok: true, next: state, effects }
}

function enter(state: OnlineState, status: OnlineStatus, now: Date, patch: Partial<OnlineState> = {}): OnlineState {
  return { ...state, ...patch, status, timestamps: { ...state.timestamps, [status]: now } }
}

function otherParty(party: Party): Party {
  return party === 'buyer' ? 'seller' : 'buyer'
}

function notRole(role: Party): RefusalCode {
  return role === 'buyer' ? 'not_buyer' : 'not_seller'
}

function addSeconds(now: Date, seconds: number): Date {
  return new Date(now.getTime() + seconds * 1000)
}

function reached(now: Date, deadline: Date | null): boolean {
  return deadline !== null && now.getTime() >= deadline.getTime()
}

/**
 * The refusal for an action that does not fit the state, named after the
 * reason a client can act on where there is one.
 */
function wrongState(status: OnlineStatus): RefusalCode {
  switch (status) {
    case 'cancelled':
    case 'rejected':
    case 'cancelled_with_payment':
      return 'already_cancelled'
    case 'funds_released':
      return 'funds_already_released'
    default:
      return 'invalid_state'
  }
}

/** For actions that only make sense before the buyer pays. */
function paidAlready(status: OnlineStatus): RefusalCode {
  switch (status) {
    case 'paid':
    case 'tracked':
    case 'delivered':
    case 'complained':
    case 'complaint_period_ended':
      return 'already_paid'
    default:
      return wrongState(status)
  }
}

function isBlank(text: string): boolean {
  return text.trim() === ''
}

function sellerPayout(state: OnlineState): number {
  return state.price - state.chargeSeller
}

function holdEffects(state: OnlineState, amount: number): Effect[] {
  return [
    {
      type: 'ledger',
      entry: 'hold',
      postings: [
        { account: 'buyer_funding', amount: -amount, currency: state.currency },
        { account: 'escrow', amount, currency: state.currency },
      ],
    },
  ]
}

/** Escrow → seller (price less charge_seller) and → revenue (the fees). */
function releaseEffects(state: OnlineState): Effect[] {
  const payout = sellerPayout(state)
  const revenue = state.amountHeld - payout
  const postings: OnlinePosting[] = [{ account: 'escrow', amount: -state.amountHeld, currency: state.currency }]
  if (payout !== 0) postings.push({ account: 'seller', amount: payout, currency: state.currency })
  if (revenue !== 0) postings.push({ account: 'revenue', amount: revenue, currency: state.currency })
  return [
    { type: 'ledger', entry: 'release', postings },
    {
      type: 'provider',
      action: 'transfer',
      amount: payout,
      currency: state.currency,
      idempotencyAction: 'transfer',
      paymentIntentId: state.paymentIntentId,
    },
    { type: 'notify', template: 'funds_released', to: 'seller' },
    { type: 'notify', template: 'funds_released', to: 'buyer' },
  ]
}

/** DESIGN §2: an online refund returns everything the buyer paid, fee included. */
function refundEffects(state: OnlineState): Effect[] {
  return [
    {
      type: 'ledger',
      entry: 'refund',
      postings: [
        { account: 'escrow', amount: -state.amountHeld, currency: state.currency },
        { account: 'buyer_refund', amount: state.amountHeld, currency: state.currency },
      ],
    },
    {
      type: 'provider',
      action: 'refund',
      amount: state.amountHeld,
      currency: state.currency,
      idempotencyAction: 'refund',
      paymentIntentId: state.paymentIntentId,
    },
  ]
}

/**
 * complaint_period_ended is passed through in the same step: nothing can happen
 * between the window closing and the transfer, so persisting it as a resting
 * state would only add a crash window. Its timestamp is still stamped.
 */
function releaseAfterComplaintPeriod(state: OnlineState, now: Date, extra: readonly Effect[]): Step {
  const ended = enter(state, 'complaint_period_ended', now)
  return releaseToSeller(ended, now, extra)
}

function releaseToSeller(state: OnlineState, now: Date, extra: readonly Effect[]): Step {
  const next = enter(state, 'funds_released', now, { amountReleased: sellerPayout(state) })
  return step(next, [...extra, ...releaseEffects(state)])
}

function refundToBuyer(state: OnlineState, now: Date, extra: readonly Effect[]): Step {
  const next = enter(state, 'payment_refunded', now, { amountRefunded: state.amountHeld })
  return step(next, [
    ...extra,
    ...refundEffects(state),
    { type: 'notify', template: 'payment_refunded', to: 'buyer' },
    { type: 'notify', template: 'payment_refunded', to: 'seller' },
  ])
}

/**
 * The money leaves escrow when the refund is decided (ledger and outbox in the
 * same commit); `refund_succeeded` from the provider then closes the case.
 */
function cancelWithPayment(state: OnlineState, now: Date): Step {
  const next = enter(state, 'cancelled_with_payment', now, { amountRefunded: state.amountHeld })
  return step(next, [
    { type: 'cancel_timer', timer: 'tracking_deadline' },
    ...refundEffects(state),
    { type: 'notify', template: 'cancelled_with_payment', to: 'buyer' },
    { type: 'notify', template: 'cancelled_with_payment', to: 'seller' },
  ])
}

function enterDelivered(state: OnlineState, now: Date, policy: OnlinePolicy): Step {
  const deadline = addSeconds(now, policy.complaintPeriodSeconds)
  const next = enter(state, 'delivered', now, { complaintPeriodDeadline: deadline })
  return step(next, [
    { type: 'schedule', timer: 'complaint_window', at: deadline },
    { type: 'notify', template: 'delivered', to: 'buyer' },
    { type: 'notify', template: 'delivered', to: 'seller' },
  ])
}

// ---------------------------------------------------------------------------
// The table

/**
 * Applies one event. Checks run in the order role → state → input, so a
 * client learns the most fundamental reason first. A refusal never carries a
 * next state: the caller must persist nothing.
 */
export function transition(
  state: OnlineState,
  event: OnlineEvent,
  actor: Actor,
  now: Date,
  policy: OnlinePolicy = defaultOnlinePolicy,
): TransitionResult {
  switch (event.type) {
    case 'join': {
      if (state.status !== 'created') {
        return refuse(state.status === 'cancelled' || state.status === 'rejected' ? 'already_cancelled' : 'already_joined')
      }
      if (actor.kind === state.creatorRole) return refuse('cannot_join_own_transaction')
      if (actor.kind !== 'counterparty') return refuse('forbidden')
      return step(enter(state, 'joined', now), [{ type: 'notify', template: 'joined', to: state.creatorRole }])
    }

    case 'reject': {
      if (state.status !== 'created') {
        return refuse(state.status === 'cancelled' || state.status === 'rejected' ? 'already_cancelled' : 'already_joined')
      }
      // The creator withdraws with `cancel`; rejecting is the invitee's answer.
      if (actor.kind !== 'counterparty') return refuse('forbidden')
      return step(enter(state, 'rejected', now), [{ type: 'notify', template: 'rejected', to: state.creatorRole }])
    }

    case 'cancel': {
      switch (state.status) {
        case 'created':
          if (actor.kind !== state.creatorRole) return refuse(notRole(state.creatorRole))
          return step(enter(state, 'cancelled', now))
        case 'joined': {
          if (actor.kind !== 'buyer' && actor.kind !== 'seller') return refuse('forbidden')
          // Money may already be on its way (SEPA); the outcome decides first.
          if (state.isPaymentInProgress) return refuse('invalid_state')
          return step(enter(state, 'cancelled', now), [
            { type: 'notify', template: 'cancelled', to: otherParty(actor.kind) },
          ])
        }
        case 'paid':
          // Spec §1: the buyer cannot revoke a payment once authorised.
          if (actor.kind === 'buyer') return refuse('already_paid')
          if (actor.kind !== 'seller') return refuse('not_seller')
          return cancelWithPayment(state, now)
        default:
          if (actor.kind === 'buyer' && paidAlready(state.status) === 'already_paid') return refuse('already_paid')
          return refuse(wrongState(state.status))
      }
    }

    case 'set_payment_method': {
      if (actor.kind !== 'buyer') return refuse('not_buyer')
      if (state.status !== 'joined') return refuse(paidAlready(state.status))
      if (state.isPaymentInProgress) return refuse('payment_method_already_set')
      if (!Number.isSafeInteger(event.charge) || event.charge < 0 || event.chargeCalculatorVersion === '') {
        return refuse('validation_failed')
      }
      return step({
        ...state,
        paymentMethod: event.paymentMethod,
        charge: event.charge,
        chargeCalculatorVersion: event.chargeCalculatorVersion,
      })
    }

    case 'payment_started': {
      if (actor.kind !== 'buyer' && actor.kind !== 'system') return refuse('not_buyer')
      if (state.status !== 'joined') return refuse(paidAlready(state.status))
      if (state.paymentMethod === null) return refuse('invalid_payment_method')
      if (event.paymentIntentId === '') return refuse('validation_failed')
      if (state.isPaymentInProgress) {
        // The browser's confirmation and the provider's webhook both report it.
        if (state.paymentIntentId === event.paymentIntentId) return noop(state)
        return refuse('invalid_state')
      }
      return step({ ...state, isPaymentInProgress: true, paymentIntentId: event.paymentIntentId })
    }

    case 'payment_succeeded': {
      if (actor.kind !== 'system') return refuse('forbidden')
      // confirm_payment and the webhook race; whichever comes second is a no-op.
      if (state.amountHeld > 0 && state.paymentIntentId === event.paymentIntentId) return noop(state)
      // Any other refusal below means money arrived that this transaction will
      // not hold: the server must refund that payment at the provider.
      if (state.status !== 'joined') return refuse(paidAlready(state.status))
      if (event.amount !== state.price + state.charge) return refuse('incorrect_charge')
      const deadline = addSeconds(now, policy.trackingDeadlineSeconds)
      const next = enter(state, 'paid', now, {
        amountHeld: event.amount,
        paymentIntentId: event.paymentIntentId,
        isPaymentInProgress: false,
        trackingDeadline: deadline,
      })
      return step(next, [
        ...holdEffects(state, event.amount),
        { type: 'schedule', timer: 'tracking_deadline', at: deadline },
        { type: 'notify', template: 'paid', to: 'seller' },
        { type: 'notify', template: 'paid', to: 'buyer' },
      ])
    }

    case 'payment_failed': {
      if (actor.kind !== 'system') return refuse('forbidden')
      // Only news about the payment we are waiting for matters; a failed card
      // attempt is already shown in the browser, and late news changes nothing.
      if (state.status === 'joined' && state.isPaymentInProgress && state.paymentIntentId === event.paymentIntentId) {
        return step({ ...state, isPaymentInProgress: false }, [{ type: 'notify', template: 'payment_failed', to: 'buyer' }])
      }
      return noop(state)
    }

    case 'refund_succeeded': {
      if (actor.kind !== 'system') return refuse('forbidden')
      if (state.status === 'payment_refunded') return noop(state)
      if (state.status !== 'cancelled_with_payment') return refuse('invalid_state')
      return step(enter(state, 'payment_refunded', now), [{ type: 'notify', template: 'payment_refunded', to: 'buyer' }])
    }

    case 'track': {
      if (actor.kind !== 'seller') return refuse('not_seller')
      if (state.status !== 'paid') {
        if (state.tracking !== null && !isTerminal(state.status)) return refuse('tracking_already_added')
        return refuse(wrongState(state.status))
      }
      if (reached(now, state.trackingDeadline)) return refuse('tracking_details_deadline_expired')
      if (isBlank(event.carrier) || isBlank(event.trackingCode)) return refuse('validation_failed')
      const next = enter(state, 'tracked', now, {
        tracking: { carrier: event.carrier.trim(), trackingCode: event.trackingCode.trim() },
      })
      return step(next, [
        { type: 'cancel_timer', timer: 'tracking_deadline' },
        { type: 'notify', template: 'tracked', to: 'buyer' },
      ])
    }

    case 'submit_order_issue': {
      if (actor.kind !== 'buyer') return refuse('not_buyer')
      if (state.status !== 'paid') return refuse(wrongState(state.status))
      if (isBlank(event.description)) return refuse('empty_complaint_description')
      return step({ ...state, orderIssue: { description: event.description.trim() } }, [
        { type: 'notify', template: 'order_issue', to: 'seller' },
      ])
    }

    case 'carrier_delivered': {
      if (actor.kind !== 'system') return refuse('forbidden')
      // Carriers repeat themselves and may report after the buyer confirmed.
      if (state.status !== 'tracked') return noop(state)
      return enterDelivered(state, now, policy)
    }

    case 'confirm_delivery': {
      if (actor.kind !== 'buyer' && actor.kind !== 'admin') return refuse('not_buyer')
      switch (state.status) {
        case 'tracked':
          return enterDelivered(state, now, policy)
        case 'delivered':
        case 'complained':
        case 'complaint_period_ended':
          return refuse('delivery_already_set')
        default:
          return refuse(wrongState(state.status))
      }
    }

    case 'complain': {
      // Spec §6: only the buyer may complain or dispute.
      if (actor.kind !== 'buyer') return refuse('not_buyer')
      switch (state.status) {
        case 'delivered':
          if (reached(now, state.complaintPeriodDeadline)) return refuse('complaint_period_expired')
          if (isBlank(event.description)) return refuse('empty_complaint_description')
          return step(enter(state, 'complained', now, { complaint: { description: event.description.trim() } }), [
            { type: 'cancel_timer', timer: 'complaint_window' },
            { type: 'notify', template: 'complained', to: 'seller' },
          ])
        case 'created':
        case 'joined':
        case 'paid':
        case 'tracked':
          return refuse('unconfirmed_delivery')
        case 'complained':
          return refuse('already_complained')
        case 'complaint_period_ended':
          return refuse('complaint_period_expired')
        default:
          return refuse(wrongState(state.status))
      }
    }

    case 'end_complaint_period': {
      if (actor.kind !== 'buyer') return refuse('not_buyer')
      switch (state.status) {
        case 'delivered':
          return releaseAfterComplaintPeriod(state, now, [{ type: 'cancel_timer', timer: 'complaint_window' }])
        case 'created':
        case 'joined':
        case 'paid':
        case 'tracked':
          return refuse('unconfirmed_delivery')
        case 'complained':
          return refuse('already_complained')
        default:
          return refuse(wrongState(state.status))
      }
    }

    case 'complaint_window_elapsed': {
      if (actor.kind !== 'system') return refuse('forbidden')
      // Re-checked under the row lock: a complaint that committed first wins.
      if (state.status !== 'delivered') return noop(state)
      if (state.complaintPeriodDeadline !== null && !reached(now, state.complaintPeriodDeadline)) {
        // Fired early (clock skew between nodes): put the timer back.
        return noop(state, [{ type: 'schedule', timer: 'complaint_window', at: state.complaintPeriodDeadline }])
      }
      return releaseAfterComplaintPeriod(state, now, [])
    }

    case 'accept_complaint': {
      if (actor.kind !== 'seller') return refuse('not_seller')
      if (state.status !== 'complained') return refuse(wrongState(state.status))
      return refundToBuyer(state, now, [])
    }

    case 'release_funds': {
      if (actor.kind !== 'admin') return refuse('not_admin')
      if (state.status !== 'complained' && state.status !== 'delivered' && state.status !== 'tracked') {
        return refuse(wrongState(state.status))
      }
      if (event.to !== 'buyer' && event.to !== 'seller') return refuse('validation_failed')
      const extra: Effect[] = state.status === 'delivered' ? [{ type: 'cancel_timer', timer: 'complaint_window' }] : []
      return event.to === 'seller' ? releaseToSeller(state, now, extra) : refundToBuyer(state, now, extra)
    }

    case 'tracking_deadline_elapsed': {
      if (actor.kind !== 'system') return refuse('forbidden')
      if (state.status !== 'paid') return noop(state)
      if (state.trackingDeadline !== null && !reached(now, state.trackingDeadline)) {
        return noop(state, [{ type: 'schedule', timer: 'tracking_deadline', at: state.trackingDeadline }])
      }
      return cancelWithPayment(state, now)
    }
  }
}

// ---------------------------------------------------------------------------
// Views for the status page and the list filters

/** Events people trigger; the rest come from timers and webhooks. */
export const userEventTypes = [
  'join',
  'reject',
  'cancel',
  'set_payment_method',
  'payment_started',
  'track',
  'submit_order_issue',
  'confirm_delivery',
  'complain',
  'end_complaint_period',
  'accept_complaint',
  'release_funds',
] as const satisfies readonly OnlineEventType[]
export type UserEventType = (typeof userEventTypes)[number]

// Well-formed inputs, so that only role and state decide what is offered.
function sampleEvents(type: UserEventType, state: OnlineState): OnlineEvent[] {
  switch (type) {
    case 'set_payment_method':
      return [{ type, paymentMethod: state.paymentMethod ?? 'card', charge: state.charge, chargeCalculatorVersion: state.chargeCalculatorVersion }]
    case 'payment_started':
      return [{ type, paymentIntentId: `${state.paymentIntentId ?? ''}sample` }]
    case 'track':
      return [{ type, carrier: 'sample', trackingCode: 'sample' }]
    case 'submit_order_issue':
    case 'complain':
      return [{ type, description: 'sample' }]
    case 'release_funds':
      return [
        { type, to: 'seller' },
        { type, to: 'buyer' },
      ]
    default:
      return [{ type }]
  }
}

/**
 * Exactly the actions this actor may take now, derived from `transition` itself
 * so the status page can never offer a button the server would refuse.
 */
export function availableActions(
  state: OnlineState,
  actor: Actor,
  now: Date,
  policy: OnlinePolicy = defaultOnlinePolicy,
): UserEventType[] {
  if (actor.kind === 'system') return []
  return userEventTypes.filter((type) =>
    sampleEvents(type, state).some((event) => {
      const result = transition(state, event, actor, now, policy)
      return result.ok && result.next !== state
    }),
  )
}

/**
 * Whose move it is: a party, the not-yet-joined counterparty, or nobody but
 * the system (timers, webhooks). null once the transaction is over.
 */
export function whoMustAct(state: OnlineState): Party | 'counterparty' | 'system' | null {
  switch (state.status) {
    case 'created':
      return 'counterparty'
    case 'joined':
      return state.isPaymentInProgress ? 'system' : 'buyer'
    case 'paid':
      return 'seller'
    case 'tracked':
      // The buyer confirms delivery (or the carrier reports it).
      return 'buyer'
    case 'delivered':
      // The buyer has the window to check the goods and complain.
      return 'buyer'
    case 'complained':
      return 'seller'
    case 'complaint_period_ended':
    case 'cancelled_with_payment':
      return 'system'
    default:
      return null
  }
}

export type TransactionFilter = 'active' | 'inputRequired' | 'waiting' | 'completed' | 'cancelled'

const cancelledStatuses: readonly OnlineStatus[] = ['rejected', 'cancelled', 'cancelled_with_payment', 'payment_refunded']

/** The list filters (spec §3): which of them this transaction falls under for a party. */
export function matchesFilter(state: OnlineState, role: Party, filter: TransactionFilter): boolean {
  const active = !isTerminal(state.status) && state.status !== 'cancelled_with_payment'
  switch (filter) {
    case 'active':
      return active
    case 'inputRequired':
      return active && whoMustAct(state) === role
    case 'waiting':
      return active && whoMustAct(state) !== role
    case 'completed':
      return state.status === 'funds_released'
    case 'cancelled':
      return cancelledStatuses.includes(state.status)
  }
}
