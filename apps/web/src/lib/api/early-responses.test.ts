import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApiClient } from './api-client.ts'
import {
  arrivedBody,
  earlyResponseMaxAgeMs,
  forgetEarlyResponses,
  startEarlyBatch,
  startEarlyGet,
  takeEarlyResponse,
} from './early-responses.ts'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

afterEach(forgetEarlyResponses)

describe('early responses', () => {
  it('sends the token and headers, and hands the response over once, to the same URL and token only', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, [{ id: 'tx-1' }]))
    const body = startEarlyGet({ url: '/api/v1/me/transactions?limit=50', token: 'token-1', headers: { 'X-Request-Id': 'req-1' } }, fetch)
    const headers = new Headers(fetch.mock.calls[0]?.[1]?.headers)
    expect(headers.get('Authorization')).toBe('Bearer token-1')
    expect(await body).toEqual([{ id: 'tx-1' }])

    expect(takeEarlyResponse('/api/v1/me/transactions?limit=50', 'token-2')).toBeUndefined()
    expect(takeEarlyResponse('/api/v1/me/transactions?limit=20', 'token-1')).toBeUndefined()
    const taken = takeEarlyResponse('/api/v1/me/transactions?limit=50', 'token-1')
    expect(taken?.requestId).toBe('req-1')
    // The taker reads the body itself: the copy made for arrivedBody left it unread.
    expect(await (await taken?.response)?.json()).toEqual([{ id: 'tx-1' }])
    expect(takeEarlyResponse('/api/v1/me/transactions?limit=50', 'token-1')).toBeUndefined()
  })

  it('shows an arrived 2xx body without taking it, and nothing for a refusal', async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL) =>
      String(url).endsWith('/ok') ? json(200, { a: 1 }) : json(409, { code: 'tos_not_accepted' }),
    )
    expect(await startEarlyGet({ url: '/ok', token: 't' }, fetch)).toEqual({ a: 1 })
    expect(await startEarlyGet({ url: '/refused', token: 't' }, fetch)).toBeUndefined()

    expect(arrivedBody('/ok', 't')).toEqual({ value: { a: 1 } })
    expect(arrivedBody('/ok', 'other')).toBeUndefined()
    expect(arrivedBody('/refused', 't')).toBeUndefined()
    // The refusal is still the taker's to see.
    expect((await takeEarlyResponse('/refused', 't')?.response)?.status).toBe(409)
    expect(takeEarlyResponse('/ok', 't')).toBeDefined()
    expect(arrivedBody('/ok', 't')).toBeUndefined()
  })

  it('gives nothing once it is no longer fresh', async () => {
    let now = 1_000_000
    const clock = () => now
    await startEarlyGet({ url: '/late' }, async () => json(200, {}), clock)
    now += earlyResponseMaxAgeMs + 1
    expect(arrivedBody('/late', undefined, clock)).toBeUndefined()
    expect(takeEarlyResponse('/late', undefined, clock)).toBeUndefined()
  })

  it('resolves to undefined when the request fails, and hands the failure to the taker', async () => {
    const body = startEarlyGet({ url: '/down' }, async () => {
      throw new TypeError('Failed to fetch')
    })
    expect(await body).toBeUndefined()
    await expect(takeEarlyResponse('/down', undefined)?.response).rejects.toThrow('Failed to fetch')
  })

  it('batches GETs into one request and hands each its own answer, refusals included, named by the batch’s request id', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
      json(200, {
        answers: [
          { get: '/me/personal', status: 200, body: { first_name: 'Ada' } },
          { get: '/me/transactions?limit=50', status: 400, body: { code: 'invalid_limit' } },
          { get: '/me/guided_tour', status: 204, body: null },
        ],
      }),
    )
    startEarlyBatch(
      {
        baseUrl: '/api/v1',
        gets: ['/me/transactions?limit=50', '/me/personal', '/me/guided_tour'],
        token: 't',
        headers: { 'X-Request-Id': 'req-9' },
      },
      fetch,
    )
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0]!
    expect(String(url)).toBe('/api/v1/me/batch?get=%2Fme%2Ftransactions%3Flimit%3D50&get=%2Fme%2Fpersonal&get=%2Fme%2Fguided_tour')
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer t')

    const personal = takeEarlyResponse('/api/v1/me/personal', 't')
    expect(personal?.requestId).toBe('req-9.1')
    expect(await (await personal?.response)?.json()).toEqual({ first_name: 'Ada' })
    expect(arrivedBody('/api/v1/me/transactions?limit=50', 't')).toBeUndefined()
    const list = await takeEarlyResponse('/api/v1/me/transactions?limit=50', 't')?.response
    expect(list?.status).toBe(400)
    expect(await list?.json()).toEqual({ code: 'invalid_limit' })
    expect((await takeEarlyResponse('/api/v1/me/guided_tour', 't')?.response)?.status).toBe(204)
    expect(takeEarlyResponse('/api/v1/me/personal', 't')).toBeUndefined()
  })

  it('shows a batched 2xx body before it is taken', async () => {
    const answered = json(200, { answers: [{ get: '/me/personal', status: 200, body: { first_name: 'Ada' } }] })
    startEarlyBatch({ baseUrl: '/api/v1', gets: ['/me/personal'], token: 't' }, async () => answered)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(arrivedBody('/api/v1/me/personal', 't')).toEqual({ value: { first_name: 'Ada' } })
  })

  it('lets the app ask again when the batch is refused as a whole, so it sees the real answer', async () => {
    startEarlyBatch({ baseUrl: '/api/v1', gets: ['/me/personal'], token: 't' }, async () => json(401, { code: 'unauthenticated' }))
    const appFetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, { first_name: 'Ada' }))
    const api = createApiClient({
      getAccessToken: () => 't',
      refreshAccessToken: async () => null,
      onUnauthenticated: () => undefined,
      fetch: appFetch,
    })
    expect(await api.request('/me/personal')).toEqual({ first_name: 'Ada' })
    expect(appFetch.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/me/personal'])
  })

  it('lets the app ask again for a GET the batch left out', async () => {
    startEarlyBatch({ baseUrl: '/api/v1', gets: ['/me/personal'], token: 't' }, async () => json(200, { answers: [] }))
    await expect(takeEarlyResponse('/api/v1/me/personal', 't')?.response).rejects.toThrow('left out /me/personal')
  })
})
