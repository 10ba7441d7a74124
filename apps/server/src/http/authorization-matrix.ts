import type { ActionCaller } from '@pactum/contracts/transaction-actions'

/**
 * Who may call what: every route the server registers, and the answer each
 * kind of caller gets (issue 10). `authorization-matrix.test.ts` builds the
 * app, fails when a route is missing here or listed here but gone, and calls
 * every route as every caller to check these outcomes.
 *
 * Changing a row is changing who may do what: say why in the commit.
 *
 * The callers, as the test makes them: `buyer` and `seller` are the parties
 * of the transaction in the path (one online and one face-to-face sale,
 * both created by the seller and joined by the buyer); `stranger` is
 * another signed-in user; `admin` a signed-in user with the admin role;
 * `anonymous` sends no token.
 */
export const callers = ['buyer', 'seller', 'stranger', 'admin', 'anonymous'] as const
export type Caller = (typeof callers)[number]

/**
 * What a caller gets. Checks run in the order authentication →
 * authorization → input (docs/decisions/020-checks-run-authentication-authorization-input.md), so the refusals hold whatever
 * the request carries; the test sends anonymous and non-admin callers a
 * malformed request to show that.
 */
export type Outcome =
  /** Answered (2xx) for everyone, signed in or not. */
  | 'public'
  /** Past authentication and authorization: 2xx or a domain answer (400, 409, …), never one of the refusals below. */
  | 'allowed'
  /** 401 `unauthenticated`, before the body is looked at. */
  | 'unauthenticated'
  /** 403 `not_admin`, before the input is looked at. */
  | 'not_admin'
  /** 404 `not_found`: not a party of the transaction, which is not revealed to exist. */
  | 'not_found'
  /** 403 `not_buyer`: a party, but the step is the buyer's. */
  | 'not_buyer'
  /** 403 `not_seller`: a party, but the step is the seller's. */
  | 'not_seller'
  /** 403 `forbidden`: a party, but only the creator changes the offer (the domain's code for it). */
  | 'forbidden'
  /**
   * The sandbox provider's browser pages and calls, which stand in for
   * Stripe's and Plaid's own servers: no bearer token is asked for or looked
   * at; a secret in the request (the payment intent's or Identity session's
   * client secret, the single-use link token) is the authority. A wrong
   * secret answers 404 to everyone, a party included; the right one is
   * answered without any sign-in. Rate-limited per address and object.
   */
  | 'capability'
  /**
   * Provider webhooks: the `Pactum-Signature` (the tracking aggregator's
   * `aftership-hmac-sha256`) over the raw body is the authority, not a
   * bearer token. Unsigned or badly signed answers 400 `validation_failed`
   * (401 `unauthenticated` for the tracking webhook) to everyone; a good signature is accepted (200)
   * from anyone, anonymous included, as the provider's servers are.
   */
  | 'signature'
  /**
   * A partner client's API key (`X-Pactum-Api-Key`) is the authority, not a
   * bearer token: a missing or wrong key answers 401 `invalid_api_key` to
   * everyone; the right one is answered with nobody signed in.
   */
  | 'api_key'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
/** `METHOD /path` as registered, `:params` included. A GET's automatic HEAD twin is covered by its GET. */
export type RouteKey = `${Method} /${string}`
export type Row = Readonly<Record<Caller, Outcome>>

const everyone: Row = { buyer: 'public', seller: 'public', stranger: 'public', admin: 'public', anonymous: 'public' }
/** Anyone signed in, about their own account or data. */
const signedIn: Row = { buyer: 'allowed', seller: 'allowed', stranger: 'allowed', admin: 'allowed', anonymous: 'unauthenticated' }
/**
 * Join codes are the authority here: whoever is signed in and holds the code
 * may look and join (or decline), since the counterparty is no party yet.
 * The creator is past authorization too, and told `cannot_join_own_transaction`.
 */
const joinCodeHolder: Row = signedIn
/** Either party of the transaction; admins use the /admin routes, not these. */
const parties: Row = { buyer: 'allowed', seller: 'allowed', stranger: 'not_found', admin: 'not_found', anonymous: 'unauthenticated' }
const buyerStep: Row = { ...parties, seller: 'not_buyer' }
const sellerStep: Row = { ...parties, buyer: 'not_seller' }
/** The offer's terms, changed by the creator (the seller in the test) before anyone joins. */
const creatorStep: Row = { ...parties, buyer: 'forbidden' }
/** A seller's own listing (the seller's, in the test): anyone else is told it does not exist. */
const listingOwner: Row = { buyer: 'not_found', seller: 'allowed', stranger: 'not_found', admin: 'not_found', anonymous: 'unauthenticated' }
const adminOnly: Row = { buyer: 'not_admin', seller: 'not_admin', stranger: 'not_admin', admin: 'allowed', anonymous: 'unauthenticated' }
const bySecret: Row = { buyer: 'capability', seller: 'capability', stranger: 'capability', admin: 'capability', anonymous: 'capability' }
const byApiKey: Row = { buyer: 'api_key', seller: 'api_key', stranger: 'api_key', admin: 'api_key', anonymous: 'api_key' }
const bySignature: Row = { buyer: 'signature', seller: 'signature', stranger: 'signature', admin: 'signature', anonymous: 'signature' }

/**
 * The row each caller of the action catalogue (`@pactum/contracts/transaction-actions`)
 * must have: `action-routes.test.ts` checks every catalogue route's row here
 * against its entry's `who`, so the catalogue and this table cannot drift.
 */
export const actionCallerRows: Readonly<Record<ActionCaller, Row>> = {
  buyer: buyerStep,
  seller: sellerStep,
  parties,
  creator: creatorStep,
  code_holder: joinCodeHolder,
}

export const authorizationMatrix = {
  // Public: what the web app needs before anyone signs in (DESIGN §5).
  'GET /api/v1/health': everyone,
  'GET /api/v1/config': everyone,
  'GET /favicon.ico': everyone,
  // The link in every invitation e-mail that stops invitations to its address. Its token is an HMAC of
  // an address nobody sent, so no well-formed token can be told from a real one: any is taken (invitation-stops.ts).
  'GET /stop-invitations/:token': everyone,
  'POST /stop-invitations/:token': everyone,
  // The link at the foot of every optional e-mail: its token is an HMAC only this server makes (opt-out-links.ts),
  // any other answers 404, and it can only turn e-mails off.
  'GET /email-opt-out/:token': bySecret,
  'POST /email-opt-out/:token': bySecret,
  'GET /api/v1/supported_carriers': everyone,
  'GET /api/v1/supported_countries': everyone,
  'GET /api/v1/supported_notification_languages': everyone,
  'GET /api/v1/charge': everyone,
  'GET /api/v1/p2p/charge': everyone,
  // A partner client's look, asked for before sign-in from `?client_id=`.
  'GET /api/v1/clients/:client_id': everyone,
  // A sale's public verification (decision 114): the unguessable code is the authority, an unknown one answers 404 to
  // everyone, a known one is answered with nobody signed in. Rate-limited per address.
  'GET /api/v1/verify/:code': bySecret,
  'GET /api/v1/verify/:code/badge.svg': bySecret,

  // The signed-in user's own account.
  'GET /api/v1/me': signedIn,
  'GET /api/v1/me/batch': signedIn,
  'POST /api/v1/me/email_confirmation': signedIn,
  // Closes the caller's own account (issue 30): nobody else's can be named.
  'POST /api/v1/me/close_account': signedIn,
  // Changes the caller's own sign-in address (issue 30).
  'POST /api/v1/me/email': signedIn,
  // The caller's own passkeys (issue 30): the list, adding one, removing one of theirs.
  'GET /api/v1/me/passkeys': signedIn,
  'POST /api/v1/me/passkeys/registration_options': signedIn,
  'POST /api/v1/me/passkeys': signedIn,
  'DELETE /api/v1/me/passkeys/:passkey_id': signedIn,
  // The caller's own authenticator app (issue 30): its state, setting it up, removing it.
  'GET /api/v1/me/totp': signedIn,
  'POST /api/v1/me/totp/setup': signedIn,
  'POST /api/v1/me/totp': signedIn,
  'POST /api/v1/me/totp/remove': signedIn,
  'POST /api/v1/me/password': signedIn,
  'GET /api/v1/me/sessions': signedIn,
  'POST /api/v1/me/sessions/sign_out_others': signedIn,
  'GET /api/v1/me/guided_tour': signedIn,
  'POST /api/v1/me/guided_tour/seen': signedIn,
  'GET /api/v1/me/supported_currencies': signedIn,
  'GET /api/v1/me/supported_payout_currencies': signedIn,
  'GET /api/v1/me/supported_payment_methods': signedIn,
  'GET /api/v1/me/last_shipping_details': signedIn,
  'POST /api/v1/me/personal/set_active_country': signedIn,
  'POST /api/v1/me/accept_tos_direct': signedIn,
  'GET /api/v1/me/personal': signedIn,
  'PUT /api/v1/me/personal': signedIn,
  'GET /api/v1/me/personal/payout_requirements': signedIn,
  'GET /api/v1/me/personal/stripe_publishable_key': signedIn,
  'GET /api/v1/me/notification_language': signedIn,
  'POST /api/v1/me/notification_language': signedIn,
  'GET /api/v1/me/notification_preferences': signedIn,
  'PUT /api/v1/me/notification_preferences': signedIn,
  'GET /api/v1/me/debit_account': signedIn,
  'POST /api/v1/me/debit_account': signedIn,
  'GET /api/v1/me/plaid/link_token': signedIn,
  'POST /api/v1/me/plaid/link_bank_details': signedIn,
  'GET /api/v1/me/verification_method': signedIn,
  'GET /api/v1/me/verification_status': signedIn,
  'GET /api/v1/me/verification_session': signedIn,
  'GET /api/v1/me/account_session': signedIn,
  'POST /api/v1/me/account_onboarding_link': signedIn,
  'GET /api/v1/me/personal/:document/verification_status': signedIn,
  'POST /api/v1/me/personal/:document': signedIn,
  'POST /api/v1/me/personal/business_url': signedIn,
  'POST /app_api/contact_us': signedIn,
  'GET /app_api/balance': signedIn,
  'GET /app_api/payouts': signedIn,
  // Creating and listing one's own transactions.
  'POST /api/v1/me/transactions': signedIn,
  'GET /api/v1/me/transactions': signedIn,
  'POST /api/v1/p2p/me/transactions': signedIn,
  'GET /api/v1/p2p/me/transactions': signedIn,
  // Listings: the seller's own, and (by the listing id, the link's secret) anyone's preview and purchase.
  'POST /api/v1/me/listings': signedIn,
  'GET /api/v1/me/listings': signedIn,
  'PATCH /api/v1/me/listings/:id': listingOwner,
  'POST /api/v1/me/listings/:id/close': listingOwner,
  'GET /api/v1/single_use_listings/:id': everyone,
  'GET /api/v1/multi_use_listings/:id': everyone,
  'GET /api/v1/:listingType/:id': everyone,
  'GET /api/v1/listings/:id': everyone,
  'POST /api/v1/single_use_listings/:id/create_transaction': signedIn,
  'POST /api/v1/multi_use_listings/:id/create_transaction': signedIn,

  // Join codes.
  'GET /api/v1/transactions': joinCodeHolder,
  'PUT /api/v1/transactions': joinCodeHolder,
  'POST /api/v1/transactions/:id/reject': joinCodeHolder,
  'GET /api/v1/p2p/transactions_by_join_code/:code': joinCodeHolder,
  'POST /api/v1/p2p/transactions_by_join_code/:code/join': joinCodeHolder,
  'POST /api/v1/p2p/transactions/:id/reject': joinCodeHolder,
  // Guest invitations: the e-mailed link's secret is the authority, as a join code is.
  'GET /api/v1/transactions_by_claim_secret/:secret': joinCodeHolder,
  // The landing before sign-in (issue 33 item 8): the secret alone, for an invitee who may have no account yet.
  'GET /api/v1/guest_invitations/:secret': bySecret,
  'POST /api/v1/transactions_by_claim_secret/:secret/claim_as_buyer': joinCodeHolder,
  'POST /api/v1/transactions_by_claim_secret/:secret/claim_as_seller': joinCodeHolder,
  'POST /api/v1/p2p/transactions_by_claim_secret/:secret/claim_as_buyer': joinCodeHolder,
  'POST /api/v1/p2p/transactions_by_claim_secret/:secret/claim_as_seller': joinCodeHolder,
  'POST /api/v1/partner/guest_transactions': byApiKey,
  // A partner's own webhook endpoints and event feed (issue 35), by its API key only.
  'POST /api/v1/partner/webhook_endpoints': byApiKey,
  'GET /api/v1/partner/webhook_endpoints': byApiKey,
  'DELETE /api/v1/partner/webhook_endpoints/:id': byApiKey,
  'POST /api/v1/partner/webhook_endpoints/:id/rotate_secret': byApiKey,
  'POST /api/v1/partner/webhook_endpoints/:id/enable': byApiKey,
  'GET /api/v1/partner/events': byApiKey,
  'GET /api/v1/partner/transactions': byApiKey,
  'GET /api/v1/partner/transactions/:id': byApiKey,
  // A partner creates on behalf of its users by e-mail, and calls off one nobody has paid (decision 116).
  'POST /api/v1/partner/transactions': byApiKey,
  'POST /api/v1/partner/transactions/:id/cancel': byApiKey,

  // An online transaction.
  'GET /api/v1/transactions/:id': parties,
  'PATCH /api/v1/transactions/:id': creatorStep,
  // The creator's e-mail invitation, sent again (the test's sale has none: the creator gets a 409).
  'POST /api/v1/transactions/:id/resend_invitation': creatorStep,
  'GET /api/v1/transactions/:id/charge': parties,
  'GET /api/v1/transactions/:id/seller_details': parties,
  'GET /api/v1/transactions/:id/buyer_details': parties,
  'GET /api/v1/transactions/:id/shipping_details': parties,
  'GET /api/v1/transactions/:id/billing_details': parties,
  'POST /api/v1/transactions/:id/shipping_details': buyerStep,
  'POST /api/v1/transactions/:id/set_payment_method': buyerStep,
  'POST /api/v1/transactions/:id/pay': buyerStep,
  'GET /api/v1/transactions/:id/stripe_client_secret': buyerStep,
  'GET /api/v1/transactions/:id/stripe_publishable_key': parties,
  'POST /api/v1/transactions/:id/confirm_payment': buyerStep,
  'POST /api/v1/transactions/:id/submit_order_issue': buyerStep,
  'POST /api/v1/transactions/:id/track': sellerStep,
  'POST /api/v1/transactions/:id/confirm_delivery': buyerStep,
  'POST /api/v1/transactions/:id/request_receipt_confirmation': sellerStep,
  'POST /api/v1/transactions/:id/complain_with_description': buyerStep,
  'POST /api/v1/transactions/:id/end_complaint_period': buyerStep,
  'POST /api/v1/transactions/:id/accept_complaint': sellerStep,
  'POST /api/v1/transactions/:id/extend_tracking_deadline': buyerStep,
  // A case: either party offers, answers the other's offer, or takes it to an admin; both read it.
  'POST /api/v1/transactions/:id/settlement_offers': parties,
  'POST /api/v1/transactions/:id/settlement_offers/:offer_id/accept': parties,
  'POST /api/v1/transactions/:id/settlement_offers/:offer_id/decline': parties,
  'POST /api/v1/transactions/:id/escalate': parties,
  'GET /api/v1/transactions/:id/case': parties,
  // The case file as a PDF: the parties of a transaction with a complaint, and any admin through /admin.
  'GET /api/v1/transactions/:id/case_file': parties,
  'GET /api/v1/transactions/:id/receipt': parties,
  // The conversation (issue 32): either party reads and writes; others are not told it exists.
  'GET /api/v1/transactions/:id/messages': parties,
  'POST /api/v1/transactions/:id/messages': parties,
  'GET /api/v1/transactions/:id/messages/:message_id/attachment': parties,
  'POST /api/v1/transactions/:id/accept_listing_transaction': sellerStep,
  'POST /api/v1/transactions/:id/reject_listing_transaction': sellerStep,
  // Who may cancel depends on the state (the creator alone before joining, the seller alone once paid).
  'POST /api/v1/transactions/:id/cancel': parties,

  // A face-to-face transaction.
  'GET /api/v1/p2p/transactions/:id': parties,
  'PATCH /api/v1/p2p/transactions/:id': creatorStep,
  'POST /api/v1/p2p/transactions/:id/resend_invitation': creatorStep,
  'GET /api/v1/p2p/transactions/:id/charge': parties,
  'GET /api/v1/p2p/transactions/:id/seller_details': parties,
  'GET /api/v1/p2p/transactions/:id/buyer_details': parties,
  'GET /api/v1/p2p/transactions/:id/billing_details': parties,
  'POST /api/v1/p2p/transactions/:id/set_deposit_payment_method': buyerStep,
  'POST /api/v1/p2p/transactions/:id/pay_deposit': buyerStep,
  'GET /api/v1/p2p/transactions/:id/deposit_stripe_client_secret': buyerStep,
  'POST /api/v1/p2p/transactions/:id/pay_remainder': buyerStep,
  'GET /api/v1/p2p/transactions/:id/remainder_stripe_client_secret': buyerStep,
  'POST /api/v1/p2p/transactions/:id/confirm_payment': buyerStep,
  'POST /api/v1/p2p/transactions/:id/accept_deposit': sellerStep,
  'POST /api/v1/p2p/transactions/:id/set_price': sellerStep,
  'POST /api/v1/p2p/transactions/:id/skip_remainder': sellerStep,
  // The seller's step too unless the client hides it (then the seller gets not_buyer).
  'POST /api/v1/p2p/transactions/:id/confirm_handover': parties,
  'POST /api/v1/p2p/transactions/:id/complain': buyerStep,
  'POST /api/v1/p2p/transactions/:id/end_complaint_period': buyerStep,
  'POST /api/v1/p2p/transactions/:id/accept_complaint': sellerStep,
  'POST /api/v1/p2p/transactions/:id/settlement_offers': parties,
  'POST /api/v1/p2p/transactions/:id/settlement_offers/:offer_id/accept': parties,
  'POST /api/v1/p2p/transactions/:id/settlement_offers/:offer_id/decline': parties,
  'POST /api/v1/p2p/transactions/:id/escalate': parties,
  'GET /api/v1/p2p/transactions/:id/case': parties,
  'GET /api/v1/p2p/transactions/:id/case_file': parties,
  'GET /api/v1/p2p/transactions/:id/receipt': parties,
  'GET /api/v1/p2p/transactions/:id/messages': parties,
  'POST /api/v1/p2p/transactions/:id/messages': parties,
  'GET /api/v1/p2p/transactions/:id/messages/:message_id/attachment': parties,
  'POST /api/v1/p2p/transactions/:id/accept_listing_transaction': sellerStep,
  'POST /api/v1/p2p/transactions/:id/reject_listing_transaction': sellerStep,
  'POST /api/v1/p2p/transactions/:id/cancel_with_description': parties,

  // Administration.
  'GET /api/v1/admin/transactions': adminOnly,
  'POST /api/v1/admin/transactions/:id/confirm_delivery': adminOnly,
  'POST /api/v1/admin/transactions/:id/release_funds': adminOnly,
  'POST /api/v1/admin/transactions/:id/decide': adminOnly,
  'GET /api/v1/admin/cases': adminOnly,
  'GET /api/v1/admin/transactions/:id/case_file': adminOnly,
  'GET /api/v1/admin/transactions/:id/receipt': adminOnly,
  // An admin reads any conversation, and writes in it once the transaction has a complaint (the engine says 409 before).
  'GET /api/v1/admin/transactions/:id/messages': adminOnly,
  'POST /api/v1/admin/transactions/:id/messages': adminOnly,
  'GET /api/v1/admin/transactions/:id/messages/:message_id/attachment': adminOnly,
  'GET /api/v1/admin/transactions/:id': adminOnly,
  'GET /api/v1/admin/audit_log': adminOnly,
  'GET /api/v1/admin/clients': adminOnly,
  'POST /api/v1/admin/clients': adminOnly,
  'PUT /api/v1/admin/clients/:client_id': adminOnly,
  'POST /api/v1/admin/clients/:client_id/api_key': adminOnly,
  'DELETE /api/v1/admin/clients/:client_id/api_key': adminOnly,
  'POST /api/v1/admin/clients/:client_id/webhook_endpoints': adminOnly,
  'GET /api/v1/admin/clients/:client_id/webhook_endpoints': adminOnly,
  'DELETE /api/v1/admin/clients/:client_id/webhook_endpoints/:id': adminOnly,
  'POST /api/v1/admin/clients/:client_id/webhook_endpoints/:id/rotate_secret': adminOnly,
  'POST /api/v1/admin/clients/:client_id/webhook_endpoints/:id/enable': adminOnly,
  'GET /api/v1/admin/clients/:client_id/webhook_endpoints/:id/deliveries': adminOnly,
  'POST /api/v1/admin/clients/:client_id/webhook_endpoints/:id/replay': adminOnly,
  'GET /api/v1/admin/client_changes': adminOnly,
  'GET /api/v1/admin/ledger/verify': adminOnly,
  // A backup of the embedded database for the command line (issue 37).
  'GET /api/v1/admin/backup': adminOnly,
  // A stuck outbox call sent again (docs/operations.md, "Outbox failing").
  'POST /api/v1/admin/outbox/:id/retry': adminOnly,
  'GET /api/v1/admin/long_holds': adminOnly,
  // The daily reconciliation with the payment provider (decision 107).
  'GET /api/v1/admin/reconciliation': adminOnly,
  'POST /api/v1/admin/reconciliation/runs': adminOnly,
  'POST /api/v1/admin/reconciliation/differences/:id/explain': adminOnly,
  // Card disputes and early fraud warnings (decision 109); the sandbox's dispute actions exist only with the sandbox provider.
  'GET /api/v1/admin/chargebacks': adminOnly,
  'POST /api/v1/admin/chargebacks/:id/evidence': adminOnly,
  'POST /api/v1/admin/chargebacks/:id/accept': adminOnly,
  'POST /api/v1/admin/chargebacks/:id/recover': adminOnly,
  'POST /api/v1/admin/transactions/:id/clear_fraud_warning': adminOnly,
  'POST /api/v1/admin/sandbox/disputes': adminOnly,
  'POST /api/v1/admin/sandbox/disputes/:id/decide': adminOnly,
  // Sandbox mode only (404 with SMTP): the e-mails the file mailer wrote.
  'GET /api/v1/admin/dev_mailbox': adminOnly,
  'GET /api/v1/admin/dev_mailbox/:id': adminOnly,

  // The payment provider's webhook.
  'POST /webhooks/sandbox': bySignature,
  // The tracking aggregator's webhook (only with TRACKING_API_KEY): its HMAC
  // over the raw body; a bad one answers 401 unauthenticated.
  'POST /webhooks/tracking': bySignature,

  // The sandbox provider's own browser API and pages (what Stripe.js, Stripe's
  // hosted pages and Plaid Link talk to in production).
  'GET /sandbox/v1/payment_intents/:id': bySecret,
  'POST /sandbox/v1/payment_intents/:id/confirm': bySecret,
  'GET /sandbox/p24/:id': bySecret,
  'POST /sandbox/p24/:id': bySecret,
  'GET /sandbox/identity/:id': bySecret,
  'POST /sandbox/identity/:id': bySecret,
  'POST /sandbox/plaid/link/:link_token/complete': bySecret,
} as const satisfies Record<RouteKey, Row>

export type MatrixRoute = keyof typeof authorizationMatrix

/** Registered routes the matrix leaves out, by path prefix, and why. */
export const excludedRoutes: ReadonlyArray<{ prefix: string; reason: string }> = [
  {
    prefix: '/oidc/',
    reason:
      'the embedded sign-in: its pages (and their fonts) are how a token is obtained, authorised by the sign-in interaction and e-mailed links, tested in oidc/',
  },
  { prefix: '/api/docs', reason: 'the OpenAPI document and its viewer: public, generated by @fastify/swagger from the routes above' },
]

/*
 * Not routes, so not listed: oidc-provider's own endpoints (mounted through
 * middie under /oidc) and the web app (static files and the index.html
 * fallback for the browser's paths, registered only when the web app is
 * built; public, as any web page is).
 */
