import { afterEach, describe, expect, it, vi } from 'vitest'
import { arrivedBody, earlyResponseMaxAgeMs, forgetEarlyResponses, startEarlyGet, takeEarlyResponse } from './early-responses.ts'

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

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
    const fetch = vi.fn(async (url: RequestInfo | URL) => (String(url).endsWith('/ok') ? json(200, { a: 1 }) : json(409, { code: 'tos_not_accepted' })))
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
})
