import { type Actor, type CommonState, type Effect, otherParty, type Result, refuse, step } from './kernel.ts'

/**
 * A message in the transaction's conversation (issue 32), alike in both
 * kinds: the buyer and the seller write to each other once both take part,
 * and an admin joins once there is a case. The message itself is kept beside
 * the transaction (modules/disputes on the server); the machine decides who
 * may write, records the step in the history (with the attachment's hash the
 * caller gives as the reason) and says whom to e-mail.
 */

export interface PostMessageEvent {
  readonly type: 'post_message'
  /** The text the e-mail quotes (an attachment's file name when it has none). */
  readonly text: string
  /** False while the conversation's last e-mail is less than 10 minutes old (the caller counts). */
  readonly notify: boolean
}

export function postMessage<S extends CommonState<string>>(state: S, event: PostMessageEvent, actor: Actor): Result<S> {
  const told = (to: 'buyer' | 'seller'): Effect => ({ type: 'notify', template: 'message_received', to, quote: event.text })
  if (actor.kind === 'admin') {
    if (state.complaint === null) return refuse('not_complained')
    // Its own template: what Pactum's team asks in a case can decide who gets the money, so no one can turn it off.
    const fromTeam = (to: 'buyer' | 'seller'): Effect => ({ type: 'notify', template: 'case_message_received', to, quote: event.text })
    return step(state, [{ type: 'audit' }, ...(event.notify ? [fromTeam('buyer'), fromTeam('seller')] : [])])
  }
  if (actor.kind !== 'buyer' && actor.kind !== 'seller') return refuse('forbidden')
  // Nobody to write to until the other party joined.
  if (state.buyerId === null || state.sellerId === null) return refuse('not_accepted')
  return step(state, [{ type: 'audit' }, ...(event.notify ? [told(otherParty(actor.kind))] : [])])
}
