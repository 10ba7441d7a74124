import type { Kysely, Transaction } from 'kysely'
import type { CarrierTracker } from '../../adapters/carrier-tracker/port.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { applyEvent, type TransactionDeps } from './engine/apply-event.ts'
import { findParcelOfAnotherBuyer, lockParcel } from './shipping-repository.ts'
import { lockForParty, notFound } from './transactions-repository.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { roleOf } from './transaction-view.ts'

/**
 * The seller adds the carrier and tracking code; the carrier tracker is told
 * in the same commit, and its "delivered" news later moves the transaction on.
 * A parcel already on another buyer's sale is refused: its delivery would
 * otherwise "deliver" both, and start the release of money for an item the
 * second buyer never got. Several sales to the same buyer may share a parcel.
 */
export async function trackShipment(
  deps: TransactionDeps & { carrierTracker: CarrierTracker },
  user: CurrentUser,
  id: string,
  shipment: { carrier: string; trackingCode: string },
): Promise<TransactionRow> {
  if (!deps.carrierTracker.supportedCarriers.some((carrier) => carrier.slug === shipment.carrier)) {
    throw fieldError('body.carrier', 'not a carrier we can track (see GET /supported_carriers)')
  }
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id, 'online')
    const role = roleOf(row, user.id)
    if (!role) throw notFound()
    await refuseParcelOfAnotherBuyer(trx, row, shipment)
    const tracked = await applyEvent(deps, trx, row, { type: 'track', ...shipment }, { actor: { kind: role }, actorUserId: user.id })
    await deps.carrierTracker.register({ carrier: shipment.carrier, trackingCode: shipment.trackingCode, transactionId: id }, { db: trx })
    return tracked
  })
}

async function refuseParcelOfAnotherBuyer(
  trx: Transaction<Database> | Kysely<Database>,
  row: TransactionRow,
  shipment: { carrier: string; trackingCode: string },
): Promise<void> {
  const code = shipment.trackingCode.trim().toUpperCase()
  // Two sellers adding the same parcel at once: the second waits for the first's commit, then sees it.
  await lockParcel(trx, shipment.carrier, code)
  const other = await findParcelOfAnotherBuyer(trx, { carrier: shipment.carrier, code, transactionId: row.id, buyerId: row.buyer_id })
  if (other) throw new AppError('tracking_code_in_use', "This tracking code is already on another buyer's transaction")
}
