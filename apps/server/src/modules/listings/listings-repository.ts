import { type Listing, type ListingType, listingPathSegments } from '@pactum/contracts/listings'
import { checkListingCode, formatListingCode } from '@pactum/domain/listing-code'
import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Database, ListingsTable } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { uuidPattern } from '../../ids.ts'

export type ListingRow = Selectable<ListingsTable>

/** An unknown listing, a malformed id and another seller's listing (on the /me calls) answer alike. */
export function listingNotFound(): AppError {
  return new AppError('not_found', 'No such listing')
}

export function listingClosed(): AppError {
  return new AppError('listing_closed', 'This listing is no longer available')
}

/** The link a buyer opens: the web app's page for the listing. */
export function listingUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/join-transaction/listing/${id}`
}

export function toListingView(row: ListingRow, publicUrl: string): Listing {
  return {
    id: row.id,
    code: formatListingCode(row.code),
    listing_type: row.listing_type as ListingType,
    type: row.type as Listing['type'],
    price: row.price,
    currency: row.currency,
    description: row.description,
    status: row.status as Listing['status'],
    url: listingUrl(publicUrl, row.id),
  }
}

/** The listing type a path segment names (`single_use_listings`), or null for any other segment. */
export function listingTypeOfSegment(segment: string): ListingType | null {
  const found = (Object.entries(listingPathSegments) as Array<[ListingType, string]>).find(([, path]) => path === segment)
  return found ? found[0] : null
}

/** The column and value a listing's `{id}` names: its UUID, or its short code as a person may type it. */
function listingKey(idOrCode: string): { column: 'id' | 'code'; value: string } | null {
  if (uuidPattern.test(idOrCode)) return { column: 'id', value: idOrCode }
  const check = checkListingCode(idOrCode)
  return check.valid ? { column: 'code', value: check.code } : null
}

/**
 * A listing of this type (any, when null), by its UUID or its short code,
 * optionally locked for the rest of the database transaction.
 */
export async function findListing(
  db: Kysely<Database>,
  idOrCode: string,
  options: { type?: ListingType | null; sellerId?: string; lock?: boolean } = {},
): Promise<ListingRow> {
  const key = listingKey(idOrCode)
  if (!key) throw listingNotFound()
  let query = db.selectFrom('listings').selectAll().where(key.column, '=', key.value)
  if (options.type) query = query.where('listing_type', '=', options.type)
  if (options.sellerId) query = query.where('seller_id', '=', options.sellerId)
  if (options.lock) query = query.forUpdate()
  const row = await query.executeTakeFirst()
  if (!row) throw listingNotFound()
  return row
}

/** A purchase from this listing still waiting for the seller's answer (a single-use listing is held by it). */
export async function hasPendingPurchase(db: Kysely<Database>, listingId: string): Promise<boolean> {
  const pending = await db
    .selectFrom('transactions')
    .select('id')
    .where('listing_id', '=', listingId)
    .where('status', '=', 'created')
    .executeTakeFirst()
  return pending !== undefined
}

/** Whether a buyer may start a purchase now. */
export async function isAvailable(db: Kysely<Database>, row: ListingRow): Promise<boolean> {
  if (row.status !== 'open') return false
  return row.listing_type === 'multi_use' || !(await hasPendingPurchase(db, row.id))
}

export async function insertListing(db: Kysely<Database>, listing: Insertable<ListingsTable>): Promise<ListingRow> {
  return db.insertInto('listings').values(listing).returningAll().executeTakeFirstOrThrow()
}

/** A seller's listings, newest first. */
export async function listBySeller(db: Kysely<Database>, sellerId: string): Promise<ListingRow[]> {
  return db.selectFrom('listings').selectAll().where('seller_id', '=', sellerId).orderBy('created_at', 'desc').orderBy('id').execute()
}

export async function updateListingTerms(
  trx: Kysely<Database>,
  id: string,
  terms: { price: number; currency: string; description: string; updatedAt: Date },
): Promise<ListingRow> {
  return trx
    .updateTable('listings')
    .set({ price: terms.price, currency: terms.currency, description: terms.description, updated_at: terms.updatedAt })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function markListingClosed(trx: Kysely<Database>, id: string, at: Date): Promise<ListingRow> {
  return trx.updateTable('listings').set({ status: 'closed', updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** Closes the listing if it is single-use; a multi-use listing stays as it is. */
export async function closeIfSingleUse(trx: Kysely<Database>, id: string, at: Date): Promise<void> {
  await trx
    .updateTable('listings')
    .set({ status: 'closed', updated_at: at })
    .where('id', '=', id)
    .where('listing_type', '=', 'single_use')
    .execute()
}

/** How many purchases of each listing are in each status (listings without any are absent). */
export async function purchaseStatusCounts(
  db: Kysely<Database>,
  listingIds: readonly string[],
): Promise<Map<string, Array<{ status: string; count: number }>>> {
  const counts = new Map<string, Array<{ status: string; count: number }>>()
  if (listingIds.length === 0) return counts
  const rows = await db
    .selectFrom('transactions')
    .select(['listing_id', 'status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('listing_id', 'in', [...listingIds])
    .groupBy(['listing_id', 'status'])
    .execute()
  for (const row of rows) {
    if (row.listing_id === null) continue
    const list = counts.get(row.listing_id) ?? []
    list.push({ status: row.status, count: Number(row.count) })
    counts.set(row.listing_id, list)
  }
  return counts
}
