import { Configuration, CountryCode, DepositoryAccountSubtype, PlaidApi, Products } from 'plaid'
import type { BankLink, BankLinkExchangeResult, BankLinkItem } from './port.ts'

/**
 * Plaid behind the bank-link port, with Plaid's Stripe processor
 * integration: the link token asks for Auth on US accounts; the browser's
 * Plaid Link gives a public token and the account the seller chose; the
 * server exchanges the public token for an access token and has Plaid make
 * a Stripe bank-account token (`btok_…`) for that account, which the payment
 * provider attaches to the seller's connected account. Pactum never sees the
 * account number. The access token is handed back with the account: it is
 * needed only to remove the Item (`/item/remove`) once the seller replaces
 * the bank account or closes the Pactum account, long after Stripe attached
 * the token (docs/decisions/105-providers-as-they-behave.md).
 *
 * `client_id` and `secret` go in each request's body, as Plaid's API
 * reference has them; they are never logged (axios does not log).
 */
export interface PlaidBankLinkOptions {
  clientId: string
  secret: string
  /** Plaid's API base: https://sandbox.plaid.com, https://production.plaid.com, or a local fake in tests. */
  apiUrl: string
  /** The name Plaid Link shows the seller. */
  clientName?: string
}

/** Plaid's error codes that mean "the seller's bank link did not work" rather than "our request was wrong". */
const institutionErrors = new Set([
  'ITEM_LOGIN_REQUIRED',
  'ITEM_LOCKED',
  'ITEM_NOT_SUPPORTED',
  'NO_AUTH_ACCOUNTS',
  'NO_ACCOUNTS',
  'INSTITUTION_DOWN',
  'INSTITUTION_NOT_RESPONDING',
  'INSTITUTION_NOT_AVAILABLE',
  'INSTITUTION_NO_LONGER_SUPPORTED',
  'PRODUCT_NOT_READY',
])
const invalidTokenErrors = new Set(['INVALID_PUBLIC_TOKEN', 'INVALID_ACCESS_TOKEN'])

/** What Plaid answers with a 4xx/5xx: `{error_type, error_code, error_message, display_message, request_id}`. */
function plaidErrorCode(error: unknown): string | undefined {
  const data = (error as { response?: { data?: unknown } }).response?.data
  if (data && typeof data === 'object' && 'error_code' in data && typeof data.error_code === 'string') return data.error_code
  return undefined
}

/** An error for our logs: Plaid's code and request id, never the request (it carries the secret and tokens). */
export class PlaidRequestError extends Error {
  readonly plaidErrorCode: string | undefined
  constructor(operation: string, error: unknown) {
    const code = plaidErrorCode(error)
    const requestId = (error as { response?: { data?: { request_id?: unknown } } }).response?.data?.request_id
    const status = (error as { response?: { status?: unknown } }).response?.status
    super(
      `Plaid ${operation} failed: ${code ?? (status ? `HTTP ${String(status)}` : 'no answer')}${typeof requestId === 'string' ? ` (request ${requestId})` : ''}`,
    )
    this.name = 'PlaidRequestError'
    this.plaidErrorCode = code
  }
}

export class PlaidBankLink implements BankLink {
  readonly name = 'plaid'
  readonly #api: PlaidApi
  readonly #credentials: { client_id: string; secret: string }
  readonly #clientName: string

  constructor(options: PlaidBankLinkOptions) {
    // No retries here: the seller clicks again, and a link token or an exchange is cheap to ask for anew.
    this.#api = new PlaidApi(new Configuration({ basePath: options.apiUrl, baseOptions: { timeout: 15_000 } }))
    this.#credentials = { client_id: options.clientId, secret: options.secret }
    this.#clientName = options.clientName ?? 'Pactum'
  }

  async createLinkToken(input: { userId: string; now: Date }): Promise<{ linkToken: string; expiresAt: Date }> {
    try {
      const { data } = await this.#api.linkTokenCreate({
        ...this.#credentials,
        client_name: this.#clientName,
        language: 'en',
        country_codes: [CountryCode.Us],
        user: { client_user_id: input.userId },
        products: [Products.Auth],
        // Payouts go to checking or savings accounts only.
        account_filters: { depository: { account_subtypes: [DepositoryAccountSubtype.Checking, DepositoryAccountSubtype.Savings] } },
      })
      return { linkToken: data.link_token, expiresAt: new Date(data.expiration) }
    } catch (error) {
      throw new PlaidRequestError('/link/token/create', error)
    }
  }

  async exchangePublicToken(input: { userId: string; publicToken: string; accountId: string; now: Date }): Promise<BankLinkExchangeResult> {
    let accessToken: string
    let itemId: string
    try {
      const { data } = await this.#api.itemPublicTokenExchange({ ...this.#credentials, public_token: input.publicToken })
      accessToken = data.access_token
      itemId = data.item_id
    } catch (error) {
      return this.#refusal('/item/public_token/exchange', error)
    }
    let operation = '/accounts/get'
    try {
      const { data: accounts } = await this.#api.accountsGet({ ...this.#credentials, access_token: accessToken })
      const account = accounts.accounts.find((candidate) => candidate.account_id === input.accountId)
      if (!account) return { ok: false, reason: 'invalid_account_id', message: 'Not an account of this bank link' }
      if (account.type !== 'depository' || (account.subtype !== 'checking' && account.subtype !== 'savings')) {
        return { ok: false, reason: 'invalid_account_id', message: 'Payouts go to a checking or savings account: choose one of those' }
      }
      operation = '/processor/stripe/bank_account_token/create'
      const { data: processor } = await this.#api.processorStripeBankAccountTokenCreate({
        ...this.#credentials,
        access_token: accessToken,
        account_id: account.account_id,
      })
      return {
        ok: true,
        account: {
          destination: { kind: 'provider_token', token: processor.stripe_bank_account_token },
          mask: account.mask,
          accountType: account.subtype,
          bankName: accounts.item.institution_name ?? account.official_name ?? account.name,
          country: 'us',
          currency: 'usd',
        },
        item: { itemId, accessToken },
      }
    } catch (error) {
      return this.#refusal(operation, error)
    }
  }

  async removeItem(item: BankLinkItem): Promise<void> {
    try {
      await this.#api.itemRemove({ ...this.#credentials, access_token: item.accessToken })
    } catch (error) {
      // Plaid no longer knows the token: the Item was removed (a retry after a lost answer).
      if (plaidErrorCode(error) === 'INVALID_ACCESS_TOKEN' || plaidErrorCode(error) === 'ITEM_NOT_FOUND') return
      throw new PlaidRequestError('/item/remove', error)
    }
  }

  /** A seller's link that did not work is a refusal they can act on; anything else is our fault or Plaid's, and thrown. */
  #refusal(operation: string, error: unknown): BankLinkExchangeResult {
    const code = plaidErrorCode(error)
    if (code && invalidTokenErrors.has(code)) {
      return { ok: false, reason: 'invalid_public_token', message: 'The bank link has expired or was already used: link your bank again' }
    }
    if (code === 'INVALID_ACCOUNT_ID') return { ok: false, reason: 'invalid_account_id', message: 'Not an account of this bank link' }
    if (code && institutionErrors.has(code)) {
      return {
        ok: false,
        reason: 'institution_error',
        message: 'Your bank could not be linked: try again or enter your bank details manually',
      }
    }
    throw new PlaidRequestError(operation, error)
  }
}
