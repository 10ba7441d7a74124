import { QueryClient } from '@tanstack/react-query'
import { renderHook, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useTransactionList } from '../features/transactions/transactions-api.ts'
import { createI18n } from '../i18n/i18n.ts'
import { createApiClient } from '../lib/api/api-client.ts'
import { forgetEarlyResponses } from '../lib/api/early-responses.ts'
import { storedUserKey } from '../lib/auth/stored-user.ts'
import { namedRoutes } from '../lib/named-routes.ts'
import { fakeTransactionSummary } from '../test/fake-api-client.ts'
import { fakePersonalProfile } from '../test/fake-personal-profile.ts'
import { renderApp, sessionWrapper, testConfig } from '../test/render-app.tsx'
import { batchablePaths } from '@pactum/contracts/batch'
import { defaultApiBaseUrl } from '../lib/api/api-client.ts'
import { firstScreenGets, firstScreenPaths, startFirstRequests, wideShellGets } from './first-requests.ts'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function storageWith(user: { access_token: string; expires_at: number } | null): Storage {
  const storage = new Map<string, string>()
  if (user) storage.set(storedUserKey(testConfig), JSON.stringify({ ...user, profile: {} }))
  return { getItem: (key: string) => storage.get(key) ?? null } as Storage
}

/** A phone in English: no sidebar. */
const phone = { wide: false, language: 'en-GB' }

const signedIn = () => storageWith({ access_token: 'access-token-1', expires_at: Math.floor(Date.now() / 1000) + 3600 })

const firstScreenUrls = firstScreenGets.map((get) => `${defaultApiBaseUrl}${get}`)
const wideShellUrls = wideShellGets.map((get) => `${defaultApiBaseUrl}${get}`)

/** The GETs a GET /me/batch carries. */
const batchedGets = (url: string) => new URL(url, 'http://localhost').searchParams.getAll('get')

/** A server for the early requests: the configuration, and an answer for everything else, batched as GET /me/batch does. */
function earlyServer(answer: (url: string) => Response = () => json(200, [])) {
  return vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
    const text = String(url)
    if (text.endsWith('/config')) return json(200, testConfig)
    if (!text.startsWith(`${defaultApiBaseUrl}/me/batch?`)) return answer(text)
    const answers = await Promise.all(
      batchedGets(text).map(async (get) => {
        const alone = answer(`${defaultApiBaseUrl}${get}`)
        return { get, status: alone.status, body: await alone.json() }
      }),
    )
    return json(200, { answers })
  })
}

async function startedUrls(fetch: ReturnType<typeof earlyServer>) {
  // The list and the shell's reads go out once the configuration has been read.
  await new Promise((resolve) => setTimeout(resolve, 0))
  return fetch.mock.calls.map(([url, init]) => ({ url: String(url), authorization: new Headers(init?.headers).get('Authorization') }))
}

afterEach(forgetEarlyResponses)

describe('the first requests, sent before the app has loaded (issue 13)', () => {
  it('are sent where My transactions opens', () => {
    expect(firstScreenPaths).toEqual(['/', namedRoutes.transactions])
  })

  it('are all GETs the server batches', () => {
    for (const get of [...firstScreenGets, ...wideShellGets]) expect(batchablePaths).toContain(get.split('?')[0])
  })

  it.each(['/', '/transactions'])(
    '%s, signed in: the configuration, then the list and the shell’s reads in one request with the token',
    async (pathname) => {
      const fetch = earlyServer()
      startFirstRequests({ pathname, search: '' }, signedIn(), phone, fetch)
      const sent = await startedUrls(fetch)
      expect(sent).toEqual([
        { url: '/api/v1/config', authorization: null },
        { url: expect.stringMatching(/^\/api\/v1\/me\/batch\?/), authorization: 'Bearer access-token-1' },
      ])
      expect(batchedGets(sent[1]!.url)).toEqual(firstScreenGets)
    },
  )

  it('a wide screen: the sidebar’s admin check too, and the request in the interface language', async () => {
    const fetch = earlyServer()
    startFirstRequests({ pathname: '/transactions', search: '' }, signedIn(), { wide: true, language: 'pl-PL' }, fetch)
    const sent = await startedUrls(fetch)
    expect(batchedGets(sent[1]!.url)).toEqual([...firstScreenGets, ...wideShellGets])
    expect(new Headers(fetch.mock.calls[1]?.[1]?.headers).get('Accept-Language')).toBe('pl-PL')
  })

  it.each([
    ['another page', { pathname: '/profile/balance', search: '' }, signedIn()],
    ['a filtered list', { pathname: '/transactions', search: '?filter=active' }, signedIn()],
    ['nobody signed in', { pathname: '/transactions', search: '' }, storageWith(null)],
    [
      'a session about to expire (the app refreshes it first)',
      { pathname: '/transactions', search: '' },
      storageWith({ access_token: 'old', expires_at: Math.floor(Date.now() / 1000) + 5 }),
    ],
  ])('%s: only the configuration', async (_case, location, storage) => {
    const fetch = earlyServer()
    startFirstRequests(location, storage, phone, fetch)
    expect((await startedUrls(fetch)).map(({ url }) => url)).toEqual(['/api/v1/config'])
  })

  it('nothing more when the configuration cannot be read', async () => {
    const fetch = vi.fn(async () => json(503, { code: 'service_unavailable' }))
    startFirstRequests({ pathname: '/transactions', search: '' }, signedIn(), phone, fetch)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('are exactly what My transactions asks for as it renders, so none is asked twice', async () => {
    const asked: string[] = []
    const api = createApiClient({
      getAccessToken: () => 'access-token-1',
      refreshAccessToken: async () => null,
      onUnauthenticated: () => undefined,
      fetch: async (url, init) => {
        if ((init?.method ?? 'GET') === 'GET') asked.push(String(url))
        if (String(url).includes('/me/transactions')) return json(200, [])
        // The payout requirements are asked once the profile has answered (issue 33 item 13).
        if (String(url).endsWith('/me/personal')) return json(200, fakePersonalProfile())
        return json(404, { code: 'not_found' })
      },
    })
    await renderApp('/transactions', { api })
    // happy-dom's window is 1024 px wide, past the phone layout: the sidebar asks too.
    await waitFor(() => expect(asked).toEqual(expect.arrayContaining([...firstScreenUrls, ...wideShellUrls])))
  })

  it('hand My transactions its rows on the first render, without asking again', async () => {
    const early = earlyServer((url) =>
      url.includes('/me/transactions')
        ? json(200, [fakeTransactionSummary({ description: 'Asked early' })])
        : json(404, { code: 'not_found' }),
    )
    startFirstRequests({ pathname: '/transactions', search: '' }, signedIn(), phone, early)
    await waitFor(() => expect(early).toHaveBeenCalledTimes(2))
    await new Promise((resolve) => setTimeout(resolve, 0))

    const appFetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
      json(200, [fakeTransactionSummary({ description: 'Asked by the app' })]),
    )
    const api = createApiClient({
      getAccessToken: () => 'access-token-1',
      refreshAccessToken: async () => null,
      onUnauthenticated: () => undefined,
      fetch: appFetch,
    })
    await renderApp('/transactions', { api })
    expect((await screen.findAllByText('Asked early')).length).toBeGreaterThan(0)
    expect(screen.queryByText('Asked by the app')).toBeNull()
    expect(appFetch.mock.calls.map(([url]) => String(url))).not.toContain(firstScreenUrls[0])
  })

  it('the list has its rows on its very first render when they arrived before it', async () => {
    startFirstRequests(
      { pathname: '/transactions', search: '' },
      signedIn(),
      phone,
      earlyServer(() => json(200, [fakeTransactionSummary({ id: 'tx-early' })])),
    )
    await new Promise((resolve) => setTimeout(resolve, 0))
    await new Promise((resolve) => setTimeout(resolve, 0))
    const api = createApiClient({
      getAccessToken: () => 'access-token-1',
      refreshAccessToken: async () => null,
      onUnauthenticated: () => undefined,
    })
    const i18n = await createI18n('en_gb')
    const queryClient = new QueryClient()
    const wrapper = sessionWrapper({ i18n, queryClient, api })
    const renders: Array<string[] | undefined> = []
    renderHook(
      () => {
        const list = useTransactionList('all', '')
        renders.push(list.data?.pages.flat().map((transaction) => transaction.id))
        return list
      },
      { wrapper },
    )
    expect(renders[0]).toEqual(['tx-early'])
  })
})
