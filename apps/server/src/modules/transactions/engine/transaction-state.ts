import type { CurrencyCode, PaymentMethod } from '@pactum/domain/currencies'
import { type F2fState, type F2fStatus, f2fStatuses } from '@pactum/domain/transactions/f2f-state'
import type { CommonState, Party } from '@pactum/domain/transactions/kernel'
import { type OnlineState, type OnlineStatus, onlineStatuses } from '@pactum/domain/transactions/online-state'
import type { TransactionState } from '@pactum/domain/transactions/transaction'
import type { Insertable, Selectable } from 'kysely'
import type { StoredChargeback, StoredFraudWarning, StoredSettlementOffer, TransactionsTable } from '../../../db/schema.ts'
import type { Chargeback, FraudWarning } from '@pactum/domain/transactions/chargeback'
import { type Complaint, type ComplaintReason, type SettlementOffer } from '@pactum/domain/transactions/dispute-case'

export type TransactionRow = Selectable<TransactionsTable>

/** The stored row as the state machines see it. */
export function toState(row: TransactionRow): TransactionState {
  return row.type === 'f2f' ? toF2fState(row) : toOnlineState(row)
}

function common<S extends string>(row: TransactionRow): Omit<CommonState<S>, 'status' | 'timestamps'> {
  return {
    creatorRole: row.creator_role as Party,
    buyerId: row.buyer_id,
    sellerId: row.seller_id,
    joinCode: row.join_code,
    joinedWithCode: row.joined_with_code,
    description: row.description,
    currency: row.currency as CurrencyCode,
    price: row.price,
    charge: row.charge,
    chargeSeller: row.charge_seller,
    chargeCalculatorVersion: row.charge_calculator_version,
    paymentMethod: row.payment_method as PaymentMethod | null,
    highValue: row.high_value,
    isPaymentInProgress: row.is_payment_in_progress,
    paymentIntentId: row.payment_intent_id,
    complaint: toComplaint(row),
    complaintPeriodDeadline: row.complaint_period_deadline,
    amountHeld: row.amount_held,
    amountReleased: row.amount_released,
    amountRefunded: row.amount_refunded,
    returnedPaymentIntentIds: row.returned_payment_intent_ids,
    chargeback: toChargeback(row.chargeback),
    fraudWarning: toFraudWarning(row.fraud_warning),
  }
}

/** Each status's timestamp lives in the column of the status's name (fromState writes them back alike). */
function timestampsOf<S extends OnlineStatus | F2fStatus>(row: TransactionRow, statuses: readonly S[]): CommonState<S>['timestamps'] {
  return Object.fromEntries(statuses.map((status) => [status, row[status]])) as CommonState<S>['timestamps']
}

function toOnlineState(row: TransactionRow): OnlineState {
  return {
    ...common<OnlineStatus>(row),
    kind: 'online',
    status: row.status as OnlineStatus,
    tracking: row.tracking_carrier && row.tracking_code ? { carrier: row.tracking_carrier, trackingCode: row.tracking_code } : null,
    orderIssue: row.order_issue_description ? { description: row.order_issue_description } : null,
    trackingDeadline: row.tracking_deadline,
    inTransit: row.in_transit,
    receiptConfirmationRequestedAt: row.receipt_confirmation_requested_at,
    timestamps: timestampsOf(row, onlineStatuses),
  }
}

function toF2fState(row: TransactionRow): F2fState {
  return {
    ...common<F2fStatus>(row),
    kind: 'f2f',
    status: row.status as F2fStatus,
    pricing:
      row.total_price === null
        ? null
        : {
            price: row.total_price,
            charge: row.remainder_charge ?? 0,
            chargeSeller: row.remainder_charge_seller ?? 0,
            chargeCalculatorVersion: row.remainder_charge_calculator_version ?? row.charge_calculator_version,
          },
    remainderPaymentIntentId: row.remainder_payment_intent_id,
    sellerConfirmsHandover: row.seller_confirms_handover,
    cancellation: row.cancellation_description ? { description: row.cancellation_description } : null,
    timestamps: timestampsOf(row, f2fStatuses),
  }
}

/** The columns a state writes; everything the machines decide lives in them. */
export function fromState(state: TransactionState): Omit<Insertable<TransactionsTable>, 'id' | 'creator_id' | 'client_id' | 'verify_code'> {
  const columns = {
    type: state.kind,
    status: state.status,
    creator_role: state.creatorRole,
    buyer_id: state.buyerId,
    seller_id: state.sellerId,
    join_code: state.joinCode,
    joined_with_code: state.joinedWithCode,
    description: state.description,
    currency: state.currency,
    price: state.price,
    charge: state.charge,
    charge_seller: state.chargeSeller,
    charge_calculator_version: state.chargeCalculatorVersion,
    payment_method: state.paymentMethod,
    high_value: state.highValue,
    is_payment_in_progress: state.isPaymentInProgress,
    payment_intent_id: state.paymentIntentId,
    complaint_description: state.complaint?.description ?? null,
    complaint_reason: state.complaint?.reason ?? null,
    case_response_deadline: state.complaint?.responseDeadline ?? null,
    case_escalated_at: state.complaint?.escalatedAt ?? null,
    settlement_offers: JSON.stringify((state.complaint?.offers ?? []).map(storedOffer)),
    complaint_period_deadline: state.complaintPeriodDeadline,
    amount_held: state.amountHeld,
    amount_released: state.amountReleased,
    amount_refunded: state.amountRefunded,
    returned_payment_intent_ids: [...state.returnedPaymentIntentIds],
    chargeback: state.chargeback === null ? null : JSON.stringify(storedChargeback(state.chargeback)),
    fraud_warning: state.fraudWarning === null ? null : JSON.stringify(storedFraudWarning(state.fraudWarning)),
    ...state.timestamps,
    created: state.timestamps.created ?? new Date(0),
  }
  if (state.kind === 'online') {
    return {
      ...columns,
      tracking_carrier: state.tracking?.carrier ?? null,
      tracking_code: state.tracking?.trackingCode ?? null,
      order_issue_description: state.orderIssue?.description ?? null,
      tracking_deadline: state.trackingDeadline,
      in_transit: state.inTransit,
      receipt_confirmation_requested_at: state.receiptConfirmationRequestedAt,
    }
  }
  return {
    ...columns,
    total_price: state.pricing?.price ?? null,
    remainder_charge: state.pricing?.charge ?? null,
    remainder_charge_seller: state.pricing?.chargeSeller ?? null,
    remainder_charge_calculator_version: state.pricing?.chargeCalculatorVersion ?? null,
    remainder_payment_intent_id: state.remainderPaymentIntentId,
    seller_confirms_handover: state.sellerConfirmsHandover,
    cancellation_description: state.cancellation?.description ?? null,
  }
}

function toComplaint(row: TransactionRow): Complaint | null {
  if (!row.complaint_description) return null
  return {
    description: row.complaint_description,
    reason: (row.complaint_reason ?? 'other') as ComplaintReason,
    responseDeadline: row.case_response_deadline,
    escalatedAt: row.case_escalated_at,
    offers: row.settlement_offers.map((offer): SettlementOffer => ({
      id: offer.id,
      by: offer.by,
      refundToBuyer: offer.refund_to_buyer,
      releaseToSeller: offer.release_to_seller,
      note: offer.note,
      madeAt: new Date(offer.made_at),
      outcome: offer.outcome,
      answeredAt: offer.answered_at === null ? null : new Date(offer.answered_at),
    })),
  }
}

function storedOffer(offer: SettlementOffer): StoredSettlementOffer {
  return {
    id: offer.id,
    by: offer.by,
    refund_to_buyer: offer.refundToBuyer,
    release_to_seller: offer.releaseToSeller,
    note: offer.note,
    made_at: offer.madeAt.toISOString(),
    outcome: offer.outcome,
    answered_at: offer.answeredAt?.toISOString() ?? null,
  }
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value))

function toChargeback(stored: StoredChargeback | null): Chargeback | null {
  if (stored === null) return null
  return {
    id: stored.id,
    paymentIntentId: stored.payment_intent_id,
    status: stored.status,
    amount: stored.amount,
    reason: stored.reason,
    evidenceDueBy: dateOrNull(stored.evidence_due_by),
    openedAt: new Date(stored.opened_at),
    closedAt: dateOrNull(stored.closed_at),
    froze: stored.froze,
    fee: stored.fee,
    evidenceSubmittedAt: dateOrNull(stored.evidence_submitted_at),
    recovered: stored.recovered,
  }
}

function storedChargeback(chargeback: Chargeback): StoredChargeback {
  return {
    id: chargeback.id,
    payment_intent_id: chargeback.paymentIntentId,
    status: chargeback.status,
    amount: chargeback.amount,
    reason: chargeback.reason,
    evidence_due_by: chargeback.evidenceDueBy?.toISOString() ?? null,
    opened_at: chargeback.openedAt.toISOString(),
    closed_at: chargeback.closedAt?.toISOString() ?? null,
    froze: chargeback.froze,
    fee: chargeback.fee,
    evidence_submitted_at: chargeback.evidenceSubmittedAt?.toISOString() ?? null,
    recovered: chargeback.recovered,
  }
}

function toFraudWarning(stored: StoredFraudWarning | null): FraudWarning | null {
  if (stored === null) return null
  return {
    id: stored.id,
    paymentIntentId: stored.payment_intent_id,
    fraudType: stored.fraud_type,
    receivedAt: new Date(stored.received_at),
    clearedAt: dateOrNull(stored.cleared_at),
  }
}

function storedFraudWarning(warning: FraudWarning): StoredFraudWarning {
  return {
    id: warning.id,
    payment_intent_id: warning.paymentIntentId,
    fraud_type: warning.fraudType,
    received_at: warning.receivedAt.toISOString(),
    cleared_at: warning.clearedAt?.toISOString() ?? null,
  }
}
