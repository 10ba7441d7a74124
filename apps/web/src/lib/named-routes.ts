import { generatePath } from 'react-router'

/**
 * Every path the app knows, by name (spec §2 names the first group). Screens
 * link through `routeTo` so a path changes in one place.
 */
export const namedRoutes = {
  createTransaction: '/create-transaction',
  buildTransaction: '/build-transaction',
  personalDetails: '/profile/details',
  payoutPersonalDetails: '/profile/payout/personal',
  payoutBankDetails: '/profile/payment/bank-details',
  balance: '/profile/balance',
  payoutIdentityDocument: '/profile/payout/id-document',
  payout: '/profile/payout',
  account: '/profile/help/account',
  faq: '/profile/help/faq',
  contactUs: '/profile/help/contact-us',
  status: '/transactions/:id',
  transactions: '/transactions',
  listings: '/transactions/listings',
  joinTransaction: '/join-transaction',
  joinTransactionByCode: '/join-transaction/:id',
  joinListing: '/join-transaction/listing/:id',
  joinGuestTransaction: '/join-guest-transaction/:claim_secret/:type',
  joinGuestTransactionAsSeller: '/join-guest-transaction-as-seller/:claim_secret/:type',
  profile: '/profile',
  help: '/profile/help',
  login: '/login',
  register: '/register',
  authCallback: '/auth/callback',
  admin: '/admin',
  adminTransaction: '/admin/transactions/:id',
  adminAuditLog: '/admin/audit-log',
  adminCases: '/admin/cases',
  adminLedger: '/admin/ledger',
  adminReconciliation: '/admin/reconciliation',
  adminChargebacks: '/admin/chargebacks',
  adminClients: '/admin/clients',
  adminClientWebhooks: '/admin/clients/:clientId/webhooks',
  adminDevMailbox: '/admin/dev-mailbox',
  adminDevMail: '/admin/dev-mailbox/:id',
  verify: '/verify/:code',
} as const

export type RouteName = keyof typeof namedRoutes

type ParamNames<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? Param | ParamNames<Rest>
  : Path extends `${string}:${infer Param}`
    ? Param
    : never

type RouteParams<Name extends RouteName> = { [Key in ParamNames<(typeof namedRoutes)[Name]>]: string }

type RouteArgs<Name extends RouteName> =
  ParamNames<(typeof namedRoutes)[Name]> extends never
    ? [params?: Record<string, never>, query?: Record<string, string>]
    : [params: RouteParams<Name>, query?: Record<string, string>]

/** Builds the URL of a named route, e.g. `routeTo('status', { id })`. */
export function routeTo<Name extends RouteName>(name: Name, ...[params, query]: RouteArgs<Name>): string {
  const path = generatePath(namedRoutes[name] as string, params as Record<string, string> | undefined)
  const search = query ? new URLSearchParams(query).toString() : ''
  return search ? `${path}?${search}` : path
}
