import { defaultApiBaseUrl } from '../lib/api/api-client.ts'
import { startEarlyBatch, startEarlyGet } from '../lib/api/early-responses.ts'
import { readStoredUser } from '../lib/auth/stored-user.ts'
import { needsRefresh } from '../lib/auth/token-refresh-policy.ts'
import { clientConfigRequest, parseClientConfig } from '../lib/client-config.ts'
import { transactionPageSize } from '../lib/constants.ts'

/** Where My transactions opens: `/` leads there (first-requests.test.tsx holds it to the route table). */
export const firstScreenPaths = ['/', '/transactions']

/**
 * What a signed-in My transactions asks for as it renders, below the API's
 * base and exactly as the API client builds them (first-requests.test.tsx
 * holds them together): the list's first page (`listQuery('all', '')`), and
 * the shell's profile, payout requirements and tour.
 */
export const firstScreenGets = [
  `/me/transactions?limit=${transactionPageSize}&view=summary`,
  '/me/personal',
  '/me/personal/payout_requirements',
  '/me/guided_tour',
]

/** The permanent sidebar's admin check, on screens wide enough for it (a phone's menu asks once it is opened). */
export const wideShellGets = ['/me']

/** What the page will be like: whether the sidebar shows, and the interface language its requests carry. */
export interface FirstScreen {
  wide: boolean
  /** Accept-Language, as the API client will send it (`pl-PL`). */
  language: string
}

/**
 * What the first screen will ask for, asked before the app's script has
 * downloaded (src/first-requests.ts runs from index.html ahead of it): GET
 * /config for every page and, for someone signed in opening My transactions,
 * what that page and the shell around it read, in one request
 * (`startEarlyBatch`: over HTTP/1.1 each would need a connection of its own
 * beside the app's script, and take a share of a slow link from it). The
 * app takes the answers over (early-responses.ts) when it asks for the same,
 * so the page renders with its list instead of waiting a round trip after
 * its first render (issue 13, LCP).
 *
 * Nothing is asked that the app would not: no list for a stored session that
 * is about to expire (the app refreshes it first, then asks with the new
 * token) or for a list with a filter or a search in the address. They carry
 * the interface language the app will use, as its own requests do: the
 * server keeps it as the language of the person's e-mails.
 */
export function startFirstRequests(
  location: Pick<Location, 'pathname' | 'search'>,
  storage: Storage,
  screen: FirstScreen,
  doFetch: typeof fetch = fetch,
  now: () => number = Date.now,
  newRequestId: () => string = () => crypto.randomUUID(),
): void {
  const config = startEarlyGet(clientConfigRequest(), doFetch, now)
  if (!firstScreenPaths.includes(location.pathname) || location.search !== '') return
  void config
    .then((body) => (body === undefined ? null : parseClientConfig(body)))
    .then((clientConfig) => {
      const user = clientConfig && readStoredUser(clientConfig, storage)
      if (!user || needsRefresh(user.expiresAt, now())) return
      const gets = [...firstScreenGets, ...(screen.wide ? wideShellGets : [])]
      const headers = { Accept: 'application/json', 'Accept-Language': screen.language, 'X-Request-Id': newRequestId() }
      startEarlyBatch({ baseUrl: defaultApiBaseUrl, gets, token: user.accessToken, headers }, doFetch, now)
    })
    // The app asks for itself, and sees the failure there.
    .catch(() => undefined)
}
