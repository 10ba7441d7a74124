import { chargeCalculatorVersion, minimumPrice } from '../fees.ts'
import type { F2fEvent } from './f2f-transaction.ts'
import type { F2fState } from './f2f-state.ts'
import { type Actor, defaultPolicy, type TransactionPolicy } from './kernel.ts'
import type { OnlineEvent } from './online-transaction.ts'
import type { OnlineState } from './online-state.ts'
import type { CommonEvent } from './shared-handlers.ts'
import { openOffer } from './dispute-case.ts'
import { disputed as f2fDisputed } from './f2f-rules.ts'
import { disputed as onlineDisputed } from './online-rules.ts'
import { type TransactionEvent, type TransactionState, transition } from './transaction.ts'

/**
 * What a person may do next, named as the API paths name the actions
 * (`pay`, `complain_with_description`, `pay_remainder`, …; `update` is the
 * creator's PATCH of the transaction). Derived from
 * `transition` itself with well-formed sample inputs, so only role and state
 * decide, and the web can never offer a step the server would refuse.
 */

/** Offered alike by both kinds, from the shared handlers: before anyone pays (handler-table.ts), and the settlement (complaint-window.ts, release_funds). */
const openingActions = ['join', 'reject', 'accept_listing_transaction', 'reject_listing_transaction', 'update'] as const
const settlingActions = [
  'end_complaint_period',
  'accept_complaint',
  'propose_settlement',
  'accept_settlement',
  'decline_settlement',
  'escalate_case',
  'release_funds',
  'decide',
] as const

export const onlineActions = [
  ...openingActions,
  'cancel',
  'set_payment_method',
  'pay',
  'extend_tracking_deadline',
  'track',
  'submit_order_issue',
  'confirm_delivery',
  'request_receipt_confirmation',
  'complain_with_description',
  ...settlingActions,
] as const
export type OnlineAction = (typeof onlineActions)[number]

export const f2fActions = [
  ...openingActions,
  'cancel_with_description',
  'set_deposit_payment_method',
  'pay_deposit',
  'accept_deposit',
  'set_price',
  'skip_remainder',
  'pay_remainder',
  'confirm_handover',
  'complain',
  ...settlingActions,
] as const
export type F2fAction = (typeof f2fActions)[number]

export type TransactionAction = OnlineAction | F2fAction

/**
 * Offered beside the state machine's actions, not derived from it: the
 * creator's e-mail invitation sent again with a new link. The view adds it
 * while the creator has an unclaimed invitation on a sale still open to it,
 * so the web shows the button from `available_actions` like any other.
 */
export const invitationActions = ['resend_invitation'] as const
export type InvitationAction = (typeof invitationActions)[number]

// Never a real user's id, so a sample join is never taken for the creator's own.
const sampleUser = '\u0000sample'
const sampleIntent = '\u0000sample'
const sampleOffer = '\u0000sample'

/** The price a case is about, for a sample split that is always whole. */
function disputedPrice(state: TransactionState): number {
  return state.kind === 'online' ? onlineDisputed(state).price : f2fDisputed(state).price
}

/** The actions both kinds take with events of the same shape (CommonEvent), so with the same samples. */
const commonActions = [
  'accept_listing_transaction',
  'reject_listing_transaction',
  'join',
  'set_payment_method',
  'set_deposit_payment_method',
  'complain_with_description',
  'complain',
  'release_funds',
  'propose_settlement',
  'accept_settlement',
  'decline_settlement',
  'decide',
] as const satisfies readonly TransactionAction[]
type CommonAction = (typeof commonActions)[number]

function isCommonAction(action: TransactionAction): action is CommonAction {
  return (commonActions as readonly string[]).includes(action)
}

function commonSamples(action: CommonAction, state: TransactionState): CommonEvent[] {
  switch (action) {
    case 'accept_listing_transaction':
      return [{ type: 'accept_listing' }]
    case 'reject_listing_transaction':
      return [{ type: 'reject_listing' }]
    case 'join':
      return [{ type: 'join', userId: sampleUser }]
    // Named apart, taken alike: the one payment method of each kind (online the payment's, face-to-face the deposit's), and the complaint.
    case 'set_payment_method':
    case 'set_deposit_payment_method':
      return [
        {
          type: 'set_payment_method',
          paymentMethod: state.paymentMethod ?? 'card',
          charge: state.charge,
          chargeCalculatorVersion: state.chargeCalculatorVersion,
        },
      ]
    case 'complain_with_description':
    case 'complain':
      return [{ type: 'complain', description: 'sample' }]
    case 'propose_settlement':
      return [{ type: 'propose_settlement', offerId: sampleOffer, refundToBuyer: 0, releaseToSeller: disputedPrice(state), note: '' }]
    // An answer is offered for the open offer only: its id is the sample.
    case 'accept_settlement':
      return [{ type: 'accept_settlement', offerId: openOffer(state.complaint)?.id ?? sampleOffer }]
    case 'decline_settlement':
      return [{ type: 'decline_settlement', offerId: openOffer(state.complaint)?.id ?? sampleOffer }]
    case 'decide':
      return [{ type: 'decide', refundToBuyer: 0, releaseToSeller: disputedPrice(state) }]
    case 'release_funds':
      return [
        { type: 'release_funds', to: 'seller' },
        { type: 'release_funds', to: 'buyer' },
      ]
  }
}

function onlineSamples(action: OnlineAction, state: OnlineState): OnlineEvent[] {
  if (isCommonAction(action)) return commonSamples(action, state)
  switch (action) {
    case 'pay':
      return [{ type: 'payment_intent_opened', paymentIntentId: sampleIntent }]
    case 'track':
      return [{ type: 'track', carrier: 'sample', trackingCode: 'sample' }]
    case 'submit_order_issue':
      return [{ type: 'submit_order_issue', description: 'sample' }]
    case 'extend_tracking_deadline':
      return [{ type: 'extend_tracking_deadline', hours: 24 }]
    default:
      return [{ type: action }]
  }
}

function f2fSamples(action: F2fAction, state: F2fState): F2fEvent[] {
  if (isCommonAction(action)) return commonSamples(action, state)
  switch (action) {
    case 'cancel_with_description':
      return [{ type: 'cancel', description: 'sample' }]
    case 'pay_deposit':
      return [{ type: 'payment_intent_opened', part: 'deposit', paymentIntentId: sampleIntent }]
    case 'pay_remainder':
      return [{ type: 'payment_intent_opened', part: 'remainder', paymentIntentId: sampleIntent }]
    case 'set_price':
      return [{ type: 'set_price', price: state.price + minimumPrice, charge: 0, chargeSeller: 0, chargeCalculatorVersion }]
    default:
      return [{ type: action }]
  }
}

function opens(state: TransactionState, events: readonly TransactionEvent[], actor: Actor, now: Date, policy: TransactionPolicy): boolean {
  return events.some((event) => {
    const result = transition(state, event, actor, now, policy)
    return result.ok && result.next !== state
  })
}

/** Exactly the actions this actor may take now; none for the system. */
export function availableActions(
  state: TransactionState,
  actor: Actor,
  now: Date,
  policy: TransactionPolicy = defaultPolicy,
): TransactionAction[] {
  if (actor.kind === 'system') return []
  if (state.kind === 'online') return onlineActions.filter((action) => opens(state, onlineSamples(action, state), actor, now, policy))
  return f2fActions.filter((action) => opens(state, f2fSamples(action, state), actor, now, policy))
}

/**
 * The admin console's steps on one sale, named as its buttons: the release
 * split by direction, since an open fraud warning refuses only the
 * seller's (decision 109), and the warning's clearing. Derived from
 * `transition` like the parties' actions, so the console never offers a
 * step the engine would refuse (a card dispute's freeze, a warning).
 */
export const adminSteps = ['confirm_delivery', 'decide', 'release_to_seller', 'refund_buyer', 'clear_fraud_warning'] as const
export type AdminStep = (typeof adminSteps)[number]

function adminSamples(step: AdminStep, state: TransactionState): TransactionEvent[] {
  switch (step) {
    case 'decide':
      return commonSamples('decide', state)
    case 'release_to_seller':
      return [{ type: 'release_funds', to: 'seller' }]
    case 'refund_buyer':
      return [{ type: 'release_funds', to: 'buyer' }]
    default:
      return [{ type: step }]
  }
}

export function availableAdminSteps(state: TransactionState, now: Date, policy: TransactionPolicy = defaultPolicy): AdminStep[] {
  return adminSteps.filter((step) => opens(state, adminSamples(step, state), { kind: 'admin' }, now, policy))
}
