import type { ClientConfig } from '@pactum/contracts/client-config'
import { defaultApiBaseUrl } from './api/api-client.ts'

/** Public settings the app needs before anyone is signed in (GET /config). */
export async function fetchClientConfig(baseUrl = defaultApiBaseUrl, doFetch: typeof fetch = fetch): Promise<ClientConfig> {
  const response = await doFetch(`${baseUrl.replace(/\/$/, '')}/config`, {
    headers: { Accept: 'application/json', 'X-Request-Id': crypto.randomUUID() },
  })
  if (!response.ok) throw new Error(`GET /config answered ${response.status}`)
  // The schema (and zod with it) arrives as its own chunk while the request is in flight,
  // keeping it out of the first script the browser has to parse.
  const [{ clientConfigSchema }, body] = await Promise.all([
    import('@pactum/contracts/client-config'),
    response.json() as Promise<unknown>,
  ])
  return clientConfigSchema.parse(body)
}
