import type { OwnListing } from '@pactum/contracts/listings'
import { terminalStatusesByKind } from '@pactum/domain/transactions/transaction'
import { type ListingRow, toListingView } from './listings-repository.ts'

/** What ended without the sale: not counted among a listing's purchases. */
const ended = new Set<string>([...terminalStatusesByKind.online, ...terminalStatusesByKind.f2f])
const released = new Set<string>(['funds_released'])

/**
 * A listing as its seller reads it in My listings (issue 33 item 9): its
 * purchases by stage, from the counts of its transactions' statuses, and
 * whether an open single-use listing is held by a purchase waiting for the
 * seller's answer (buyers are then told it is unavailable).
 */
export function toOwnListingView(
  row: ListingRow,
  publicUrl: string,
  statusCounts: ReadonlyArray<{ status: string; count: number }>,
): OwnListing {
  const purchases = { awaiting_acceptance: 0, in_progress: 0, completed: 0 }
  for (const { status, count } of statusCounts) {
    if (status === 'created') purchases.awaiting_acceptance += count
    else if (released.has(status)) purchases.completed += count
    else if (!ended.has(status)) purchases.in_progress += count
  }
  const reserved = row.listing_type === 'single_use' && row.status === 'open' && purchases.awaiting_acceptance > 0
  return { ...toListingView(row, publicUrl), reserved, purchases }
}
