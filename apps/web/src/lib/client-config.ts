import type { ClientConfig } from '@pactum/contracts/client-config'
import { defaultApiBaseUrl } from './api/api-client.ts'
import { type EarlyGet, takeEarlyResponse } from './api/early-responses.ts'

/**
 * GET /config as index.html preloads it. No X-Request-Id: a header the
 * preload did not send would make the browser ask again.
 */
export function clientConfigRequest(baseUrl = defaultApiBaseUrl): EarlyGet {
  return { url: `${baseUrl.replace(/\/$/, '')}/config`, headers: { Accept: 'application/json' } }
}

/** Public settings the app needs before anyone is signed in (GET /config). */
export async function fetchClientConfig(baseUrl = defaultApiBaseUrl, doFetch: typeof fetch = fetch): Promise<ClientConfig> {
  const { url, headers } = clientConfigRequest(baseUrl)
  // src/first-requests.ts has usually asked already, while the app's script downloaded.
  const response = await (takeEarlyResponse(url, undefined)?.response ?? doFetch(url, { headers }))
  if (!response.ok) throw new Error(`GET /config answered ${response.status}`)
  return parseClientConfig(await response.json())
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

/**
 * The contract's `clientConfigSchema`, checked by hand: through zod, every
 * first load waited for zod (~26 kB gzipped, and its start-up work) before
 * it could render anything (issue 13). client-config.test.ts holds this to
 * the schema, so a field added there and not here fails a test. Like the
 * schema, it drops keys it does not know.
 */
export function parseClientConfig(body: unknown): ClientConfig {
  const config = record(body)
  const oidc = record(config?.oidc)
  const problems: string[] = []
  const text = (value: unknown, path: string) => {
    if (typeof value !== 'string') problems.push(`${path} is not a string`)
    return value as string
  }
  const flag = (value: unknown, path: string) => {
    if (typeof value !== 'boolean') problems.push(`${path} is not a boolean`)
    return value as boolean
  }
  if (!oidc) throw new Error('GET /config answered without an oidc object')
  const authority = text(oidc.authority, 'oidc.authority')
  if (typeof authority === 'string' && !URL.canParse(authority)) problems.push('oidc.authority is not a URL')
  const parsed: ClientConfig = {
    oidc: {
      authority,
      client_id: text(oidc.client_id, 'oidc.client_id'),
      scope: text(oidc.scope, 'oidc.scope'),
      supports_registration: flag(oidc.supports_registration, 'oidc.supports_registration'),
      supports_email_confirmation: flag(oidc.supports_email_confirmation, 'oidc.supports_email_confirmation'),
      supports_password_change: flag(oidc.supports_password_change, 'oidc.supports_password_change'),
    },
    support_email: text(config?.support_email, 'support_email'),
  }
  if (problems.length > 0) throw new Error(`GET /config answered an unexpected body: ${problems.join(', ')}`)
  return parsed
}
