import type { AnyTransaction, F2fTransaction, TransactionSummary } from '@pactum/contracts/f2f-transactions'
import type { Chargeback, PendingInvitation, Transaction } from '@pactum/contracts/transactions'
import { availableActions, type F2fAction, type InvitationAction, type OnlineAction } from '@pactum/domain/transactions/available-actions'
import type { Actor, TransactionPolicy } from '@pactum/domain/transactions/kernel'
import { trackingPageUrl } from '../../adapters/carrier-tracker/tracking-pages.ts'
import { toState, type TransactionRow } from './engine/transaction-state.ts'
import type { TransactionSummaryRow } from './transactions-repository.ts'

const iso = (value: Date | null) => (value ? value.toISOString() : null)

/** The card dispute as the parties see it: frozen while open on money that was held. */
export function chargebackView(row: Pick<TransactionRow, 'chargeback'>): Chargeback | null {
  const stored = row.chargeback
  if (stored === null) return null
  return {
    status: stored.status,
    amount: stored.amount,
    reason: stored.reason,
    evidence_due_by: stored.evidence_due_by,
    frozen: stored.froze && stored.closed_at === null,
  }
}

export function roleOf(row: Pick<TransactionRow, 'buyer_id' | 'seller_id'>, userId: string): 'buyer' | 'seller' | null {
  if (row.buyer_id === userId) return 'buyer'
  if (row.seller_id === userId) return 'seller'
  return null
}

/** Who is looking: a user, acting as an admin on the admin calls. */
export interface Viewer {
  readonly id: string
  readonly asAdmin?: boolean
}

/** What the views need besides the row: the clock reading and the timings the actions depend on. */
export interface ViewContext {
  readonly now: Date
  readonly policy: TransactionPolicy
  /** The site's own address (config's PUBLIC_URL, no trailing slash), for the links a view carries. */
  readonly publicUrl: string
}

/** The public verification page of a transaction (decision 114), on the site's own address. */
export function verifyUrl(publicUrl: string, row: Pick<TransactionRow, 'verify_code'>): string {
  return `${publicUrl}/verify/${row.verify_code}`
}

function actions(row: TransactionRow, viewer: Viewer, context: ViewContext): string[] {
  const role = roleOf(row, viewer.id)
  const actor: Actor | null = role ? { kind: role } : viewer.asAdmin ? { kind: 'admin' } : null
  return actor ? availableActions(toState(row), actor, context.now, context.policy) : []
}

/** The join code only for the creator, and only while the transaction can still be joined. */
function visibleJoinCode(row: TransactionRow, viewer: Viewer): string | null {
  return row.creator_id === viewer.id && row.status === 'created' ? row.join_code : null
}

/**
 * What a view adds when the caller looked it up: the creator's unclaimed
 * invitation (`pendingInvitationFor`). Left out of the view when not given.
 */
export interface ViewExtras {
  readonly invitation?: PendingInvitation | null
  /** The conversation's messages the viewer has not read (`unreadMessagesOf` in transactions-repository.ts), on the reads of one transaction and of the list. */
  readonly unreadMessages?: number
}

/** The re-send goes with the invitation itself: shown only to its creator, unclaimed, while the sale is open to it. */
function invitationActionsOf(extras: ViewExtras): InvitationAction[] {
  return extras.invitation ? ['resend_invitation'] : []
}

function extrasOf(extras: ViewExtras): { invitation?: PendingInvitation | null; unread_messages?: number } {
  return {
    ...(extras.invitation === undefined ? {} : { invitation: extras.invitation }),
    ...(extras.unreadMessages === undefined ? {} : { unread_messages: extras.unreadMessages }),
  }
}

/** The API's view of an online transaction for one viewer. */
export function toTransactionView(row: TransactionRow, viewer: Viewer, context: ViewContext, extras: ViewExtras = {}): Transaction {
  return {
    id: row.id,
    type: 'online',
    status: row.status as Transaction['status'],
    role: roleOf(row, viewer.id),
    price: row.price,
    charge: row.charge,
    charge_seller: row.charge_seller,
    charge_buyer_client: row.charge_buyer_client,
    charge_seller_client: row.charge_seller_client,
    charge_calculator_version: row.charge_calculator_version,
    quantity: row.quantity,
    currency: row.currency,
    payment_method: row.payment_method as Transaction['payment_method'],
    description: row.description,
    join_code: visibleJoinCode(row, viewer),
    verify_url: verifyUrl(context.publicUrl, row),
    buyer_id: row.buyer_id,
    seller_id: row.seller_id,
    client_id: row.client_id,
    listing_id: row.listing_id,
    high_value: row.high_value,
    is_payment_in_progress: row.is_payment_in_progress,
    order_issue: row.order_issue_description ? { description: row.order_issue_description } : null,
    tracking:
      row.tracking_carrier && row.tracking_code
        ? {
            carrier: row.tracking_carrier,
            tracking_code: row.tracking_code,
            tracking_url: trackingPageUrl(row.tracking_carrier, row.tracking_code),
          }
        : null,
    complaint: row.complaint_description ? { description: row.complaint_description } : null,
    chargeback: chargebackView(row),
    complaint_period_deadline: iso(row.complaint_period_deadline),
    tracking_deadline: iso(row.tracking_deadline),
    amount_released: row.amount_released,
    amount_refunded: row.amount_refunded,
    created: row.created.toISOString(),
    joined: iso(row.joined),
    paid: iso(row.paid),
    tracked: iso(row.tracked),
    in_transit: iso(row.in_transit),
    delivered: iso(row.delivered),
    complained: iso(row.complained),
    complaint_period_ended: iso(row.complaint_period_ended),
    funds_released: iso(row.funds_released),
    cancelled: iso(row.cancelled),
    rejected: iso(row.rejected),
    cancelled_with_payment: iso(row.cancelled_with_payment),
    payment_refunded: iso(row.payment_refunded),
    receipt_confirmation_requested_at: iso(row.receipt_confirmation_requested_at),
    available_actions: [...(actions(row, viewer, context) as OnlineAction[]), ...invitationActionsOf(extras)],
    ...extrasOf(extras),
  }
}

/** The API's view of a face-to-face transaction for one viewer. */
export function toF2fTransactionView(row: TransactionRow, viewer: Viewer, context: ViewContext, extras: ViewExtras = {}): F2fTransaction {
  return {
    id: row.id,
    type: 'f2f',
    status: row.status as F2fTransaction['status'],
    role: roleOf(row, viewer.id),
    creator_role: row.creator_role as F2fTransaction['creator_role'],
    currency: row.currency,
    description: row.description,
    join_code: visibleJoinCode(row, viewer),
    verify_url: verifyUrl(context.publicUrl, row),
    deposit_pricing: { price: row.price, charge: row.charge, charge_seller: row.charge_seller },
    pricing:
      row.total_price === null
        ? null
        : { price: row.total_price, charge: row.remainder_charge ?? 0, charge_seller: row.remainder_charge_seller ?? 0 },
    charge_calculator_version: row.charge_calculator_version,
    payment_method: row.payment_method as F2fTransaction['payment_method'],
    buyer_id: row.buyer_id,
    seller_id: row.seller_id,
    client_id: row.client_id,
    listing_id: row.listing_id,
    high_value: row.high_value,
    show_seller_confirm_handover: row.seller_confirms_handover,
    is_payment_in_progress: row.is_payment_in_progress,
    complaint: row.complaint_description ? { description: row.complaint_description } : null,
    chargeback: chargebackView(row),
    cancellation: row.cancellation_description ? { description: row.cancellation_description } : null,
    complaint_period_deadline: iso(row.complaint_period_deadline),
    amount_released: row.amount_released,
    amount_refunded: row.amount_refunded,
    created: row.created.toISOString(),
    joined: iso(row.joined),
    deposit_paid: iso(row.deposit_paid),
    deposit_accepted: iso(row.deposit_accepted),
    priced: iso(row.priced),
    remainder_paid: iso(row.remainder_paid),
    remainder_skipped: iso(row.remainder_skipped),
    seller_handover_confirmed: iso(row.seller_handover_confirmed),
    buyer_handover_confirmed: iso(row.buyer_handover_confirmed),
    complained: iso(row.complained),
    complaint_period_ended: iso(row.complaint_period_ended),
    funds_released: iso(row.funds_released),
    cancelled: iso(row.cancelled),
    rejected: iso(row.rejected),
    cancelled_with_deposit: iso(row.cancelled_with_deposit),
    deposit_refunded: iso(row.deposit_refunded),
    payment_refunded: iso(row.payment_refunded),
    available_actions: [...(actions(row, viewer, context) as F2fAction[]), ...invitationActionsOf(extras)],
    ...extrasOf(extras),
  }
}

/** Either kind, as the lists that hold both show it. */
export function toAnyTransactionView(row: TransactionRow, viewer: Viewer, context: ViewContext, extras: ViewExtras = {}): AnyTransaction {
  return row.type === 'f2f' ? toF2fTransactionView(row, viewer, context, extras) : toTransactionView(row, viewer, context, extras)
}

/**
 * A row of My transactions for one viewer (`GET /me/transactions?view=summary`):
 * the fields it shares with the full view mean the same; `amount` is what the
 * row names, a face-to-face sale's total once set and its deposit before.
 */
export function toTransactionSummary(row: TransactionSummaryRow, viewer: Viewer, unreadMessages = 0): TransactionSummary {
  const role = roleOf(row, viewer.id)
  const shared = {
    id: row.id,
    role,
    counterparty_name: role ? counterpartyName(row) : null,
    description: row.description,
    currency: row.currency,
    listing_id: row.listing_id,
    created: row.created,
    unread_messages: unreadMessages,
  }
  return row.type === 'f2f'
    ? { ...shared, type: 'f2f', status: row.status as F2fTransaction['status'], amount: row.total_price ?? row.price }
    : { ...shared, type: 'online', status: row.status as Transaction['status'], amount: row.price }
}

/** `Anna K.`: a first name and an initial; whichever of them the profile has, or null when it has neither. */
function counterpartyName(row: Pick<TransactionSummaryRow, 'counterparty_first_name' | 'counterparty_initial'>): string | null {
  const first = row.counterparty_first_name?.trim() ?? ''
  const initial = row.counterparty_initial?.trim() ? `${row.counterparty_initial.trim().toLocaleUpperCase()}.` : ''
  return [first, initial].filter(Boolean).join(' ') || null
}
