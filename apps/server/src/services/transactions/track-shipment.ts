import type { CarrierTracker } from '../../adapters/carrier-tracker/port.ts'
import { fieldError } from '../../errors.ts'
import type { CurrentUser } from '../users.ts'
import { applyEvent, type TransactionDeps } from '../../transactions/apply-event.ts'
import { lockForParty, notFound } from '../../transactions/transactions-repository.ts'
import type { TransactionRow } from '../../transactions/transaction-state.ts'
import { roleOf } from '../../transactions/transaction-view.ts'

/**
 * The seller adds the carrier and tracking code; the carrier tracker is told
 * in the same commit, and its "delivered" news later moves the transaction on.
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
    const tracked = await applyEvent(deps, trx, row, { type: 'track', ...shipment }, { actor: { kind: role }, actorUserId: user.id })
    await deps.carrierTracker.register({ carrier: shipment.carrier, trackingCode: shipment.trackingCode, transactionId: id }, { db: trx })
    return tracked
  })
}
