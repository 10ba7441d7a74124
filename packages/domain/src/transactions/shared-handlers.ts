import type { CurrencyCode, PaymentMethod } from '../currencies.ts'
import { isChargeCalculatorVersion } from '../fees.ts'
import { isHighValue } from '../high-value.ts'
import {
  type Actor,
  type CommonState,
  type Effect,
  enter,
  otherParty,
  type Party,
  type RefusalCode,
  type Result,
  refuse,
  step,
} from './kernel.ts'
import type { CaseEvent } from './case-handlers.ts'
import type { ChargebackEvent } from './chargeback.ts'
import type { PostMessageEvent } from './conversation.ts'
import type { ComplaintReason } from './dispute-case.ts'

/**
 * The steps that read the same in both machines: joining, rejecting, the
 * creator's edit before anyone joined, and the buyer's choice of payment
 * method. Each kind calls them from its own table.
 */

/**
 * A guest's claim: the person invited by e-mail, holding the link's secret,
 * takes the role the invitation named. Unlike a join it names the role,
 * because a partner's transaction may invite both parties.
 */
export interface ClaimEvent {
  readonly type: 'claim'
  readonly role: Party
  readonly userId: string
}

export interface JoinEvent {
  readonly type: 'join'
  /** Becomes the party the creator left open. */
  readonly userId: string
}

/** The offer's terms as the caller quoted them with fees.ts (price, fee, method). */
export interface QuotedTerms {
  readonly price: number
  readonly currency: CurrencyCode
  readonly charge: number
  readonly chargeSeller: number
  readonly chargeCalculatorVersion: number
  readonly paymentMethod: PaymentMethod | null
}

export interface UpdateEvent {
  readonly type: 'update'
  readonly description?: string
  readonly terms?: QuotedTerms
}

export interface SetPaymentMethodEvent {
  readonly type: 'set_payment_method'
  readonly paymentMethod: PaymentMethod
  /** Computed by the caller with fees.ts for this price, currency and method. */
  readonly charge: number
  readonly chargeCalculatorVersion: number
}

/**
 * The events both kinds take in the same shape. Each kind's union adds its
 * own (its cancel and payment opening differ in shape); the two tables answer
 * these through the shared handlers or in their own way.
 */
export type CommonEvent =
  | JoinEvent
  | ClaimEvent
  | { readonly type: 'reject' }
  /** The seller takes (or turns down) the buyer of a listing's sale. */
  | { readonly type: 'accept_listing' }
  | { readonly type: 'reject_listing' }
  | UpdateEvent
  | SetPaymentMethodEvent
  | { readonly type: 'payment_started'; readonly paymentIntentId: string }
  | { readonly type: 'payment_succeeded'; readonly paymentIntentId: string; readonly amount: number }
  | { readonly type: 'payment_failed'; readonly paymentIntentId: string }
  /** The provider settled a refund; `paymentIntentId` is the payment it went back to, when the provider names it. */
  | { readonly type: 'refund_succeeded'; readonly paymentIntentId?: string }
  /** Opens a case; `reason` is `other` when left out (clients before issue 32). */
  | { readonly type: 'complain'; readonly description: string; readonly reason?: ComplaintReason }
  | CaseEvent
  | ChargebackEvent
  | PostMessageEvent
  | { readonly type: 'end_complaint_period' }
  | { readonly type: 'complaint_window_elapsed' }
  | { readonly type: 'accept_complaint' }
  | { readonly type: 'release_funds'; readonly to: Party }

type Common = CommonState<string>

function creatorId(state: Common): string | null {
  return state.creatorRole === 'seller' ? state.sellerId : state.buyerId
}

function notJoinable(state: Common) {
  return refuse(state.status === 'cancelled' || state.status === 'rejected' ? 'already_cancelled' : 'already_joined')
}

function openPartyId(state: Common): string | null {
  return state.creatorRole === 'seller' ? state.buyerId : state.sellerId
}

/**
 * Open to a join (and to the creator's edits): `created`, with the other
 * party still to come. Not a listing's sale awaiting its seller, nor a
 * partner's sale whose code was used before its invited party claimed.
 */
function joinable(state: Common): boolean {
  return state.status === 'created' && openPartyId(state) === null
}

export function join<S extends Common>(state: S, event: JoinEvent, actor: Actor, now: Date): Result<S> {
  if (!joinable(state)) return notJoinable(state)
  if (actor.kind === state.creatorRole || event.userId === creatorId(state)) return refuse('cannot_join_own_transaction')
  if (actor.kind !== 'counterparty') return refuse('forbidden')
  if (event.userId === '') return refuse('validation_failed')
  const party: Partial<Common> = state.creatorRole === 'seller' ? { buyerId: event.userId } : { sellerId: event.userId }
  const joined = { ...party, joinedWithCode: state.joinCode }
  // A partner's sale whose invited party has not claimed yet: the joiner
  // takes the open place and the code is spent, but the sale waits in
  // `created` until the claim, which joins it (and tells the joiner).
  if (creatorId(state) === null) return step({ ...state, ...joined, joinCode: null } as S)
  return step(enter(state, 'joined', now, joined as Partial<S>), [{ type: 'notify', template: 'joined', to: state.creatorRole }])
}

/**
 * The invited party takes their place. Once both parties are known the
 * transaction is joined, exactly as after a join; a partner's transaction
 * waits in `created` for its second claim. The same person cannot hold
 * both roles.
 */
export function claim<S extends Common>(state: S, event: ClaimEvent, actor: Actor, now: Date): Result<S> {
  if (state.status !== 'created') return notJoinable(state)
  if (actor.kind !== 'counterparty') return refuse('forbidden')
  if (event.userId === '') return refuse('validation_failed')
  const slot = event.role === 'buyer' ? 'buyerId' : 'sellerId'
  const other = otherParty(event.role)
  const otherId = other === 'buyer' ? state.buyerId : state.sellerId
  if (state[slot] !== null) return refuse('already_claimed')
  if (otherId === event.userId) return refuse('cannot_join_own_transaction')
  const party = { [slot]: event.userId } as Partial<S>
  if (otherId === null) return step({ ...state, ...party })
  return step(enter(state, 'joined', now, party), [{ type: 'notify', template: 'joined', to: other }])
}

/**
 * The partner client the sale was made under calls it off (issue 35): only
 * while nobody has paid (`paid` otherwise) and no payment is on its way
 * (`inProgress`, the kind's own word for it). Every party who has taken
 * their place hears of it, as the other party of a cancelling party does,
 * in words that name the marketplace rather than the other party.
 */
export function cancelByPartner<S extends Common>(
  state: S,
  now: Date,
  refusals: { readonly paid: RefusalCode; readonly inProgress: RefusalCode },
  patch: Partial<S> = {},
): Result<S> {
  if (state.status !== 'created' && state.status !== 'joined') return refuse(refusals.paid)
  if (state.isPaymentInProgress) return refuse(refusals.inProgress)
  const present = (['buyer', 'seller'] as const).filter((party) => (party === 'buyer' ? state.buyerId : state.sellerId) !== null)
  return step(
    enter(state, 'cancelled', now, patch),
    present.map((to): Effect => ({ type: 'notify', template: 'cancelled_by_partner', to })),
  )
}

export function reject<S extends Common>(state: S, actor: Actor, now: Date): Result<S> {
  if (!joinable(state)) return notJoinable(state)
  // The creator withdraws with a cancel; rejecting is the invitee's answer.
  if (actor.kind !== 'counterparty') return refuse('forbidden')
  return step(enter(state, 'rejected', now), [{ type: 'notify', template: 'rejected', to: state.creatorRole }])
}

/** The creator changes the offer while nobody has joined; a new price or currency is re-judged for high value. */
export function update<S extends Common>(state: S, event: UpdateEvent, actor: Actor): Result<S> {
  if (actor.kind !== state.creatorRole) return refuse('forbidden')
  // A listing's sale keeps the listing's terms: the buyer who created it cannot change them.
  if (!joinable(state)) return notJoinable(state)
  if (event.description !== undefined && event.description.trim() === '') return refuse('validation_failed')
  const terms = event.terms
  if (terms && (!Number.isSafeInteger(terms.charge) || terms.charge < 0 || !isChargeCalculatorVersion(terms.chargeCalculatorVersion))) {
    return refuse('validation_failed')
  }
  return step({
    ...state,
    ...(event.description !== undefined ? { description: event.description.trim() } : {}),
    ...(terms ? { ...terms, highValue: isHighValue(terms.price, terms.currency) } : {}),
  })
}

/**
 * The buyer picks (or changes) the method of the payment due in `payableStatus`
 * (online: the payment; face-to-face: the deposit), repriced by the caller.
 */
export function setPaymentMethod<S extends Common>(
  state: S,
  event: SetPaymentMethodEvent,
  actor: Actor,
  refusalAfter: (status: S['status']) => Result<S>,
): Result<S> {
  if (actor.kind !== 'buyer') return refuse('not_buyer')
  if (state.status !== 'joined') return refusalAfter(state.status)
  if (state.isPaymentInProgress) return refuse('payment_method_already_set')
  if (!Number.isSafeInteger(event.charge) || event.charge < 0 || !isChargeCalculatorVersion(event.chargeCalculatorVersion)) {
    return refuse('validation_failed')
  }
  return step({
    ...state,
    paymentMethod: event.paymentMethod,
    charge: event.charge,
    chargeCalculatorVersion: event.chargeCalculatorVersion,
  })
}
