import type { CreateFromListingBody, ListingPreview, ListingType } from '@pactum/contracts/listings'
import { createF2fTransaction } from '@pactum/domain/transactions/f2f-state'
import { boughtFromListing } from '@pactum/domain/transactions/listing-sale'
import { createOnlineTransaction } from '@pactum/domain/transactions/online-state'
import type { TransactionState } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { uuidV7 } from '../../ids.ts'
import { findListing, hasPendingPurchase, isAvailable, listingClosed, type ListingRow, toListingView } from './listings-repository.ts'
import { insertTransactionIn, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { findFirstName } from '../transactions/parties-repository.ts'
import { quoteOrRefuse, requireShownCharge } from '../transactions/quote.ts'
import { findClientHandoverSetting } from '../transactions/transactions-repository.ts'
import type { CurrentUser } from '../sign-in/users.ts'

/** What anyone with the link sees before deciding, signed in or not: the offer, the fee for card, the seller's first name. */
export async function previewListing(
  db: Kysely<Database>,
  publicUrl: string,
  id: string,
  type: ListingType | null,
): Promise<ListingPreview> {
  const row = await findListing(db, id, { type })
  const seller = await findFirstName(db, row.seller_id)
  const quote = quoteOrRefuse({ price: row.price, currency: row.currency, paymentMethod: 'card' })
  return {
    ...toListingView(row, publicUrl),
    seller_first_name: seller?.first_name ?? '',
    available: await isAvailable(db, row),
    payment_method: quote.paymentMethod,
    charge: quote.charge,
    charge_calculator_version: quote.chargeCalculatorVersion,
  }
}

function stateFor(
  listing: ListingRow,
  buyer: CurrentUser,
  quote: ReturnType<typeof quoteOrRefuse>,
  sellerConfirmsHandover: boolean,
  now: Date,
): TransactionState {
  // No join code: nobody joins a listing's sale; the seller is a party from the start.
  const common = {
    creatorRole: 'buyer',
    creatorId: buyer.id,
    joinCode: '',
    description: listing.description,
    currency: quote.currency,
  } as const
  const created =
    listing.type === 'f2f'
      ? createF2fTransaction(
          {
            ...common,
            depositPrice: quote.price,
            depositCharge: quote.charge,
            depositChargeSeller: quote.chargeSeller,
            chargeCalculatorVersion: quote.chargeCalculatorVersion,
            paymentMethod: quote.paymentMethod,
            sellerConfirmsHandover,
          },
          now,
        )
      : createOnlineTransaction(
          {
            ...common,
            price: quote.price,
            charge: quote.charge,
            chargeSeller: quote.chargeSeller,
            chargeCalculatorVersion: quote.chargeCalculatorVersion,
            // Card, as the fee was quoted; the buyer may pick another method at checkout.
            paymentMethod: quote.paymentMethod,
          },
          now,
        )
  return boughtFromListing(created, listing.seller_id)
}

/**
 * The caller becomes the buyer of a new transaction made from the listing's
 * terms, waiting for the seller's acceptance. The listing's row is locked
 * for the whole database transaction, so two buyers racing for a single-use
 * listing are decided there: the second sees the first one's purchase
 * waiting (or the listing closed by its acceptance) and is refused with
 * `listing_closed`. The fee the buyer was shown is checked as create checks it.
 */
export async function buyFromListing(
  deps: TransactionDeps & { config: Config },
  buyer: CurrentUser,
  id: string,
  type: ListingType,
  shown: CreateFromListingBody,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const listing = await findListing(trx, id, { type, lock: true })
    if (listing.seller_id === buyer.id) {
      throw new AppError('cannot_join_own_transaction', 'This is your own listing; share its link with buyers instead')
    }
    if (listing.status !== 'open') throw listingClosed()
    if (listing.listing_type === 'single_use' && (await hasPendingPurchase(trx, listing.id))) throw listingClosed()
    const quote = quoteOrRefuse({ price: listing.price, currency: listing.currency, paymentMethod: 'card' })
    requireShownCharge(quote, { charge: shown.charge, version: shown.charge_calculator_version })
    const client = listing.client_id ? await findClientHandoverSetting(trx, listing.client_id) : undefined
    const now = deps.clock.now()
    const state = stateFor(listing, buyer, quote, client?.show_seller_confirm_handover ?? true, now)
    const row = await insertTransactionIn(deps, trx, state, {
      id: uuidV7(now),
      creatorId: buyer.id,
      clientId: listing.client_id,
      listingId: listing.id,
    })
    // Not a step of the machine (the transaction is only being created): the seller is told here, in the same commit.
    await deps.effects.notify(trx, [
      { transactionId: row.id, template: 'listing_purchased', to: 'seller', key: `${row.id}:create:listing_purchased:seller` },
      { transactionId: row.id, template: 'listing_purchased', to: 'buyer', key: `${row.id}:create:listing_purchased:buyer` },
    ])
    return row
  })
}
