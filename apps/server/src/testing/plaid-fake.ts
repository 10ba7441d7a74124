import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedPlaidRequest {
  path: string
  headers: IncomingHttpHeaders
  /** The JSON body as sent, secret included: for assertions only, never print it. */
  body: Record<string, unknown>
}

export interface FakePlaidAccount {
  account_id: string
  mask: string
  name: string
  official_name: string
  type: 'depository' | 'credit'
  subtype: 'checking' | 'savings' | 'credit card'
}

interface FakeItem {
  itemId: string
  clientUserId: string | null
  accounts: FakePlaidAccount[]
  /** Set by a test: the bank wants the user to log in again (Plaid's ITEM_LOGIN_REQUIRED). */
  error: string | null
}

interface LinkToken {
  clientUserId: string
  expiresAt: number
  used: boolean
}

interface PublicToken {
  item: FakeItem
  expiresAt: number
  used: boolean
}

export interface PlaidFake {
  /** The API base, as PLAID_API_URL. */
  url: string
  clientId: string
  secret: string
  requests: RecordedPlaidRequest[]
  /** What Plaid Link does in the browser when the user logs in (user_good / pass_good) and picks their accounts: spends the link token, answers a public token. */
  completeLink(linkToken: string): { publicToken: string; accounts: FakePlaidAccount[] }
  /** The bank asks the user to log in again before the server exchanges: later calls on the Item answer ITEM_LOGIN_REQUIRED. */
  requireLogin(publicToken: string): void
  /** The next `count` calls answer 500 INTERNAL_SERVER_ERROR (an outage). */
  failNext(count: number): void
  /** Every Stripe bank-account token the fake has made, with the account it is for. */
  stripeTokens: Map<string, { itemId: string; accountId: string }>
  /** The Items that exist at Plaid now: exchanged and not removed by `/item/remove`. */
  liveItems(): string[]
  /** The Items `/item/remove` removed, in order. */
  removedItems: string[]
  close(): Promise<void>
}

const linkTokenTtlMs = 4 * 60 * 60 * 1000
const publicTokenTtlMs = 30 * 60 * 1000

type Answer = { status: number; body: unknown }

function requestId(): string {
  return randomBytes(8).toString('hex')
}

/** Plaid's error body (https://plaid.com/docs/errors/). */
function plaidError(status: number, errorType: string, errorCode: string, message: string): Answer {
  return {
    status,
    body: {
      error_type: errorType,
      error_code: errorCode,
      error_message: message,
      display_message: null,
      request_id: requestId(),
      suggested_action: null,
    },
  }
}

function sandboxAccounts(): FakePlaidAccount[] {
  // Plaid's sandbox institutions give these accounts (masks 0000, 1111, 3333) to user_good.
  const id = () => randomBytes(16).toString('base64url')
  return [
    {
      account_id: id(),
      mask: '0000',
      name: 'Plaid Checking',
      official_name: 'Plaid Gold Standard 0% Interest Checking',
      type: 'depository',
      subtype: 'checking',
    },
    {
      account_id: id(),
      mask: '1111',
      name: 'Plaid Saving',
      official_name: 'Plaid Silver Standard 0.1% Interest Saving',
      type: 'depository',
      subtype: 'savings',
    },
    {
      account_id: id(),
      mask: '3333',
      name: 'Plaid Credit Card',
      official_name: 'Plaid Diamond 12.5% APR Interest Credit Card',
      type: 'credit',
      subtype: 'credit card',
    },
  ]
}

/**
 * A stateful stand-in for Plaid's API, for tests: every call must be a JSON
 * POST carrying `client_id` and `secret` in the body (or Plaid's
 * PLAID-CLIENT-ID / PLAID-SECRET headers), as Plaid's reference has it, and
 * the Plaid-Version header the SDK sends. It keeps link tokens (single use,
 * 4 h), public tokens (single use, 30 min), access tokens and Items, and
 * follows the processor flow: link token → (Link in the browser, here
 * `completeLink`, or `/sandbox/public_token/create`) → public token →
 * `/item/public_token/exchange` → access token → `/accounts/get` and
 * `/processor/stripe/bank_account_token/create` → `btok_…`; `/item/remove`
 * with a valid access token removes the Item, after which the token is
 * unknown (INVALID_ACCESS_TOKEN), as Plaid's reference says
 * (https://plaid.com/docs/api/items/#itemremove). Errors come in
 * Plaid's shape and codes (INVALID_API_KEYS, INVALID_PUBLIC_TOKEN,
 * INVALID_ACCESS_TOKEN, INVALID_ACCOUNT_ID, ITEM_LOGIN_REQUIRED,
 * INTERNAL_SERVER_ERROR).
 *
 * The Stripe tokens end with the account's mask (`btok_…0000`): the sandbox
 * payment provider reads its last four digits as the account's, so a test
 * sees the mask come through. Real tokens are opaque.
 */
export async function startPlaidFake(): Promise<PlaidFake> {
  const clientId = randomBytes(12).toString('hex')
  const secret = randomBytes(15).toString('hex')
  const requests: RecordedPlaidRequest[] = []
  const linkTokens = new Map<string, LinkToken>()
  const publicTokens = new Map<string, PublicToken>()
  const accessTokens = new Map<string, FakeItem>()
  const stripeTokens = new Map<string, { itemId: string; accountId: string }>()
  const removedItems: string[] = []
  let failures = 0

  const newItem = (clientUserId: string | null): FakeItem => ({
    itemId: randomBytes(16).toString('base64url'),
    clientUserId,
    accounts: sandboxAccounts(),
    error: null,
  })
  const issuePublicToken = (item: FakeItem) => {
    const publicToken = `public-sandbox-${randomUUID()}`
    publicTokens.set(publicToken, { item, expiresAt: Date.now() + publicTokenTtlMs, used: false })
    return publicToken
  }

  const knownItemOf = (body: Record<string, unknown>): FakeItem | Answer => {
    const item = typeof body.access_token === 'string' ? accessTokens.get(body.access_token) : undefined
    if (!item)
      return plaidError(400, 'INVALID_INPUT', 'INVALID_ACCESS_TOKEN', 'provided access token is in an invalid format or does not exist')
    return item
  }
  const itemOf = (body: Record<string, unknown>): FakeItem | Answer => {
    const item = knownItemOf(body)
    if ('status' in item) return item
    if (item.error)
      return plaidError(
        400,
        'ITEM_ERROR',
        item.error,
        'the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information',
      )
    return item
  }

  function route(path: string, headers: IncomingHttpHeaders, body: Record<string, unknown>): Answer {
    const givenClientId = body.client_id ?? headers['plaid-client-id']
    const givenSecret = body.secret ?? headers['plaid-secret']
    if (givenClientId === undefined || givenSecret === undefined) {
      return plaidError(400, 'INVALID_REQUEST', 'MISSING_FIELDS', 'the following required fields are missing: client_id, secret')
    }
    if (givenClientId !== clientId || givenSecret !== secret) {
      return plaidError(400, 'INVALID_INPUT', 'INVALID_API_KEYS', 'invalid client_id or secret provided')
    }
    if (failures > 0) {
      failures -= 1
      return plaidError(500, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'an unexpected error occurred')
    }
    switch (path) {
      case '/link/token/create': {
        const user = body.user as { client_user_id?: unknown } | undefined
        const missing = [
          typeof body.client_name === 'string' && body.client_name ? null : 'client_name',
          typeof body.language === 'string' ? null : 'language',
          Array.isArray(body.country_codes) && body.country_codes.length > 0 ? null : 'country_codes',
          typeof user?.client_user_id === 'string' && user.client_user_id ? null : 'user.client_user_id',
        ].filter(Boolean)
        if (missing.length > 0)
          return plaidError(400, 'INVALID_REQUEST', 'MISSING_FIELDS', `the following required fields are missing: ${missing.join(', ')}`)
        if (!Array.isArray(body.products) || !body.products.includes('auth')) {
          return plaidError(400, 'INVALID_REQUEST', 'INVALID_FIELD', 'products must include auth for a processor token')
        }
        const linkToken = `link-sandbox-${randomUUID()}`
        const expiresAt = Date.now() + linkTokenTtlMs
        linkTokens.set(linkToken, { clientUserId: user?.client_user_id as string, expiresAt, used: false })
        return { status: 200, body: { link_token: linkToken, expiration: new Date(expiresAt).toISOString(), request_id: requestId() } }
      }
      case '/sandbox/public_token/create': {
        if (typeof body.institution_id !== 'string' || !Array.isArray(body.initial_products)) {
          return plaidError(
            400,
            'INVALID_REQUEST',
            'MISSING_FIELDS',
            'the following required fields are missing: institution_id, initial_products',
          )
        }
        const options = (body.options ?? {}) as { override_username?: unknown; override_password?: unknown }
        if ((options.override_username ?? 'user_good') !== 'user_good' || (options.override_password ?? 'pass_good') !== 'pass_good') {
          return plaidError(400, 'ITEM_ERROR', 'INVALID_CREDENTIALS', 'the provided credentials were not correct')
        }
        return { status: 200, body: { public_token: issuePublicToken(newItem(null)), request_id: requestId() } }
      }
      case '/item/public_token/exchange': {
        const entry = typeof body.public_token === 'string' ? publicTokens.get(body.public_token) : undefined
        if (!entry || entry.used || entry.expiresAt < Date.now()) {
          return plaidError(
            400,
            'INVALID_INPUT',
            'INVALID_PUBLIC_TOKEN',
            'provided public token is expired. Public tokens expire 30 minutes after creation at which point they can no longer be exchanged',
          )
        }
        entry.used = true
        const accessToken = `access-sandbox-${randomUUID()}`
        accessTokens.set(accessToken, entry.item)
        return { status: 200, body: { access_token: accessToken, item_id: entry.item.itemId, request_id: requestId() } }
      }
      case '/accounts/get': {
        const item = itemOf(body)
        if ('status' in item) return item
        const accounts = item.accounts.map((account) => ({
          ...account,
          balances: { available: 100, current: 110, iso_currency_code: 'USD', limit: null, unofficial_currency_code: null },
        }))
        return {
          status: 200,
          body: {
            accounts,
            item: {
              item_id: item.itemId,
              institution_id: 'ins_109508',
              institution_name: 'First Platypus Bank',
              products: ['auth'],
              error: null,
            },
            request_id: requestId(),
          },
        }
      }
      case '/processor/stripe/bank_account_token/create': {
        const item = itemOf(body)
        if ('status' in item) return item
        const account = item.accounts.find((candidate) => candidate.account_id === body.account_id)
        if (!account) return plaidError(400, 'INVALID_INPUT', 'INVALID_ACCOUNT_ID', 'one or more of the account IDs is invalid')
        if (account.type !== 'depository')
          return plaidError(400, 'INVALID_REQUEST', 'INVALID_FIELD', 'the account is not a depository account')
        const token = `btok_${randomBytes(12).toString('hex')}${account.mask}`
        stripeTokens.set(token, { itemId: item.itemId, accountId: account.account_id })
        return { status: 200, body: { stripe_bank_account_token: token, request_id: requestId() } }
      }
      case '/item/remove': {
        // An Item whose bank wants a new login can still be removed.
        const item = knownItemOf(body)
        if ('status' in item) return item
        for (const [token, held] of accessTokens) if (held === item) accessTokens.delete(token)
        removedItems.push(item.itemId)
        return { status: 200, body: { request_id: requestId() } }
      }
      default:
        return plaidError(404, 'INVALID_REQUEST', 'UNKNOWN_FIELDS', `unknown endpoint ${path}`)
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname
      let body: Record<string, unknown> = {}
      let result: Answer
      if (req.method !== 'POST') result = plaidError(405, 'INVALID_REQUEST', 'INVALID_HTTP_METHOD', 'Plaid’s API takes POST only')
      else if (!req.headers['content-type']?.startsWith('application/json'))
        result = plaidError(400, 'INVALID_REQUEST', 'INVALID_HEADERS', 'Content-Type must be application/json')
      else if (!req.headers['plaid-version'])
        result = plaidError(400, 'INVALID_REQUEST', 'INVALID_HEADERS', 'the Plaid-Version header is required')
      else {
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object')
          body = parsed as Record<string, unknown>
          result = route(path, req.headers, body)
        } catch {
          result = plaidError(400, 'INVALID_REQUEST', 'INVALID_BODY', 'body could not be parsed as JSON')
        }
      }
      requests.push({ path, headers: req.headers, body })
      res.writeHead(result.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(result.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    secret,
    requests,
    stripeTokens,
    liveItems: () => [...new Set([...accessTokens.values()].map((item) => item.itemId))],
    removedItems,
    completeLink: (linkToken) => {
      const entry = linkTokens.get(linkToken)
      if (!entry || entry.used || entry.expiresAt < Date.now())
        throw new Error('Plaid Link would not open: unknown, used or expired link token')
      entry.used = true
      const item = newItem(entry.clientUserId)
      return { publicToken: issuePublicToken(item), accounts: item.accounts }
    },
    requireLogin: (publicToken) => {
      const entry = publicTokens.get(publicToken)
      if (!entry) throw new Error('the fake issued no such public token')
      entry.item.error = 'ITEM_LOGIN_REQUIRED'
    },
    failNext: (count) => {
      failures = count
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
