import { type Actor, type CommonState, enter, refuse, type Result, step } from './kernel.ts'

/**
 * A sale bought from a seller's listing. The buyer creates it (and so is its
 * creator and a party at once); the listing's owner is already the seller but
 * has not accepted the buyer yet. It rests in `created` until the seller
 * accepts (→ `joined`, the ordinary path from there on) or rejects
 * (→ `rejected`, terminal). It has no join code: nobody else can join it.
 */

type Common = CommonState<string>

/** The state just created by its machine, turned into a purchase from `sellerId`'s listing. */
export function boughtFromListing<S extends Common>(created: S, sellerId: string): S {
  return { ...created, creatorRole: 'buyer', sellerId, joinCode: null }
}

/** Both parties are known but the seller has not accepted: only a listing's sale rests like this. */
export function awaitsSellerAcceptance(state: Common): boolean {
  return state.status === 'created' && state.buyerId !== null && state.sellerId !== null
}

function notAwaiting(state: Common) {
  if (state.status === 'cancelled' || state.status === 'rejected') return refuse('already_cancelled')
  return refuse(state.status === 'created' ? 'not_found' : 'already_joined')
}

/** The seller takes the buyer: from here on it is an ordinary joined transaction. */
export function acceptListing<S extends Common>(state: S, actor: Actor, now: Date): Result<S> {
  if (actor.kind !== 'seller') return refuse('not_seller')
  if (!awaitsSellerAcceptance(state)) return notAwaiting(state)
  return step(enter(state, 'joined', now), [{ type: 'notify', template: 'listing_accepted', to: 'buyer' }])
}

/** The seller turns the buyer down: the transaction ends, no money was taken. */
export function rejectListing<S extends Common>(state: S, actor: Actor, now: Date): Result<S> {
  if (actor.kind !== 'seller') return refuse('not_seller')
  if (!awaitsSellerAcceptance(state)) return notAwaiting(state)
  return step(enter(state, 'rejected', now), [{ type: 'notify', template: 'listing_rejected', to: 'buyer' }])
}
