import type { ErrorCode } from '@pactum/contracts/errors'
import type { PartyDetails, ShippingDetails, ShippingDetailsBody } from '@pactum/contracts/transactions'
import type { OnlineStatus } from '@pactum/domain/transactions/online-state'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import type { TransactionDeps } from './engine/apply-event.ts'
import { findContactDetails } from './parties-repository.ts'
import { findLastShippingDetailsOf, findShippingDetails, upsertShippingDetails } from './shipping-repository.ts'
import { findForParty, lockForParty } from './transactions-repository.ts'
import { roleOf } from './transaction-view.ts'

/**
 * Name and e-mail of one party of a transaction, for the other party (and
 * themselves). Null fields while that role is still open; 404 for anyone
 * who is no party.
 */
export async function partyDetails(db: Kysely<Database>, user: CurrentUser, id: string, party: 'buyer' | 'seller'): Promise<PartyDetails> {
  const row = await findForParty(db, id, user.id)
  const partyId = party === 'buyer' ? row.buyer_id : row.seller_id
  const person = partyId ? await findContactDetails(db, partyId) : undefined
  return { first_name: person?.first_name ?? null, last_name: person?.last_name ?? null, email: person?.email ?? null }
}

/**
 * The buyer gives (or corrects) the address the goods go to, before paying.
 * Under the row lock, so that it cannot change once the payment went through.
 * Online only: nothing is shipped face to face (404, as every online path
 * answers for a face-to-face id).
 */
export async function setShippingDetails(
  deps: TransactionDeps,
  user: CurrentUser,
  id: string,
  body: ShippingDetailsBody,
): Promise<ShippingDetails> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id, 'online')
    if (roleOf(row, user.id) !== 'buyer') throw new AppError('not_buyer', 'Only the buyer gives the shipping address')
    if ((row.status !== 'created' && row.status !== 'joined') || row.is_payment_in_progress) {
      throw new AppError(beforePaymentRefusal(row.status as OnlineStatus), 'The shipping address can only be changed before paying', {
        details: { status: row.status },
      })
    }
    const now = deps.clock.now()
    const address = {
      name: body.name,
      line1: body.line1,
      line2: body.line2 || null,
      city: body.city,
      postal_code: body.postal_code,
      country_code: body.country_code,
      state: body.state || null,
    }
    await upsertShippingDetails(trx, { transactionId: row.id, buyerId: user.id, address, now })
    return address
  })
}

/** The buyer's address, for both parties (the seller ships to it); 404 `not_found` while none was given. */
export async function shippingDetails(db: Kysely<Database>, user: CurrentUser, id: string): Promise<ShippingDetails> {
  await findForParty(db, id, user.id)
  const stored = await findShippingDetails(db, id)
  if (!stored) throw new AppError('not_found', 'No shipping address has been given for this transaction')
  return stored
}

/**
 * The address this user last gave as a buyer (given or corrected most
 * recently, whatever became of that sale), which the next checkout offers
 * again; null before their first. Their own addresses only.
 */
export async function lastShippingDetails(db: Kysely<Database>, user: CurrentUser): Promise<ShippingDetails | null> {
  const stored = await findLastShippingDetailsOf(db, user.id)
  return stored ?? null
}

function beforePaymentRefusal(status: OnlineStatus): ErrorCode {
  switch (status) {
    case 'created':
    case 'joined':
      // Refused before paying only while a payment is on its way (SEPA).
      return 'payment_in_progress'
    case 'cancelled':
    case 'rejected':
    case 'cancelled_with_payment':
    case 'payment_refunded':
      return 'already_cancelled'
    case 'funds_released':
      return 'funds_already_released'
    case 'paid':
    case 'tracked':
    case 'delivered':
    case 'complained':
    case 'complaint_period_ended':
      return 'already_paid'
  }
}
