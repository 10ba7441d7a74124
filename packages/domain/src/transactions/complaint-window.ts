import { caseHandlers } from './case-handlers.ts'
import { type Complaint, type ComplaintReason, isComplaintReason } from './dispute-case.ts'
import {
  addSeconds,
  type Actor,
  type CommonState,
  type Effect,
  enter,
  isBlank,
  noop,
  reached,
  type RefusalCode,
  refuse,
  type Result,
  step,
  type TransactionPolicy,
} from './kernel.ts'
import type { DisputedMoney } from './settlement.ts'

/**
 * The complaint window and its end, alike in both kinds once it is open
 * (online: delivered; face-to-face: after the handover). The buyer may
 * complain or end the period; the timer releases the money when it passes;
 * the seller may accept a complaint. Each kind names its window and its two
 * ways of settling, and takes these handlers into its table.
 */

type Common = CommonState<string>

export interface ComplaintWindow<S extends Common> {
  /** The state the window runs in. */
  readonly isOpen: (state: S) => boolean
  readonly ended: (status: S['status']) => RefusalCode | null
  readonly releaseToSeller: (state: S, now: Date, extra: readonly Effect[]) => Result<S>
  readonly refundToBuyer: (state: S, now: Date, extra: readonly Effect[]) => Result<S>
  /** What a case is about, in money (a split's price and fees). */
  readonly disputed: (state: S) => DisputedMoney
}

const stopTimer: Effect = { type: 'cancel_timer', timer: 'complaint_window' }

/** complain / end_complaint_period outside the window. */
function outsideWindow<S extends Common>(window: ComplaintWindow<S>, state: S): RefusalCode {
  if (state.status === 'complained') return 'already_complained'
  if (state.status === 'complaint_period_ended') return 'complaint_period_expired'
  return window.ended(state.status) ?? 'unconfirmed_delivery'
}

/**
 * complaint_period_ended is passed through in the same step: nothing can happen
 * between the window closing and the transfer, so persisting it as a resting
 * state would only add a crash window. Its timestamp is still stamped.
 */
function releaseAfterComplaintPeriod<S extends Common>(
  window: ComplaintWindow<S>,
  state: S,
  now: Date,
  extra: readonly Effect[],
): Result<S> {
  return window.releaseToSeller(enter(state, 'complaint_period_ended' as S['status'], now), now, extra)
}

export function complaintHandlers<S extends Common>(window: ComplaintWindow<S>) {
  return {
    ...caseHandlers(window),

    /** Opens the case: the seller's response window starts (issue 32). */
    complain: (
      state: S,
      event: { readonly description: string; readonly reason?: ComplaintReason },
      actor: Actor,
      now: Date,
      policy: TransactionPolicy,
    ): Result<S> => {
      // Spec §6: only the buyer may complain or dispute.
      if (actor.kind !== 'buyer') return refuse('not_buyer')
      if (!window.isOpen(state)) return refuse(outsideWindow(window, state))
      if (reached(now, state.complaintPeriodDeadline)) return refuse('complaint_period_expired')
      if (isBlank(event.description)) return refuse('empty_complaint_description')
      const reason = event.reason ?? 'other'
      if (!isComplaintReason(reason)) return refuse('validation_failed')
      const responseDeadline = addSeconds(now, policy.caseResponseSeconds)
      const complaint: Complaint = { description: event.description.trim(), reason, responseDeadline, escalatedAt: null, offers: [] }
      return step(enter(state, 'complained' as S['status'], now, { complaint } as Partial<S>), [
        stopTimer,
        { type: 'schedule', timer: 'case_response', at: responseDeadline },
        { type: 'notify', template: 'complained', to: 'seller' },
      ])
    },

    end_complaint_period: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'buyer') return refuse('not_buyer')
      if (!window.isOpen(state)) return refuse(outsideWindow(window, state))
      return releaseAfterComplaintPeriod(window, state, now, [stopTimer])
    },

    complaint_window_elapsed: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'system') return refuse('forbidden')
      // Re-checked under the row lock: a complaint that committed first wins.
      if (!window.isOpen(state)) return noop(state)
      if (state.complaintPeriodDeadline !== null && !reached(now, state.complaintPeriodDeadline)) {
        // Fired early (clock skew between nodes): put the timer back.
        return noop(state, [{ type: 'schedule', timer: 'complaint_window', at: state.complaintPeriodDeadline }])
      }
      return releaseAfterComplaintPeriod(window, state, now, [])
    },

    accept_complaint: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'seller') return refuse('not_seller')
      if (state.status !== 'complained') return refuse(window.ended(state.status) ?? 'not_complained')
      return window.refundToBuyer(state, now, [])
    },
  }
}
