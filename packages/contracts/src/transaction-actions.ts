import type { ComplaintReason } from '@pactum/domain/transactions/dispute-case'
import type { TransactionEvent, TransactionKind } from '@pactum/domain/transactions/transaction'
import type { z } from 'zod'
import { complainBodySchema, extendTrackingDeadlineBodySchema, offerParamsSchema, settlementOfferBodySchema } from './disputes.ts'
import {
  cancelWithDescriptionBodySchema,
  creatorCancellationDescription,
  setPriceBodySchema,
  updateF2fTransactionBodySchema,
} from './f2f-transactions.ts'
import {
  confirmPaymentBodySchema,
  descriptionBodySchema,
  joinCodeQuerySchema,
  type Role,
  setPaymentMethodBodySchema,
  trackBodySchema,
  updateTransactionBodySchema,
} from './transactions.ts'

/**
 * The catalogue of what a party does to a transaction, for both kinds: one
 * entry an action. The server registers every route from it in one loop
 * (`apps/server/src/modules/transactions/routes/action-routes.ts`), the web
 * renders every button and confirmation dialog from it and
 * `available_actions` (`features/transactions/action-buttons.tsx`), and the
 * authorization matrix is checked against its `who`.
 *
 * Adding an action to both kinds is one entry here, one domain handler per
 * kind (the state machines decide who and when; `available_actions` follows),
 * and its texts in the locale files (docs/decisions/ records how).
 */

/** Who may call it; the state machine refuses anyone else with the code the matrix names. */
export type ActionCaller =
  | Role
  /** Either party. */
  | 'parties'
  /** The party who created the offer. */
  | 'creator'
  /** Whoever holds the join code: the counterparty is not a party yet. */
  | 'code_holder'

/** The action's route for one kind: `POST {prefix}/transactions/{id}/{path}` (`PATCH {prefix}/transactions/{id}` for `update`). */
export interface KindRoute<Body extends z.ZodType = z.ZodType> {
  /** May name path parameters of its own (`settlement_offers/:offer_id/accept`), given with `params`. */
  readonly path: string
  /** The path's parameters, the transaction's `id` included. */
  readonly params?: z.ZodType
  /** The name `available_actions` gives it, where that is not the path (a path with parameters). */
  readonly action?: string
  readonly summary: string
  readonly body?: Body
  /** The OpenAPI tag, where it is not the kind's own (`transactions`, `face-to-face`). */
  readonly tag?: string
  /**
   * A body the web fills in itself rather than asking for (the face-to-face
   * cancellation's fixed text, spec §4).
   */
  readonly presetBody?: (viewer: ActionViewer) => Readonly<Record<string, unknown>>
}

/** What the web knows of the person acting, for a preset body. */
export interface ActionViewer {
  readonly role: Role | null
  /** Named by face-to-face transactions (the only kind with a preset body). */
  readonly creator_role?: Role
}

export interface TransactionActionEntry {
  readonly who: ActionCaller
  readonly online?: KindRoute
  readonly f2f?: KindRoute
  /**
   * `transaction`: the call answers with the transaction as the caller sees
   * it. `payment`: it opens a payment and answers with the client secret
   * (registered by the payment routes, shown as a checkout).
   */
  readonly answers: 'transaction' | 'payment'
  readonly method?: 'POST' | 'PATCH'
  /**
   * `key`: an `Idempotency-Key` makes a retry return the first answer;
   * `repeatable`: the same key may open the same payment again; `none`: the
   * call is safe to repeat as it is (it is rate-limited instead).
   */
  readonly idempotency: 'key' | 'repeatable' | 'none'
  /**
   * A limit that answers 429: join codes are guessable, invitations e-mail
   * someone else; `reminder` e-mails the other party, and the state machine
   * refuses a second one within a day.
   */
  readonly limit?: 'join_code' | 'invitation' | 'reminder'
  /**
   * The domain event the action becomes, built from its body; the server
   * hands it to the one writer as the caller. Absent where a use case of its
   * own builds it (it prices, checks a carrier, or reads another record).
   */
  readonly event?: (body: ActionBody, params: ActionParams) => TransactionEvent
  /** The web shows it as a button on the transaction's page (the others have their own card or step). */
  readonly button?: boolean
  /** What the web asks for in the confirmation dialog. */
  readonly asks?: 'description' | 'complaint' | 'tracking' | 'extension'
  /** It gives money back or ends the sale: the web's button and confirmation say so. */
  readonly destructive?: boolean
}

/** The bodies the generic actions take, as their schemas checked them (a description, a split, or none). */
export type ActionBody =
  | {
      readonly description?: string
      readonly reason?: ComplaintReason
      readonly refund_to_buyer?: number
      readonly release_to_seller?: number
      readonly note?: string
      readonly hours?: number
    }
  | undefined

/** The path's own parameters, beside the transaction's id. */
export type ActionParams = { readonly offer_id?: string }

/**
 * Every action, in the order the web shows buttons: the way forward first,
 * cancelling last. Keys are the names the web and the translations use;
 * each kind's path is the name its API and `available_actions` use.
 */
export const transactionActions = {
  pay: {
    who: 'buyer',
    online: { path: 'pay', summary: 'Open the payment of price + fee (buyer)', tag: 'payment' },
    answers: 'payment',
    idempotency: 'repeatable',
    button: true,
  },
  pay_deposit: {
    who: 'buyer',
    f2f: { path: 'pay_deposit', summary: 'Open the payment of the deposit and its fee (buyer)' },
    answers: 'payment',
    idempotency: 'repeatable',
    button: true,
  },
  accept_deposit: {
    who: 'seller',
    f2f: { path: 'accept_deposit', summary: 'Accept the deposit (seller)' },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'accept_deposit' }),
    button: true,
  },
  set_price: {
    who: 'seller',
    f2f: { path: 'set_price', summary: 'Set the total price; the buyer then pays the remainder (seller)', body: setPriceBodySchema },
    answers: 'transaction',
    idempotency: 'key',
    button: true,
  },
  skip_remainder: {
    who: 'seller',
    f2f: { path: 'skip_remainder', summary: 'Nothing more is paid through Pactum (seller)' },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'skip_remainder' }),
    button: true,
  },
  pay_remainder: {
    who: 'buyer',
    f2f: { path: 'pay_remainder', summary: 'Open the payment of the remainder and its fee (buyer)' },
    answers: 'payment',
    idempotency: 'repeatable',
    button: true,
  },
  track: {
    who: 'seller',
    online: { path: 'track', summary: 'Add the carrier and tracking code (seller)', body: trackBodySchema },
    answers: 'transaction',
    idempotency: 'key',
    button: true,
    asks: 'tracking',
  },
  confirm_delivery: {
    who: 'buyer',
    online: { path: 'confirm_delivery', summary: 'Confirm the item arrived (buyer)' },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'confirm_delivery' }),
    button: true,
  },
  request_receipt_confirmation: {
    who: 'seller',
    online: {
      path: 'request_receipt_confirmation',
      summary: 'Ask the buyer to confirm the parcel arrived (seller, once shipped; an e-mail at most once a day)',
    },
    answers: 'transaction',
    idempotency: 'key',
    limit: 'reminder',
    event: () => ({ type: 'request_receipt_confirmation' }),
    button: true,
  },
  confirm_handover: {
    who: 'parties',
    f2f: { path: 'confirm_handover', summary: 'Confirm the item was handed over (seller; the buyer too)' },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'confirm_handover' }),
    button: true,
  },
  extend_tracking_deadline: {
    who: 'buyer',
    online: {
      path: 'extend_tracking_deadline',
      summary: 'Give the seller more time to add the tracking details (buyer)',
      body: extendTrackingDeadlineBodySchema,
    },
    answers: 'transaction',
    idempotency: 'key',
    event: (body) => ({ type: 'extend_tracking_deadline', hours: body?.hours ?? 0 }),
    button: true,
    asks: 'extension',
  },
  complain: {
    who: 'buyer',
    online: {
      path: 'complain_with_description',
      summary: 'Complain within the complaint window; opens a case (buyer)',
      body: complainBodySchema,
    },
    f2f: { path: 'complain', summary: 'Complain within the complaint window; opens a case (buyer)', body: complainBodySchema },
    answers: 'transaction',
    idempotency: 'key',
    event: (body) => ({ type: 'complain', description: body?.description ?? '', reason: body?.reason ?? 'other' }),
    button: true,
    asks: 'complaint',
  },
  propose_settlement: {
    who: 'parties',
    online: { path: 'settlement_offers', action: 'propose_settlement', summary: proposeSummary(), body: settlementOfferBodySchema },
    f2f: { path: 'settlement_offers', action: 'propose_settlement', summary: proposeSummary(), body: settlementOfferBodySchema },
    answers: 'transaction',
    idempotency: 'key',
    event: (body) => ({
      type: 'propose_settlement',
      offerId: crypto.randomUUID(),
      refundToBuyer: body?.refund_to_buyer ?? 0,
      releaseToSeller: body?.release_to_seller ?? 0,
      note: body?.note ?? '',
    }),
  },
  accept_settlement: {
    who: 'parties',
    online: offerAnswer('accept', 'Accept the open settlement offer: the money moves at once (the party who did not make it)'),
    f2f: offerAnswer('accept', 'Accept the open settlement offer: the money moves at once (the party who did not make it)'),
    answers: 'transaction',
    idempotency: 'key',
    event: (_body, params) => ({ type: 'accept_settlement', offerId: params.offer_id ?? '' }),
  },
  decline_settlement: {
    who: 'parties',
    online: offerAnswer('decline', 'Decline the open settlement offer (the party who did not make it)'),
    f2f: offerAnswer('decline', 'Decline the open settlement offer (the party who did not make it)'),
    answers: 'transaction',
    idempotency: 'key',
    event: (_body, params) => ({ type: 'decline_settlement', offerId: params.offer_id ?? '' }),
  },
  escalate_case: {
    who: 'parties',
    online: { path: 'escalate', action: 'escalate_case', summary: escalateSummary() },
    f2f: { path: 'escalate', action: 'escalate_case', summary: escalateSummary() },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'escalate_case' }),
  },
  submit_order_issue: {
    who: 'buyer',
    online: { path: 'submit_order_issue', summary: 'Report a problem with the order before it ships (buyer)', body: descriptionBodySchema },
    answers: 'transaction',
    idempotency: 'key',
    event: (body) => ({ type: 'submit_order_issue', description: body?.description ?? '' }),
    button: true,
    asks: 'description',
  },
  end_complaint_period: {
    who: 'buyer',
    online: { path: 'end_complaint_period', summary: 'Release the money now, giving up the rest of the complaint window (buyer)' },
    f2f: { path: 'end_complaint_period', summary: 'Release the money now, giving up the rest of the complaint window (buyer)' },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'end_complaint_period' }),
    button: true,
  },
  accept_complaint: {
    who: 'seller',
    online: { path: 'accept_complaint', summary: 'Accept the complaint and refund the buyer (seller)' },
    f2f: { path: 'accept_complaint', summary: 'Accept the complaint and refund the buyer (seller)' },
    answers: 'transaction',
    idempotency: 'key',
    event: () => ({ type: 'accept_complaint' }),
    button: true,
    destructive: true,
  },
  update: {
    who: 'creator',
    online: {
      path: '',
      summary: 'Change price, currency, description or method before anyone joined (creator)',
      body: updateTransactionBodySchema,
    },
    f2f: {
      path: '',
      summary: 'Change the description, currency or deposit before anyone joined (creator)',
      body: updateF2fTransactionBodySchema,
    },
    answers: 'transaction',
    method: 'PATCH',
    idempotency: 'none',
    button: true,
  },
  cancel: {
    who: 'parties',
    online: {
      path: 'cancel',
      summary: 'Cancel (creator before joining; either party before paying; the seller after payment refunds the buyer)',
    },
    f2f: {
      path: 'cancel_with_description',
      summary:
        'Cancel (the creator before joining; either party until the remainder is paid; after the deposit the buyer gets it back less its fee)',
      body: cancelWithDescriptionBodySchema,
      presetBody: (viewer) => ({ description: cancellationText(viewer) }),
    },
    answers: 'transaction',
    idempotency: 'key',
    event: (body) => (body?.description === undefined ? { type: 'cancel' } : { type: 'cancel', description: body.description }),
    button: true,
    destructive: true,
  },
  accept_listing_transaction: {
    who: 'seller',
    online: { path: 'accept_listing_transaction', summary: 'Accept the buyer of a purchase from my listing (seller)' },
    f2f: { path: 'accept_listing_transaction', summary: 'Accept the buyer of a purchase from my listing (seller)' },
    answers: 'transaction',
    idempotency: 'key',
  },
  reject_listing_transaction: {
    who: 'seller',
    online: { path: 'reject_listing_transaction', summary: 'Reject a purchase from my listing (seller)' },
    f2f: { path: 'reject_listing_transaction', summary: 'Reject a purchase from my listing (seller)' },
    answers: 'transaction',
    idempotency: 'key',
  },
  set_payment_method: {
    who: 'buyer',
    online: {
      path: 'set_payment_method',
      summary: 'Choose the payment method (reprices the fee)',
      body: setPaymentMethodBodySchema,
      tag: 'payment',
    },
    f2f: {
      path: 'set_deposit_payment_method',
      summary: 'Choose how the deposit (and the remainder) is paid; reprices the deposit',
      body: setPaymentMethodBodySchema,
    },
    answers: 'transaction',
    idempotency: 'key',
  },
  confirm_payment: {
    who: 'buyer',
    online: {
      path: 'confirm_payment',
      summary: 'Tell the server the browser confirmed the payment',
      body: confirmPaymentBodySchema,
      tag: 'payment',
    },
    f2f: {
      path: 'confirm_payment',
      summary: 'Tell the server the browser confirmed the deposit or remainder payment',
      body: confirmPaymentBodySchema,
    },
    answers: 'transaction',
    idempotency: 'key',
  },
  resend_invitation: {
    who: 'creator',
    online: { path: 'resend_invitation', summary: resendSummary() },
    f2f: { path: 'resend_invitation', summary: resendSummary() },
    answers: 'transaction',
    idempotency: 'none',
    limit: 'invitation',
  },
  reject: {
    who: 'code_holder',
    online: { path: 'reject', summary: 'Decline a transaction offered by join code', body: joinCodeQuerySchema },
    f2f: { path: 'reject', summary: 'Decline a face-to-face transaction offered by join code', body: joinCodeQuerySchema },
    answers: 'transaction',
    idempotency: 'none',
    limit: 'join_code',
  },
} as const satisfies Record<string, TransactionActionEntry>

export type TransactionActionName = keyof typeof transactionActions

/** The actions in catalogue order, each with its name. */
export const catalogue: readonly (readonly [TransactionActionName, TransactionActionEntry])[] = Object.entries(transactionActions) as [
  TransactionActionName,
  TransactionActionEntry,
][]

/**
 * The name `available_actions` gives an action of this kind: its path, or
 * for the change of the transaction itself (`PATCH …/{id}`), its name.
 */
export function offeredAs(name: TransactionActionName, route: KindRoute): string {
  return route.action ?? (route.path === '' ? name : route.path)
}

/** The catalogue's actions of this kind among those offered, in catalogue order. */
export function offeredActions(
  kind: TransactionKind,
  available: readonly string[],
): (readonly [TransactionActionName, TransactionActionEntry])[] {
  return catalogue.filter(([name, entry]) => {
    const route = entry[kind]
    return route !== undefined && available.includes(offeredAs(name, route))
  })
}

/**
 * The fixed text a face-to-face cancellation sends (spec §4): the creator's
 * is "cancelled by creator"; the other party's names their role the same way.
 */
function cancellationText(viewer: ActionViewer): string {
  return viewer.role === viewer.creator_role || viewer.role === null ? creatorCancellationDescription : `cancelled by ${viewer.role}`
}

function proposeSummary(): string {
  return 'Offer how to split the price while a case is open; replaces the open offer (either party)'
}

function escalateSummary(): string {
  return "Take the case to Pactum: it joins the admins' queue, oldest first (either party)"
}

/** Accepting or declining names the offer answered, so an answer can never reach a newer one. */
function offerAnswer(answer: 'accept' | 'decline', summary: string): KindRoute {
  return { path: `settlement_offers/:offer_id/${answer}`, params: offerParamsSchema, action: `${answer}_settlement`, summary }
}

function resendSummary(): string {
  return 'Send the e-mail invitation again with a new link (creator, while unclaimed; at most once a minute, within the invitation limits)'
}
