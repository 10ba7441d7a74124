import { guardMoney } from './chargeback.ts'
import { type Actor, type CommonState, defaultPolicy, refuse, type Result, type TransactionPolicy } from './kernel.ts'
import { type PostMessageEvent, postMessage } from './conversation.ts'
import { acceptListing, rejectListing } from './listing-sale.ts'
import { claim, type ClaimEvent, join, type JoinEvent, reject, update, type UpdateEvent } from './shared-handlers.ts'

/**
 * The shape both machines share: one handler per event type, looked up by the
 * event's type. Each kind writes its own table; this says what a table is, how
 * an event is applied to it, and which entries read the same in both.
 */

export type Handler<S, E extends { readonly type: string }, T extends E['type']> = (
  state: S,
  event: Extract<E, { type: T }>,
  actor: Actor,
  now: Date,
  policy: TransactionPolicy,
) => Result<S>

export type HandlerTable<S, E extends { readonly type: string }> = { [T in E['type']]: Handler<S, E, T> }

/**
 * A kind's transition function over its table. An event the table does not
 * have (only a cast can make one) is answered as the API answers a path of
 * the other kind: not found. Every handler runs inside the card-dispute and
 * fraud-warning guard (chargeback.ts), so no handler can release or refund
 * money a dispute froze, whatever its own checks.
 */
export function machine<S extends CommonState<string>, E extends { readonly type: string }>(handlers: HandlerTable<S, E>) {
  return (state: S, event: E, actor: Actor, now: Date, policy: TransactionPolicy = defaultPolicy): Result<S> => {
    const handler = handlers[event.type as E['type']] as Handler<S, E, E['type']> | undefined
    if (!handler) return refuse('not_found')
    return guardMoney(state, event.type, () => handler(state, event as Extract<E, { type: E['type'] }>, actor, now, policy))
  }
}

/**
 * The table entries neither kind words differently: before anyone pays,
 * joining, a guest's claim, the invitee's rejection, the seller's answer to a
 * listing's buyer and the creator's edit; and at any time, a message of the
 * conversation.
 */
export function openingHandlers<S extends CommonState<string>>() {
  return {
    join: (state: S, event: JoinEvent, actor: Actor, now: Date) => join(state, event, actor, now),
    claim: (state: S, event: ClaimEvent, actor: Actor, now: Date) => claim(state, event, actor, now),
    reject: (state: S, _event: unknown, actor: Actor, now: Date) => reject(state, actor, now),
    accept_listing: (state: S, _event: unknown, actor: Actor, now: Date) => acceptListing(state, actor, now),
    reject_listing: (state: S, _event: unknown, actor: Actor, now: Date) => rejectListing(state, actor, now),
    update: (state: S, event: UpdateEvent, actor: Actor) => update(state, event, actor),
    post_message: (state: S, event: PostMessageEvent, actor: Actor) => postMessage(state, event, actor),
  }
}
