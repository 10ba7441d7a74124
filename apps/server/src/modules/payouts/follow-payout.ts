import { type FollowedPayout, followPayout, type PayoutObservation } from '@pactum/domain/payouts'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { uuidV7 } from '../../ids.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { PayoutEvent } from './payout-event.ts'
import { payoutFailedMailQueue } from './payout-failed-mail.ts'
import { insertSellerPayout, lockSellerPayout, type SellerPayoutRow, updateSellerPayout } from './payouts-repository.ts'

export interface FollowPayoutDeps {
  jobs: JobQueue
  clock: Clock
}

/**
 * Applies one payout event to Pactum's record of the payout, inside the
 * database transaction that records the event as received (so a throw
 * makes the provider deliver it again). The domain decides what still
 * applies (`followPayout`: duplicates, older news, nothing after failed or
 * cancelled); a payout that failed with this event queues the seller's
 * e-mail in the same transaction, once.
 */
export async function followPayoutEvent(deps: FollowPayoutDeps, trx: Kysely<Database>, event: PayoutEvent): Promise<void> {
  const now = deps.clock.now()
  let row = await lockSellerPayout(trx, event.provider, event.payoutId)
  const seen: PayoutObservation = {
    eventId: event.eventId,
    occurredAt: event.occurredAt,
    status: event.status,
    amount: event.amount,
    currency: event.currency,
    arrivalDate: event.arrivalDate,
    failureCode: event.failureCode,
    failureMessage: event.failureMessage,
  }
  if (!row) {
    const step = followPayout(null, seen)
    if (step.kind !== 'recorded') return
    const id = uuidV7(now)
    const inserted = await insertSellerPayout(trx, {
      id,
      provider: event.provider,
      payout_id: event.payoutId,
      account_id: event.accountId,
      automatic: event.automatic,
      payout_created: event.created,
      ...columnsOf(step.next),
      failed_at: step.failedNow ? now : null,
      created_at: now,
      updated_at: now,
    })
    if (inserted) {
      if (step.failedNow) await queueFailureMail(deps, trx, id)
      return
    }
    // Another event of the same payout inserted it meanwhile: apply this one to that record.
    row = await lockSellerPayout(trx, event.provider, event.payoutId)
    if (!row) return
  }
  const step = followPayout(followedOf(row), seen)
  if (step.kind !== 'recorded') return
  await updateSellerPayout(trx, row.id, {
    ...columnsOf(step.next),
    failed_at: step.failedNow ? now : row.failed_at,
    updated_at: now,
  })
  if (step.failedNow) await queueFailureMail(deps, trx, row.id)
}

async function queueFailureMail(deps: FollowPayoutDeps, trx: Kysely<Database>, id: string): Promise<void> {
  await deps.jobs.send(payoutFailedMailQueue, { id }, { db: trx, singletonKey: `payout-failed:${id}` })
}

function followedOf(row: SellerPayoutRow): FollowedPayout {
  return {
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    arrivalDate: row.arrival_date,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    lastEventId: row.last_event_id,
    lastEventAt: row.last_event_at,
  }
}

function columnsOf(payout: FollowedPayout) {
  return {
    status: payout.status,
    amount: payout.amount,
    currency: payout.currency,
    arrival_date: payout.arrivalDate,
    failure_code: payout.failureCode,
    failure_message: payout.failureMessage,
    last_event_id: payout.lastEventId,
    last_event_at: payout.lastEventAt,
  }
}
