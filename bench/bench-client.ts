import { loadConfig } from '../apps/server/src/config.ts'
import { mintAccessToken, readSigningKeyFile } from '../apps/server/src/modules/sign-in/oidc/token-minter.ts'

/**
 * Pactum's API as the benchmarks use it: access tokens minted with the
 * server's own signing key (as `npm run cli -- token`), calls that fail
 * loudly, the body of a plain create, and the transactions the GET load
 * reads.
 */

export interface BenchClient {
  token(email: string): Promise<string>
  api(token: string, method: string, url: string, body?: object): Promise<Record<string, string>>
}

export async function benchClient(baseUrl: string, env: Record<string, string>, port: number): Promise<BenchClient> {
  const config = loadConfig({ ...process.env, ...env, PORT: String(port), PUBLIC_URL: baseUrl })
  const signingKey = await readSigningKeyFile(config.dataDir)
  return {
    token: (email) =>
      mintAccessToken({
        privateSigningKey: signingKey,
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        clientId: config.oidc.clientId,
        email,
        ttlSeconds: 4 * 3600,
      }),
    async api(token, method, url, body) {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`)
      return (await response.json()) as Record<string, string>
    },
  }
}

/** The fee quote of the benchmarks' sale: 100.00 EUR by card. */
export const benchQuoteUrl = '/api/v1/charge?price=10000&currency=eur&payment_method=card'

/** The body that creates the benchmarks' sale as its seller, with the charge of its quote. */
export function benchSaleBody(quote: { charge?: unknown; charge_calculator_version?: unknown }) {
  return {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: 'A benchmark bicycle',
    payment_method: 'card',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  }
}

/** The benchmarks' sale, with the fee quote asked for once: every create sends the same charge back. */
export async function plainCreate(client: BenchClient, seller: string) {
  const quote = await client.api(seller, 'GET', benchQuoteUrl)
  return { quote, body: benchSaleBody(quote) }
}

export type Spread = { path: string; headers: Record<string, string> }[]

/** Status pages of many users, each polling their own sales: 16 users with 4 transactions each (the GET load picks one at random per request). */
export async function pollingSpread(client: BenchClient, createBody: object): Promise<Spread> {
  const spread: Spread = []
  for (let user = 0; user < 16; user++) {
    const owner = await client.token(`poller-${user}@example.com`)
    for (let sale = 0; sale < 4; sale++) {
      const created = await client.api(owner, 'POST', '/api/v1/me/transactions', createBody)
      spread.push({ path: `/api/v1/transactions/${created.id}`, headers: { authorization: `Bearer ${owner}` } })
    }
  }
  return spread
}

/**
 * Creates by many sellers, 16 of them, one picked at random per request (as
 * pgbench's simple-update picks a random account). One seller alone would
 * measure their own limit's counter: each user's creates are counted on one
 * row (usage-limits.ts), so one user's creates at once wait for each other,
 * by design. Each answers with the same body (`plainCreate`'s).
 */
export async function creatingSellers(client: BenchClient): Promise<Spread> {
  const spread: Spread = []
  for (let seller = 0; seller < 16; seller++) {
    const token = await client.token(`creating-seller-${seller}@example.com`)
    spread.push({ path: '/api/v1/me/transactions', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } })
  }
  return spread
}
