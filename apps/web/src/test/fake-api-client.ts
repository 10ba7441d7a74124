import type { ErrorCode } from '@pactum/contracts/errors'
import type { F2fTransaction, TransactionSummary } from '@pactum/contracts/f2f-transactions'
import type { Transaction } from '@pactum/contracts/transactions'
import { vi } from 'vitest'
import type { ApiClient, ApiRequest } from '../lib/api/api-client.ts'
import { ApiError } from '../lib/api/api-error.ts'

export type FakeRoute = (request: ApiRequest & { path: string }) => unknown

/** An ApiError as the real client would throw it. */
export function apiError(status: number, code: ErrorCode, message: string = code, details?: Record<string, unknown>): ApiError {
  return new ApiError({ status, code, message, requestId: 'test-request', ...(details ? { details } : {}) })
}

/**
 * An API client double: `routes` maps `"METHOD /path"` to a handler (or a
 * value); a thrown error rejects the call. Unknown calls answer 404 not_found.
 * `request` is a spy, so tests can assert on paths, queries and bodies.
 */
export function fakeApiClient(routes: Record<string, unknown> = {}) {
  const request = vi.fn(async (path: string, init: ApiRequest = {}) => {
    const normalised = `/${path.replace(/^\//, '')}`
    const key = `${init.method ?? 'GET'} ${normalised}`
    if (!(key in routes)) throw apiError(404, 'not_found')
    const route = routes[key]
    return typeof route === 'function' ? await (route as FakeRoute)({ ...init, path: normalised }) : route
  })
  return { request: request as unknown as ApiClient['request'] & typeof request, arrived: () => undefined, routes }
}

/** The calls every signed-in page may make, answered as for a new user. */
export function defaultApiRoutes(): Record<string, unknown> {
  return {
    'GET /me/transactions': [],
    'GET /me/passkeys': [],
    'GET /me/totp': { enabled: false, since: null },
    // The account page lists the signed-in browsers (embedded sign-in).
    'GET /me/sessions': [],
    'GET /me/notification_preferences': { messages: true, reminders: true, updates: true },
  }
}

/** A transaction as the server would send it, with sensible defaults. */
export function fakeTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 'tx-1',
    type: 'online',
    status: 'created',
    role: 'seller',
    price: 1234,
    charge: 78,
    charge_seller: 0,
    charge_buyer_client: 0,
    charge_seller_client: 0,
    charge_calculator_version: 1,
    quantity: 1,
    currency: 'eur',
    payment_method: 'card',
    description: 'Red bicycle',
    join_code: null,
    verify_url: 'http://localhost:3000/verify/Xq3hV0cM2l9w1PnF7yTzAg',
    buyer_id: null,
    seller_id: 'user-1',
    client_id: null,
    listing_id: null,
    high_value: false,
    is_payment_in_progress: false,
    order_issue: null,
    tracking: null,
    complaint: null,
    chargeback: null,
    complaint_period_deadline: null,
    tracking_deadline: null,
    amount_released: 0,
    amount_refunded: 0,
    created: '2026-11-01T10:00:00.000Z',
    joined: null,
    paid: null,
    tracked: null,
    in_transit: null,
    receipt_confirmation_requested_at: null,
    delivered: null,
    complained: null,
    complaint_period_ended: null,
    funds_released: null,
    cancelled: null,
    rejected: null,
    cancelled_with_payment: null,
    payment_refunded: null,
    available_actions: [],
    ...overrides,
  }
}

/** A face-to-face transaction as the server would send it, with sensible defaults. */
export function fakeF2fTransaction(overrides: Partial<F2fTransaction> = {}): F2fTransaction {
  return {
    id: 'tx-1',
    type: 'f2f',
    status: 'created',
    role: 'seller',
    creator_role: 'seller',
    currency: 'eur',
    description: 'Cargo bike',
    join_code: null,
    verify_url: 'http://localhost:3000/verify/Xq3hV0cM2l9w1PnF7yTzAg',
    deposit_pricing: { price: 5_000, charge: 190, charge_seller: 0 },
    pricing: null,
    charge_calculator_version: 1,
    payment_method: 'card',
    buyer_id: null,
    seller_id: 'user-1',
    client_id: 'pactum-app',
    listing_id: null,
    high_value: false,
    show_seller_confirm_handover: true,
    is_payment_in_progress: false,
    complaint: null,
    chargeback: null,
    cancellation: null,
    complaint_period_deadline: null,
    amount_released: 0,
    amount_refunded: 0,
    created: '2026-11-01T10:00:00.000Z',
    joined: null,
    deposit_paid: null,
    deposit_accepted: null,
    priced: null,
    remainder_paid: null,
    remainder_skipped: null,
    seller_handover_confirmed: null,
    buyer_handover_confirmed: null,
    complained: null,
    complaint_period_ended: null,
    funds_released: null,
    cancelled: null,
    rejected: null,
    cancelled_with_deposit: null,
    deposit_refunded: null,
    payment_refunded: null,
    available_actions: [],
    ...overrides,
  }
}

/** A row of `GET /me/transactions?view=summary`, as the server would send it. */
export function fakeTransactionSummary(overrides: Partial<TransactionSummary> = {}): TransactionSummary {
  return {
    id: 'tx-1',
    type: 'online',
    status: 'created',
    role: 'seller',
    description: 'Red bicycle',
    currency: 'eur',
    listing_id: null,
    created: '2026-11-01T10:00:00.000Z',
    amount: 1234,
    counterparty_name: null,
    ...overrides,
  } as TransactionSummary
}
