/**
 * Bank linking for US sellers (part of config.ts): the sandbox link screen
 * unless PLAID_CLIENT_ID and PLAID_SECRET are set, then Plaid. Problems name
 * their variable and never repeat a value (the secret stays out of the logs).
 */
export const plaidEnvironments = { sandbox: 'https://sandbox.plaid.com', production: 'https://production.plaid.com' } as const

export type PlaidEnvironment = keyof typeof plaidEnvironments

export type BankLinkConfig =
  | { provider: 'sandbox' }
  | {
      provider: 'plaid'
      clientId: string
      secret: string
      environment: PlaidEnvironment
      /** Plaid's API base without a trailing slash: the environment's, or PLAID_API_URL (tests, a proxy). */
      apiUrl: string
    }

const plaidOnlyNames = ['PLAID_ENV', 'PLAID_API_URL'] as const
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])
/** Plaid's client ids and secrets are hexadecimal; anything printable is accepted, a pasted space or newline is not. */
const keyPattern = /^[\x21-\x7e]{8,200}$/

export function loadBankLinkConfig(env: Record<string, string | undefined>): { bankLink?: BankLinkConfig; problems: string[] } {
  const problems: string[] = []
  const clientId = env.PLAID_CLIENT_ID
  const secret = env.PLAID_SECRET
  if (!clientId && !secret) {
    problems.push(
      ...plaidOnlyNames
        .filter((name) => env[name])
        .map((name) => `${name}: only used with PLAID_CLIENT_ID and PLAID_SECRET, which are not set`),
    )
    return problems.length > 0 ? { problems } : { bankLink: { provider: 'sandbox' }, problems }
  }
  if (!clientId) problems.push('PLAID_CLIENT_ID: required when PLAID_SECRET is set')
  else if (!keyPattern.test(clientId)) problems.push('PLAID_CLIENT_ID: expected 8–200 printable characters without spaces')
  if (!secret) problems.push('PLAID_SECRET: required when PLAID_CLIENT_ID is set')
  else if (!keyPattern.test(secret)) problems.push('PLAID_SECRET: expected 8–200 printable characters without spaces')
  const environment = env.PLAID_ENV || 'sandbox'
  if (environment !== 'sandbox' && environment !== 'production') problems.push('PLAID_ENV: expected sandbox or production')
  const apiUrl = plaidApiUrl(env.PLAID_API_URL, problems)
  if (problems.length > 0 || !clientId || !secret) return { problems }
  const plaidEnvironment = environment as PlaidEnvironment
  return {
    bankLink: { provider: 'plaid', clientId, secret, environment: plaidEnvironment, apiUrl: apiUrl ?? plaidEnvironments[plaidEnvironment] },
    problems,
  }
}

function plaidApiUrl(value: string | undefined, problems: string[]): string | undefined {
  if (!value) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problems.push('PLAID_API_URL: not a URL')
    return undefined
  }
  if (url.username || url.password) problems.push('PLAID_API_URL: no credentials in the URL')
  else if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
    problems.push('PLAID_API_URL: must be https:// (plain http only for localhost)')
  } else if (url.search || url.hash) problems.push('PLAID_API_URL: no query or fragment')
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}
