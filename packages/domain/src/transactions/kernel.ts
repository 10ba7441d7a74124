import type { CurrencyCode, PaymentMethod } from '../currencies.ts'
import type { LedgerEntryKind } from '../ledger-rules.ts'
import type { Chargeback, FraudWarning } from './chargeback.ts'
import type { Complaint } from './dispute-case.ts'

/**
 * What both transaction machines (online and face-to-face) share: who acts,
 * the effects a step asks for, the refusals, and the small helpers every
 * handler uses. The machines are pure: the caller loads the state, passes the
 * clock reading and the actor, and persists `next` with every effect in one
 * database transaction.
 */

export type Party = 'buyer' | 'seller'

/**
 * Who is acting. `buyer` / `seller` are the parties (the creator is whichever
 * one `state.creatorRole` names, so no separate creator flag is needed);
 * `counterparty` is a signed-in user who reached the transaction through its
 * join code or a guest's claim link and is not a party yet (join, claim,
 * reject); `admin` acts through the
 * admin calls; `system` is timers and provider or carrier webhooks;
 * `partner` is the partner client the transaction was made under, by its
 * API key: it may only call the sale off while nobody has paid
 * (docs/decisions/116-partner-creates-and-cancels.md).
 */
export interface Actor {
  readonly kind: Party | 'counterparty' | 'admin' | 'system' | 'partner'
}

export interface TransactionPolicy {
  readonly complaintPeriodSeconds: number
  readonly trackingDeadlineSeconds: number
  /** How long the seller has to answer a complaint before the case goes to an admin. */
  readonly caseResponseSeconds: number
}

/** COMPLAINT_PERIOD_SECONDS and TRACKING_DEADLINE_SECONDS defaults (DESIGN §5); CASE_RESPONSE_SECONDS 3 days (issue 32). */
export const defaultPolicy: TransactionPolicy = {
  complaintPeriodSeconds: 86_400,
  trackingDeadlineSeconds: 345_600,
  caseResponseSeconds: 259_200,
}

/**
 * The fields every transaction has, whatever its kind. For a face-to-face
 * sale `price`, `charge`, … are the deposit's terms; the remainder's live in
 * its own `pricing`.
 */
export interface CommonState<Status extends string> {
  readonly status: Status
  readonly creatorRole: Party
  readonly buyerId: string | null
  readonly sellerId: string | null
  /** Works while the transaction can be joined; cleared once it leaves `created`. */
  readonly joinCode: string | null
  /**
   * The code the counterparty joined with, kept for them alone: their replay
   * of the join (a lost answer, a second tap) finds the transaction by it
   * and is answered as the join was (docs/decisions/015).
   */
  readonly joinedWithCode: string | null
  readonly description: string
  readonly currency: CurrencyCode
  readonly price: number
  /** The buyer's fee on top of the price, as last quoted. */
  readonly charge: number
  /** Withheld from the seller's payout and kept as revenue. */
  readonly chargeSeller: number
  readonly chargeCalculatorVersion: number
  readonly paymentMethod: PaymentMethod | null
  readonly highValue: boolean
  /** An asynchronous payment (SEPA) is processing: no repricing, no cancelling. */
  readonly isPaymentInProgress: boolean
  /** The provider payment the money came (or is coming) from; refunds go back to it. */
  readonly paymentIntentId: string | null
  /** The buyer's complaint and the case it opened (dispute-case.ts). */
  readonly complaint: Complaint | null
  readonly complaintPeriodDeadline: Date | null
  /** Put into escrow by the payments. */
  readonly amountHeld: number
  /** Paid out to the seller. */
  readonly amountReleased: number
  /**
   * Returned to the buyer: out of escrow by a refund, and money the
   * transaction would not hold sent straight back (`returnedPaymentIntentIds`).
   */
  readonly amountRefunded: number
  /**
   * Payments that succeeded at the provider but were not held (the sale
   * cancelled meanwhile, already paid, another payment due, a wrong amount)
   * and were sent straight back: each is recorded once, however often its
   * success is reported.
   */
  readonly returnedPaymentIntentIds: readonly string[]
  /** The card dispute on one of the sale's payments, the latest if there were several (chargeback.ts). */
  readonly chargeback: Chargeback | null
  /** The provider's early fraud warning on one of its payments: no release until an admin clears it. */
  readonly fraudWarning: FraudWarning | null
  /** One per state, set when the state is entered (`joined`, `paid`, …). */
  readonly timestamps: { readonly [S in Status]: Date | null }
}

/** Symbolic accounts; the server qualifies them (`escrow:<tx>`, `seller:<user>`). */
export type LedgerAccount =
  | 'buyer_funding'
  | 'escrow'
  | 'seller'
  | 'revenue'
  | 'buyer_refund'
  /** Money a card dispute took back, until it closes (one per transaction, as escrow). */
  | 'disputed'
  /** What disputes on money no longer held cost the platform. */
  | 'chargeback_losses'
  /** The provider's fees on disputes. */
  | 'dispute_fees'

export interface StatePosting {
  readonly account: LedgerAccount
  /** Signed change of the account's balance, minor units. */
  readonly amount: number
  readonly currency: CurrencyCode
}

/** Which payment a hold came from: an online sale has one, a face-to-face sale two. */
export type HoldPart = 'payment' | 'deposit' | 'remainder'

export type TimerKind = 'tracking_deadline' | 'complaint_window' | 'case_response'

export type NotifyTemplate =
  | 'joined'
  | 'rejected'
  /** A listing's sale: a buyer started it (sent by its use case, not a step), the seller took the buyer, or turned them down. */
  | 'listing_purchased'
  | 'listing_accepted'
  | 'listing_rejected'
  | 'cancelled'
  /** The partner client the sale was made under called it off before anyone paid (decision 116). */
  | 'cancelled_by_partner'
  | 'paid'
  | 'payment_failed'
  | 'tracked'
  | 'order_issue'
  | 'delivered'
  | 'complained'
  | 'funds_released'
  | 'cancelled_with_payment'
  | 'payment_refunded'
  | 'deposit_paid'
  | 'deposit_accepted'
  | 'priced'
  | 'remainder_paid'
  | 'remainder_skipped'
  | 'handover_confirmed'
  /** The buyer confirmed first; the seller's confirmation (which starts the window) is still to come. */
  | 'handover_awaiting_seller'
  | 'cancelled_with_deposit'
  | 'deposit_refunded'
  /** A payment the sale would not hold went straight back (the e-mail says how much and why). */
  | 'payment_returned'
  /** A case: an offer to answer, an offer turned down, gone to an admin, settled on a split, decided by an admin. */
  | 'settlement_offered'
  | 'settlement_declined'
  | 'case_escalated'
  | 'case_settled'
  | 'case_decided'
  /** The buyer gave the seller more time to add the tracking details. */
  | 'tracking_deadline_extended'
  | 'receipt_confirmation_requested'
  /** A message of the conversation, quoted. */
  | 'message_received'
  /** A message from Pactum's team in a case, quoted: a case's requests are never optional (docs/decisions/101). */
  | 'case_message_received'
  /** A card dispute opened on the sale's payment, and its outcome; a recovery from the seller after a loss (docs/decisions/109). */
  | 'chargeback_opened'
  | 'chargeback_won'
  | 'chargeback_lost'
  | 'chargeback_recovered'

/**
 * Why a payment that succeeded at the provider was sent straight back
 * instead of held (docs/decisions/007-every-refund-is-on-the-sale.md "Every refund is on the sale"):
 * - `cancelled`: the sale was cancelled (or turned down) before the money arrived;
 * - `superseded`: not the payment the sale takes: another one replaced it or had already paid;
 * - `remainder_skipped`: a face-to-face remainder paid after the seller skipped it;
 * - `wrong_amount`: the payment the sale waits for, but for another amount than is due (the method, and so the fee, changed);
 * - `not_due`: nothing was due from that payment at that moment.
 */
export type ReturnReason = 'cancelled' | 'superseded' | 'remainder_skipped' | 'wrong_amount' | 'not_due'

export type Effect =
  | {
      readonly type: 'ledger'
      readonly entry: LedgerEntryKind
      /** Holds (one per part and transaction) and returned payments: which payment. */
      readonly part?: HoldPart
      /** Why, when the event's name does not say (a returned payment's reason); the event's name otherwise. */
      readonly reason?: string
      readonly postings: readonly StatePosting[]
    }
  /** Schedule (or move) the one timer of that kind for this transaction. */
  | { readonly type: 'schedule'; readonly timer: TimerKind; readonly at: Date }
  | { readonly type: 'cancel_timer'; readonly timer: TimerKind }
  | {
      readonly type: 'provider'
      /** `reverse_transfer` takes back from the seller's account part of what the release transferred. */
      readonly action: 'refund' | 'transfer' | 'reverse_transfer'
      readonly amount: number
      readonly currency: CurrencyCode
      /**
       * With the transaction id this makes the provider idempotency key, so it
       * names the one movement it stands for (`transfer`, `refund`,
       * `refund:deposit`, `refund-unheld:<payment>`): resending it can never
       * move money twice.
       */
      readonly idempotencyAction: string
      /** Refunds go back to this payment; transfers cite it as their source. */
      readonly paymentIntentId: string | null
    }
  | {
      readonly type: 'notify'
      readonly template: NotifyTemplate
      readonly to: Party
      /** A returned payment's e-mail says how much went back and why. */
      readonly returned?: { readonly amount: number; readonly reason: ReturnReason }
      /** The e-mail quotes the reason the admin gave with the decision. */
      readonly quotesReason?: boolean
      /** Text the e-mail quotes as written (a message of the conversation). */
      readonly quote?: string
    }
  /**
   * A line of the transaction's history beside the event's own: money that
   * moved without moving the state (a returned payment) is named there, with why.
   */
  | { readonly type: 'history'; readonly event: 'refund_unheld'; readonly reason: ReturnReason }
  /** The step is written to the history though it changes no state (a message of the conversation). */
  | { readonly type: 'audit' }

/** The HTTP status of a refusal, as in the API's error table. */
export type RefusalStatus = 400 | 403 | 404 | 409 | 429

/**
 * Every refusal, under the status the API answers it with (the same as in
 * the API's error table): 400 bad input, 403 wrong role, 404 an action the
 * transaction's kind does not have (as the API answers for a path of the
 * other kind), 409 wrong state, 429 a reminder to the other party asked
 * again too soon. Each code is named once, here.
 */
const refusalsByStatus = {
  400: [
    'validation_failed',
    'invalid_payment_method',
    'empty_complaint_description',
    'remainder_too_low',
    'split_not_price',
    'recovery_too_high',
  ],
  403: ['forbidden', 'not_buyer', 'not_seller', 'not_admin', 'cannot_join_own_transaction', 'cannot_answer_own_offer'],
  404: ['not_found'],
  409: [
    'not_accepted',
    'already_joined',
    'already_claimed',
    'already_cancelled',
    'already_paid',
    'payment_method_already_set',
    'tracking_already_added',
    'tracking_details_deadline_expired',
    'delivery_already_set',
    'unconfirmed_delivery',
    'already_complained',
    'complaint_period_expired',
    'funds_already_released',
    'incorrect_charge',
    'deposit_not_paid',
    'deposit_already_accepted',
    'deposit_payment_in_review',
    'price_already_set',
    'remainder_required',
    'remainder_already_skipped',
    'remainder_already_paid',
    'handover_already_confirmed',
    'not_paid',
    'payment_in_progress',
    'tracking_not_added',
    'not_complained',
    'deposit_not_accepted',
    'price_not_set',
    'offer_not_open',
    'case_already_escalated',
    'chargeback_open',
    'fraud_warning_open',
    'no_open_chargeback',
    'no_fraud_warning',
    'no_chargeback_loss',
  ],
  429: ['receipt_confirmation_requested_recently'],
} as const satisfies Record<RefusalStatus, readonly string[]>

export type RefusalCode = (typeof refusalsByStatus)[RefusalStatus][number]

export const refusalStatus: Readonly<Record<RefusalCode, RefusalStatus>> = Object.fromEntries(
  Object.entries(refusalsByStatus).flatMap(([status, codes]) => codes.map((code) => [code, Number(status) as RefusalStatus])),
) as Record<RefusalCode, RefusalStatus>

export type Refusal = { readonly ok: false; readonly code: RefusalCode; readonly status: RefusalStatus }
export type Step<S> = { readonly ok: true; readonly next: S; readonly effects: readonly Effect[] }
export type Result<S> = Step<S> | Refusal

export function refuse(code: RefusalCode): Refusal {
  return { ok: false, code, status: refusalStatus[code] }
}

export function step<S>(next: S, effects: readonly Effect[] = []): Step<S> {
  return { ok: true, next, effects }
}

/** Success that changes nothing: a repeated webhook, or a timer that lost a race. */
export function noop<S>(state: S, effects: readonly Effect[] = []): Step<S> {
  return { ok: true, next: state, effects }
}

/** The state entered, stamped at `now`; a transaction that leaves `created` can no longer be joined. */
export function enter<S extends CommonState<string>>(state: S, status: S['status'], now: Date, patch: Partial<S> = {}): S {
  return {
    ...state,
    ...patch,
    status,
    joinCode: status === 'created' ? state.joinCode : null,
    timestamps: { ...state.timestamps, [status]: now },
  }
}

const resolvingStatuses = ['funds_released', 'payment_refunded', 'cancelled_with_payment', 'cancelled_with_deposit']

/** What sits in escrow: held and not yet released or refunded, less what an open card dispute took out of it (chargeback.ts). */
export function heldInEscrow(state: CommonState<string>): number {
  const stamps = state.timestamps as Readonly<Record<string, Date | null>>
  if (resolvingStatuses.some((status) => stamps[status] != null)) return 0
  const chargeback = state.chargeback
  return state.amountHeld - (chargeback !== null && chargeback.closedAt === null && chargeback.froze ? chargeback.amount : 0)
}

export function otherParty(party: Party): Party {
  return party === 'buyer' ? 'seller' : 'buyer'
}

export function notRole(role: Party): RefusalCode {
  return role === 'buyer' ? 'not_buyer' : 'not_seller'
}

export function addSeconds(now: Date, seconds: number): Date {
  return new Date(now.getTime() + seconds * 1000)
}

export function reached(now: Date, deadline: Date | null): boolean {
  return deadline !== null && now.getTime() >= deadline.getTime()
}

/**
 * Why no action fits a transaction that is over (or whose refund is on its
 * way); null while it is still running. `cancelled` lists the kind's states
 * that end with the money back or none taken: refunded is over as a
 * cancellation is (DESIGN §5 has no other code for it). Every refusal names a
 * reason a client can act on: each handler says what is missing or what has
 * happened since, and this says that it has ended.
 */
export function endedReason<Status extends string>(status: Status, cancelled: readonly Status[]): RefusalCode | null {
  if (cancelled.includes(status)) return 'already_cancelled'
  return status === 'funds_released' ? 'funds_already_released' : null
}

export function isBlank(text: string): boolean {
  return text.trim() === ''
}

/** The same e-mail to both parties, the one it matters to most first. */
export function notifyBoth(template: NotifyTemplate, first: Party = 'buyer'): Effect[] {
  const quotesReason = template === 'case_decided' ? { quotesReason: true } : {}
  return [
    { type: 'notify', template, to: first, ...quotesReason },
    { type: 'notify', template, to: otherParty(first), ...quotesReason },
  ]
}
