import type { IncomingHttpHeaders } from 'node:http'
import type { fakeConnect } from './connect.ts'
import type { fakeDisputes } from './disputes.ts'
import type { fakeIdentity } from './identity.ts'
import type { fakePayments } from './payments.ts'
import type { Json, StripeStore } from './store.ts'
import type { fakeTransfers } from './transfers.ts'
import { type FormObject, invalidRequest, list, listPage, missing, record, StripeFakeError, text } from './wire.ts'

/*
 * Which of the Stripe fake's parts answers a request: the key that may
 * call, the parameters each write takes, and the route from method and
 * path to the part's function.
 */

/** The parameters each write takes, as Stripe refuses any other (`parameter_unknown`): a typo in the adapter fails its tests. */
export const allowedParams: Record<string, string[]> = {
  'POST payment_intents': ['amount', 'currency', 'allowed_payment_method_types', 'transfer_group', 'metadata', 'description', 'expand'],
  'POST payment_intents/:id/confirm': ['client_secret', 'payment_method', 'payment_method_data', 'return_url', 'mandate_data', 'expand'],
  'POST payment_intents/:id/cancel': ['cancellation_reason', 'expand'],
  'POST refunds': ['payment_intent', 'amount', 'metadata', 'reason', 'expand'],
  'POST transfers': ['amount', 'currency', 'destination', 'source_transaction', 'transfer_group', 'metadata', 'description', 'expand'],
  'POST accounts': ['country', 'email', 'business_type', 'capabilities', 'controller', 'metadata', 'tos_acceptance', 'expand'],
  'POST accounts/:id': ['individual', 'business_profile', 'metadata', 'tos_acceptance', 'expand'],
  'POST account_links': ['account', 'type', 'collection_options', 'return_url', 'refresh_url', 'expand'],
  'POST accounts/:id/external_accounts': ['external_account', 'default_for_currency', 'metadata', 'expand'],
  'POST identity/:id': ['type', 'return_url', 'metadata', 'options', 'related_person', 'expand'],
  'POST account_sessions': ['account', 'components', 'expand'],
  'POST disputes/:id': ['evidence', 'metadata', 'submit', 'intended_submission_method', 'expand'],
  'POST disputes/:id/close': ['expand'],
  'POST transfers/:id/reversals': ['amount', 'description', 'metadata', 'refund_application_fee', 'expand'],
}

interface Parts {
  payments: ReturnType<typeof fakePayments>
  transfers: ReturnType<typeof fakeTransfers>
  connect: ReturnType<typeof fakeConnect>
  identity: ReturnType<typeof fakeIdentity>
  disputes: ReturnType<typeof fakeDisputes>
}

export function fakeRoutes(store: StripeStore, { payments, transfers, connect, identity, disputes }: Parts) {
  const { intents, charges, files, events, accountOf } = store

  /** A balance transaction's source, expanded (`expand[]=data.source`). */
  function sourceOf(id: string): Json | string {
    return charges.get(id) ?? store.refunds.get(id) ?? store.transfers.get(id) ?? store.payouts.get(id) ?? id
  }

  function authorised(headers: IncomingHttpHeaders, method: string, path: string, params: FormObject): boolean {
    const bearer = headers.authorization
    if (bearer === `Bearer ${store.secretKey}`) return true
    // Stripe.js confirms with the publishable key and the intent's client secret.
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path)
    return (
      method === 'POST' &&
      bearer === `Bearer ${store.publishableKey}` &&
      !!confirm &&
      intents.get(confirm[1] as string)?.client_secret === params.client_secret
    )
  }

  function route(
    method: string,
    path: string,
    params: FormObject,
    account: string | undefined,
    body: Buffer,
    contentType: string,
  ): { status?: number; body: unknown; raw?: Buffer } {
    const expand = list(params.expand)
    const segments = path.split('/').filter(Boolean).slice(1)
    const [resource, id, action, subId] = segments
    if (account) accountOf(account)
    const routeKey = `${method} ${resource}${id ? '/:id' : ''}${action && resource !== 'identity' ? `/${action}` : ''}${subId ? '/:sub' : ''}`
    const allowed = allowedParams[routeKey]
    const unknown = allowed ? Object.keys(params).filter((name) => !allowed.includes(name)) : []
    if (unknown.length > 0)
      throw invalidRequest(`Received unknown parameter: ${unknown[0] as string}`, {
        code: 'parameter_unknown',
        param: unknown[0] as string,
      })
    if (resource === 'identity') return identity.identityRoute(method, id ?? '', action, params, expand)
    switch (routeKey) {
      case 'POST payment_intents':
        return { body: payments.intentView(payments.createIntent(params), expand) }
      case 'GET payment_intents/:id': {
        const intent = intents.get(id as string)
        if (!intent) throw missing('payment_intent', id as string)
        return { body: payments.intentView(intent, expand) }
      }
      case 'POST payment_intents/:id/confirm': {
        const intent = intents.get(id as string)
        if (!intent) throw missing('payment_intent', id as string)
        return { body: payments.intentView(payments.confirmIntent(intent, params), expand) }
      }
      case 'POST payment_intents/:id/cancel': {
        const intent = intents.get(id as string)
        if (!intent) throw missing('payment_intent', id as string)
        return { body: payments.intentView(payments.cancelIntent(intent, params), expand) }
      }
      case 'GET charges': {
        const group = text(params.transfer_group)
        const found = [...charges.values()]
          .filter((charge) => !group || charge.transfer_group === group)
          .reverse()
          .map((charge) =>
            expand.includes('data.balance_transaction')
              ? { ...charge, balance_transaction: store.balanceTransactions.get(charge.balance_transaction as string) }
              : charge,
          )
        return { body: listPage(found, params, '/v1/charges') }
      }
      case 'GET charges/:id': {
        const charge = charges.get(id as string)
        if (!charge) throw missing('charge', id as string)
        return {
          body: expand.includes('balance_transaction')
            ? { ...charge, balance_transaction: store.balanceTransactions.get(charge.balance_transaction as string) }
            : charge,
        }
      }
      case 'GET balance_transactions': {
        // Newest first, as Stripe lists; `created` takes gt, gte, lt and lte (Unix seconds).
        const created = record(params.created)
        const bound = (name: string) => (text(created[name]) === undefined ? undefined : Number(text(created[name])))
        const [gt, gte, lt, lte] = [bound('gt'), bound('gte'), bound('lt'), bound('lte')]
        const found = [...store.balanceTransactions.values()]
          .filter((balance) => {
            const at = balance.created as number
            return (
              (gt === undefined || at > gt) &&
              (gte === undefined || at >= gte) &&
              (lt === undefined || at < lt) &&
              (lte === undefined || at <= lte)
            )
          })
          .reverse()
          .map((balance) => (expand.includes('data.source') ? { ...balance, source: sourceOf(balance.source as string) } : balance))
        return { body: listPage(found, params, '/v1/balance_transactions') }
      }
      case 'GET balance_transactions/:id': {
        const found = store.balanceTransactions.get(id as string)
        if (!found) throw missing('balance_transaction', id as string)
        return { body: found }
      }
      case 'POST refunds':
        return { body: payments.createRefund(params) }
      case 'GET refunds':
        return { body: listPage(payments.refundsOf(text(params.payment_intent)), params, '/v1/refunds') }
      case 'GET account':
        return {
          body: {
            id: 'acct_platform',
            object: 'account',
            country: store.platformCountry,
            type: 'standard',
            charges_enabled: true,
            details_submitted: true,
            email: null,
            payouts_enabled: true,
          },
        }
      case 'POST accounts':
        return { body: connect.createAccount(params) }
      case 'GET accounts/:id':
        return { body: accountOf(id as string, 'id') }
      case 'POST accounts/:id': {
        const found = accountOf(id as string, 'id')
        connect.updateAccount(found, params)
        return { body: found }
      }
      case 'POST accounts/:id/external_accounts':
        return { body: connect.addBankAccount(accountOf(id as string, 'id'), params) }
      case 'GET accounts/:id/external_accounts': {
        const banks = (accountOf(id as string, 'id').external_accounts as Json).data as Json[]
        return { body: listPage(banks, params, `/v1/accounts/${id as string}/external_accounts`) }
      }
      case 'DELETE accounts/:id/external_accounts/:sub':
        return { body: connect.deleteBankAccount(accountOf(id as string, 'id'), subId) }
      case 'POST transfers':
        return { body: transfers.createTransfer(params) }
      case 'GET transfers': {
        const destination = text(params.destination)
        const group = text(params.transfer_group)
        const found = [...store.transfers.values()]
          .filter((transfer) => (!destination || transfer.destination === destination) && (!group || transfer.transfer_group === group))
          .reverse()
        return { body: listPage(found, params, '/v1/transfers') }
      }
      case 'POST transfers/:id/reversals':
        return { body: disputes.reverseTransfer(id as string, params) }
      case 'GET disputes/:id':
        return { body: disputes.disputeOf(id as string) }
      case 'POST disputes/:id':
        return { body: disputes.updateDispute(id as string, params) }
      case 'POST disputes/:id/close':
        return { body: disputes.closeDispute(id as string) }
      case 'GET balance':
        if (!account) throw invalidRequest('Pactum reads balances of connected accounts only', { param: 'Stripe-Account' })
        return { body: transfers.balanceOf(account) }
      case 'GET payouts':
        return { body: listPage(transfers.payoutsOf(account, expand), params, '/v1/payouts') }
      case 'POST files':
        return { body: identity.upload(body, contentType, account) }
      case 'GET files/:id': {
        const file = files.get(id as string)
        if (!file || file.account !== account) throw missing('file', id as string)
        return { body: file.object }
      }
      case 'GET files/:id/contents': {
        const file = files.get(id as string)
        if (!file || file.account !== account) throw missing('file', id as string)
        return { body: null, raw: file.data }
      }
      case 'POST account_links':
        return { body: connect.accountLink(params) }
      case 'POST account_sessions':
        return { body: connect.accountSession(params) }
      case 'GET events': {
        const created = record(params.created)
        const gte = Number(text(created.gte) ?? 0)
        const types = list(params.types)
        // The platform's list holds its own events; a connected account's (with `Stripe-Account`) holds that account's
        // ("Connect webhooks": events on connected accounts carry `account`; "Making API calls for connected accounts").
        const found = events.filter(
          (event) =>
            (event.created as number) >= gte &&
            (types.length === 0 || types.includes(event.type as string)) &&
            (account ? event.account === account : event.account === undefined),
        )
        return { body: listPage(found, params, '/v1/events') }
      }
      default:
        throw new StripeFakeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` })
    }
  }

  return { authorised, route }
}
