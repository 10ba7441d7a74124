import type { ChargebackStatus } from '@pactum/domain/transactions/chargeback'

/**
 * What the rest of Pactum learns from a payment provider: provider events
 * (Stripe's or the sandbox's) reduced to these few, whatever their wire shape.
 */
export type PaymentEventType =
  | 'payment_succeeded'
  | 'payment_failed'
  | 'payment_processing'
  | 'refund_succeeded'
  | 'refund_failed'
  | 'transfer_paid'
  /** A card dispute as it is now (`charge.dispute.*`); its payment names the transaction (docs/decisions/109). */
  | 'dispute_changed'
  /** Radar's early fraud warning on a payment. */
  | 'early_fraud_warning'

export interface PaymentEvent {
  type: PaymentEventType
  /** The provider's event id (unique per provider). */
  eventId: string
  provider: 'sandbox' | 'stripe'
  /** When the provider says it happened: compare this, not arrival order. */
  occurredAt: Date
  /** From the object's metadata.transaction_id; null for objects Pactum did not create. */
  transactionId: string | null
  paymentIntentId?: string
  refundId?: string
  transferId?: string
  /** Minor units. */
  amount: number
  currency: string
  /** Why a payment or refund failed (`card_declined`, `insufficient_funds`, …). */
  reason?: string
  /** `dispute_changed`: the dispute's id, status (a chargeback's four), network reason, evidence deadline (ISO) and net fee. */
  dispute?: {
    id: string
    status: ChargebackStatus
    reason: string
    evidenceDueBy: string | null
    fee: { amount: number; currency: string } | null
  }
  /** `early_fraud_warning`: the warning's id and the issuer's fraud type. */
  fraudWarning?: { id: string; fraudType: string }
}
