import type { ComplaintWindow } from './complaint-window.ts'
import { closeOpenOffer, type Complaint, isSplitOf, openOffer, type SettlementOffer, type Split } from './dispute-case.ts'
import {
  type Actor,
  type CommonState,
  type Effect,
  type NotifyTemplate,
  noop,
  notifyBoth,
  otherParty,
  type Party,
  reached,
  type RefusalCode,
  type Result,
  refuse,
  step,
} from './kernel.ts'
import { splitHeld } from './settlement.ts'

/**
 * A complaint's case, alike in both kinds (issue 32): while it is open
 * either party offers a split of the price, the other accepts or declines
 * it (a newer offer replaces the open one); either may take it to an admin,
 * and the response window's end takes it there by itself; an admin decides
 * full to either side or a split. An accepted offer or a decision moves the
 * money in one step.
 */

type Common = CommonState<string>

export interface ProposeSettlementEvent extends Split {
  readonly type: 'propose_settlement'
  readonly offerId: string
  readonly note: string
}

export type CaseEvent =
  | ProposeSettlementEvent
  | { readonly type: 'accept_settlement'; readonly offerId: string }
  | { readonly type: 'decline_settlement'; readonly offerId: string }
  | { readonly type: 'escalate_case' }
  | { readonly type: 'case_response_elapsed' }
  | ({ readonly type: 'decide' } & Split)

function asParty(actor: Actor): Party | null {
  return actor.kind === 'buyer' || actor.kind === 'seller' ? actor.kind : null
}

export function caseHandlers<S extends Common>(window: ComplaintWindow<S>) {
  /** Why there is no open case to act on. */
  const noCase = (state: S): RefusalCode => window.ended(state.status) ?? 'not_complained'

  const withComplaint = (state: S, complaint: Complaint): S => ({ ...state, complaint })

  /** Full to one side goes the way a full refund or release always goes; a split moves both parts at once. */
  const settle = (state: S, split: Split, now: Date, template: NotifyTemplate, told: readonly Effect[]): Result<S> => {
    if (split.releaseToSeller === 0) return window.refundToBuyer(state, now, told)
    if (split.refundToBuyer === 0) return window.releaseToSeller(state, now, told)
    return splitHeld(state, window.disputed(state), split, now, template, told)
  }

  /** The open offer `offerId` answered by the other party, or why not. */
  const answerable = (state: S, offerId: string, actor: Actor): SettlementOffer | RefusalCode => {
    const party = asParty(actor)
    if (party === null) return 'forbidden'
    if (state.status !== 'complained' || state.complaint === null) return noCase(state)
    const offer = openOffer(state.complaint)
    if (offer === null || offer.id !== offerId) return 'offer_not_open'
    if (offer.by === party) return 'cannot_answer_own_offer'
    return offer
  }

  const escalate = (state: S, complaint: Complaint, now: Date): Result<S> =>
    step(withComplaint(state, { ...complaint, escalatedAt: now }), notifyBoth('case_escalated'))

  return {
    propose_settlement: (state: S, event: ProposeSettlementEvent, actor: Actor, now: Date): Result<S> => {
      const party = asParty(actor)
      if (party === null) return refuse('forbidden')
      if (state.status !== 'complained' || state.complaint === null) return refuse(noCase(state))
      if (event.offerId === '' || state.complaint.offers.some((offer) => offer.id === event.offerId)) return refuse('validation_failed')
      if (!isSplitOf(event, window.disputed(state).price)) return refuse('split_not_price')
      const offer: SettlementOffer = {
        id: event.offerId,
        by: party,
        refundToBuyer: event.refundToBuyer,
        releaseToSeller: event.releaseToSeller,
        note: event.note.trim(),
        madeAt: now,
        outcome: 'open',
        answeredAt: null,
      }
      const offers = [...closeOpenOffer(state.complaint, 'replaced', now), offer]
      return step(withComplaint(state, { ...state.complaint, offers }), [
        { type: 'notify', template: 'settlement_offered', to: otherParty(party) },
      ])
    },

    accept_settlement: (state: S, event: { readonly offerId: string }, actor: Actor, now: Date): Result<S> => {
      const offer = answerable(state, event.offerId, actor)
      if (typeof offer === 'string') return refuse(offer)
      const complaint = state.complaint as Complaint
      const accepted = withComplaint(state, { ...complaint, offers: closeOpenOffer(complaint, 'accepted', now) })
      return settle(accepted, offer, now, 'case_settled', [])
    },

    decline_settlement: (state: S, event: { readonly offerId: string }, actor: Actor, now: Date): Result<S> => {
      const offer = answerable(state, event.offerId, actor)
      if (typeof offer === 'string') return refuse(offer)
      const complaint = state.complaint as Complaint
      return step(withComplaint(state, { ...complaint, offers: closeOpenOffer(complaint, 'declined', now) }), [
        { type: 'notify', template: 'settlement_declined', to: offer.by },
      ])
    },

    escalate_case: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (asParty(actor) === null) return refuse('forbidden')
      if (state.status !== 'complained' || state.complaint === null) return refuse(noCase(state))
      if (state.complaint.escalatedAt !== null) return refuse('case_already_escalated')
      return escalate(state, state.complaint, now)
    },

    case_response_elapsed: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'system') return refuse('forbidden')
      // Settled, decided or already with an admin meanwhile: nothing left to do.
      const complaint = state.complaint
      if (state.status !== 'complained' || complaint === null || complaint.escalatedAt !== null) return noop(state)
      if (complaint.responseDeadline !== null && !reached(now, complaint.responseDeadline)) {
        return noop(state, [{ type: 'schedule', timer: 'case_response', at: complaint.responseDeadline }])
      }
      return escalate(state, complaint, now)
    },

    decide: (state: S, event: Split, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'admin') return refuse('not_admin')
      if (state.status !== 'complained') return refuse(noCase(state))
      if (!isSplitOf(event, window.disputed(state).price)) return refuse('split_not_price')
      // A full outcome sends its own e-mails; the decision's (with the admin's reason) goes to both either way.
      const told = event.refundToBuyer === 0 || event.releaseToSeller === 0 ? notifyBoth('case_decided') : []
      return settle(state, event, now, 'case_decided', told)
    },
  }
}
