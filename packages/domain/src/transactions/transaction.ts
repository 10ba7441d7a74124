import { type F2fEvent, transitionF2f } from './f2f-transaction.ts'
import type { F2fState } from './f2f-state.ts'
import { type Actor, defaultPolicy, heldInEscrow, type Result, refuse, type TransactionPolicy } from './kernel.ts'
import { type OnlineEvent, transitionOnline } from './online-transaction.ts'
import type { OnlineState } from './online-state.ts'

export { allStatuses, isTerminal, statusesByKind, terminalStatusesByKind, type TransactionKind } from './statuses.ts'

/**
 * Both kinds behind one entry point, so that the server has one apply path:
 * whatever the kind, a change is `transition(state, event, actor, now)` and
 * its effects.
 */

export type TransactionState = OnlineState | F2fState
export type TransactionEvent = OnlineEvent | F2fEvent
export type TransactionStatus = TransactionState['status']

/**
 * Applies one event to a transaction of either kind. The events of the two
 * kinds share names where they mean the same (join, cancel, complain, …). An
 * event of the other kind (an admin's confirm_delivery on a face-to-face
 * sale) is answered 404 `not_found`, as the API answers a path of the other
 * kind: this transaction has no such action.
 */
export function transition(
  state: TransactionState,
  event: TransactionEvent,
  actor: Actor,
  now: Date,
  policy: TransactionPolicy = defaultPolicy,
): Result<TransactionState> {
  if (state.kind === 'online') {
    return isOnlineEvent(event) ? transitionOnline(state, event, actor, now, policy) : refuse('not_found')
  }
  return isF2fEvent(event) ? transitionF2f(state, event, actor, now, policy) : refuse('not_found')
}

// The two event unions overlap in type names but not always in shape (a
// face-to-face cancel carries a description); these guards only tell the
// shape apart where it differs.
function isOnlineEvent(event: TransactionEvent): event is OnlineEvent {
  if (event.type === 'cancel') return !('description' in event)
  if (event.type === 'payment_intent_opened') return !('part' in event)
  return !f2fOnlyEvents.has(event.type)
}

function isF2fEvent(event: TransactionEvent): event is F2fEvent {
  if (event.type === 'cancel') return 'description' in event
  if (event.type === 'payment_intent_opened') return 'part' in event
  return !onlineOnlyEvents.has(event.type)
}

const f2fOnlyEvents = new Set<string>(['accept_deposit', 'set_price', 'skip_remainder', 'confirm_handover'])
const onlineOnlyEvents = new Set<string>([
  'track',
  'submit_order_issue',
  'carrier_in_transit',
  'carrier_delivered',
  'confirm_delivery',
  'tracking_deadline_elapsed',
  'extend_tracking_deadline',
  'request_receipt_confirmation',
])

/** What sits in escrow right now: held and not yet released or refunded, less what an open card dispute took (chargeback.ts). */
export function escrowBalance(state: TransactionState): number {
  return heldInEscrow(state)
}
