import { randomUUID } from 'node:crypto'
import { generateListingCode } from '@pactum/domain/listing-code'
import type { CreateListingBody, OwnListing, UpdateListingBody } from '@pactum/contracts/listings'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import { fieldError } from '../../errors.ts'
import { randomBytesFromBatch } from '../../random-bytes.ts'
import {
  findListing,
  insertListing,
  listBySeller,
  listingClosed,
  type ListingRow,
  markListingClosed,
  purchaseStatusCounts,
  updateListingTerms,
} from './listings-repository.ts'
import { toOwnListingView } from './own-listing-view.ts'
import { quoteOrRefuse, requireOffered } from '../transactions/quote.ts'
import type { CurrentUser } from '../sign-in/users.ts'

export interface ListingDeps {
  db: Kysely<Database>
  clock: Clock
  config: Config
}

/** A face-to-face listing prices its deposit (`deposit_price`); an online one its price. Either name is read, the kind's own first. */
function priceField(type: string): 'price' | 'deposit_price' {
  return type === 'f2f' ? 'deposit_price' : 'price'
}

function statedPrice(type: string, body: { price?: number | undefined; deposit_price?: number | undefined }): number | undefined {
  return type === 'f2f' ? (body.deposit_price ?? body.price) : (body.price ?? body.deposit_price)
}

/** The same rules as creating a transaction: a priceable amount, in a currency open to the seller (DESIGN §2). */
function checkTerms(deps: ListingDeps, user: CurrentUser, type: string, price: number, currency: string): void {
  const quote = quoteOrRefuse({ price, currency, paymentMethod: 'card' }, priceField(type))
  requireOffered(deps.config, user, quote, { paymentMethodChosen: false })
}

export async function createListing(
  deps: ListingDeps,
  user: CurrentUser,
  body: CreateListingBody,
  clientId: string | null,
): Promise<ListingRow> {
  const price = statedPrice(body.type, body)
  if (price === undefined) {
    throw fieldError(`body.${priceField(body.type)}`, 'Required for this kind of listing')
  }
  checkTerms(deps, user, body.type, price, body.currency)
  const now = deps.clock.now()
  // 31^10 codes: a clash is a one-in-billions event, but the unique key decides it, and a new code is drawn.
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertListing(deps.db, {
        // Random, not time-ordered: the id is the shareable link's secret part, and must not be guessable.
        id: randomUUID(),
        code: generateListingCode(randomBytesFromBatch),
        seller_id: user.id,
        listing_type: body.listing_type,
        type: body.type,
        price,
        currency: body.currency,
        description: body.description.trim(),
        client_id: clientId,
        created_at: now,
        updated_at: now,
      })
    } catch (error) {
      if (!String((error as Error).message).includes('listings_code_key') || attempt === 4) throw error
    }
  }
}

/** The seller's listings, newest first, each with its purchases counted (one grouped statement for the page). */
export async function listOwnListings(db: Kysely<Database>, user: CurrentUser, publicUrl: string): Promise<OwnListing[]> {
  const rows = await listBySeller(db, user.id)
  const counts = await purchaseStatusCounts(
    db,
    rows.map((row) => row.id),
  )
  return rows.map((row) => toOwnListingView(row, publicUrl, counts.get(row.id) ?? []))
}

/**
 * The seller changes an open listing. Purchases already started keep the
 * terms they were made with (each transaction holds its own copy).
 */
export async function updateListing(deps: ListingDeps, user: CurrentUser, id: string, body: UpdateListingBody): Promise<ListingRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findListing(trx, id, { sellerId: user.id, lock: true })
    if (row.status !== 'open') throw listingClosed()
    const price = statedPrice(row.type, body) ?? row.price
    const currency = body.currency ?? row.currency
    checkTerms(deps, user, row.type, price, currency)
    return updateListingTerms(trx, row.id, {
      price,
      currency,
      description: body.description?.trim() ?? row.description,
      updatedAt: deps.clock.now(),
    })
  })
}

/** Closing twice is no error: the listing is closed either way. A purchase waiting for the seller is still answered. */
export async function closeListing(deps: ListingDeps, user: CurrentUser, id: string): Promise<ListingRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findListing(trx, id, { sellerId: user.id, lock: true })
    if (row.status === 'closed') return row
    return markListingClosed(trx, row.id, deps.clock.now())
  })
}
