import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApiClient, siteRootOf } from './api-client.ts'
import { ApiError } from './api-error.ts'
import { forgetEarlyResponses, startEarlyGet } from './early-responses.ts'

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

function setup(responses: Response[], token = 'token-1', language?: () => string | undefined) {
  const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
    const next = responses.shift()
    if (!next) throw new Error('no more responses')
    return next
  })
  const refreshAccessToken = vi.fn(async (): Promise<string | null> => 'token-2')
  const onUnauthenticated = vi.fn()
  const client = createApiClient({
    baseUrl: '/api/v1/',
    getAccessToken: () => token,
    refreshAccessToken,
    onUnauthenticated,
    getLanguage: language,
    fetch,
  })
  const headersOf = (call: number) => new Headers(fetch.mock.calls[call]?.[1]?.headers)
  return { client, fetch, refreshAccessToken, onUnauthenticated, headersOf }
}

describe('api client', () => {
  it('sends the bearer token and a fresh request id with every call', async () => {
    const { client, fetch, headersOf } = setup([json(200, { ok: 1 }), json(200, { ok: 2 })])
    expect(await client.request('/me', { query: { limit: 50, after_id: undefined } })).toEqual({ ok: 1 })
    await client.request('me/transactions', { method: 'POST', body: { price: 100 } })

    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v1/me?limit=50')
    expect(headersOf(0).get('Authorization')).toBe('Bearer token-1')
    const first = headersOf(0).get('X-Request-Id')
    const second = headersOf(1).get('X-Request-Id')
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    expect(second).toMatch(/^[0-9a-f-]{36}$/)
    expect(first).not.toBe(second)
    expect(fetch.mock.calls[1]?.[1]?.body).toBe('{"price":100}')
    expect(headersOf(1).get('Content-Type')).toBe('application/json')
  })

  it('names the interface language at each call, so a switch applies from the next one', async () => {
    let language = 'pl-PL'
    const { client, headersOf } = setup([json(200, {}), json(200, {})], 'token-1', () => language)
    await client.request('/me')
    language = 'fi-FI'
    await client.request('/me')
    expect(headersOf(0).get('Accept-Language')).toBe('pl-PL')
    expect(headersOf(1).get('Accept-Language')).toBe('fi-FI')
  })

  it('sends FormData as it is, with the bearer token and no JSON content type', async () => {
    const { client, fetch, headersOf } = setup([json(200, { ok: 1 })])
    const form = new FormData()
    form.set('side', 'front')
    await client.request('/me/personal/identity_document', { method: 'POST', body: form })
    expect(fetch.mock.calls[0]?.[1]?.body).toBe(form)
    // The browser sets multipart/form-data with its boundary itself.
    expect(headersOf(0).get('Content-Type')).toBeNull()
    expect(headersOf(0).get('Authorization')).toBe('Bearer token-1')
  })

  it('answers a download as a Blob, with the bearer token', async () => {
    const { client, headersOf } = setup([
      new Response(new Uint8Array([137, 80, 78, 71]), { status: 200, headers: { 'content-type': 'image/png' } }),
    ])
    const blob = await client.request<Blob>('/transactions/1/messages/2/attachment', { responseType: 'blob' })
    expect(blob).toBeInstanceOf(Blob)
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([137, 80, 78, 71])
    expect(headersOf(0).get('Authorization')).toBe('Bearer token-1')
    expect(headersOf(0).get('Accept')).toBe('*/*')
  })

  it('resolves fromSiteRoot paths against the site root, not the API base', async () => {
    const { client, fetch } = setup([new Response(null, { status: 201 })])
    await client.request('/app_api/contact_us', { method: 'POST', body: {}, fromSiteRoot: true })
    expect(fetch.mock.calls[0]?.[0]).toBe('/app_api/contact_us')
    expect(siteRootOf('https://pactum.example/api/v1')).toBe('https://pactum.example')
  })

  it('turns an error body into a typed ApiError', async () => {
    const { client } = setup([json(409, { code: 'remainder_too_low', error: 'The remainder is too low', details: { minimum: 100 } })])
    const error = await client.request('/p2p/transactions/1/set_price').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 409,
      code: 'remainder_too_low',
      message: 'The remainder is too low',
      details: { minimum: 100 },
    })
    expect((error as ApiError).requestId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('reports a body that is not an API error as unexpected_response', async () => {
    const { client } = setup([new Response('<html>Bad gateway</html>', { status: 502 })])
    await expect(client.request('/health')).rejects.toMatchObject({ status: 502, code: 'unexpected_response' })
  })

  it('reports a failed connection as network_error', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const client = createApiClient({
      getAccessToken: () => 't',
      refreshAccessToken: async () => null,
      onUnauthenticated: () => undefined,
      fetch,
    })
    await expect(client.request('/health')).rejects.toMatchObject({ status: 0, code: 'network_error' })
  })

  it('on 401 refreshes once and retries with the new token', async () => {
    const { client, refreshAccessToken, onUnauthenticated, headersOf } = setup([
      json(401, { code: 'unauthenticated', error: 'expired' }),
      json(200, { ok: true }),
    ])
    expect(await client.request('/me')).toEqual({ ok: true })
    expect(refreshAccessToken).toHaveBeenCalledTimes(1)
    expect(headersOf(1).get('Authorization')).toBe('Bearer token-2')
    expect(onUnauthenticated).not.toHaveBeenCalled()
  })

  it('sends the person to sign-in when the refresh fails', async () => {
    const { client, refreshAccessToken, onUnauthenticated, fetch } = setup([json(401, { code: 'unauthenticated', error: 'expired' })])
    refreshAccessToken.mockResolvedValue(null)
    await expect(client.request('/me')).rejects.toMatchObject({ status: 401, code: 'unauthenticated' })
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(onUnauthenticated).toHaveBeenCalledTimes(1)
  })

  it('returns undefined for 204 No Content', async () => {
    const { client } = setup([new Response(null, { status: 204 })])
    expect(await client.request('/me/personal/set_active_country', { method: 'POST', body: {} })).toBeUndefined()
  })
})

describe('api client and the early requests of index.html (early-responses.ts)', () => {
  afterEach(forgetEarlyResponses)

  const earlyList = (token: string, respond: () => Promise<Response>) =>
    startEarlyGet({ url: '/api/v1/me/transactions?limit=50', token, headers: { 'X-Request-Id': 'early-1' } }, respond)

  it('takes an identical GET with the same token over instead of asking again', async () => {
    await earlyList('token-1', async () => json(200, [{ id: 'tx-early' }]))
    const { client, fetch } = setup([json(200, [{ id: 'tx-asked' }])])
    expect(client.arrived('/me/transactions', { query: { limit: 50, after_id: undefined } })).toEqual([{ id: 'tx-early' }])
    expect(await client.request('/me/transactions', { query: { limit: 50 } })).toEqual([{ id: 'tx-early' }])
    expect(fetch).not.toHaveBeenCalled()
    // Once only: the next read is a real one.
    expect(await client.request('/me/transactions', { query: { limit: 50 } })).toEqual([{ id: 'tx-asked' }])
    expect(client.arrived('/me/transactions', { query: { limit: 50 } })).toBeUndefined()
  })

  it('asks itself for another token, another query, a write or a request with its own headers', async () => {
    await earlyList('token-1', async () => json(200, [{ id: 'tx-early' }]))
    const { client, fetch } = setup([json(200, []), json(200, []), json(201, {}), json(200, [])], 'token-2')
    expect(client.arrived('/me/transactions', { query: { limit: 50 } })).toBeUndefined()
    await client.request('/me/transactions', { query: { limit: 50 } })
    await client.request('/me/transactions', { query: { limit: 20 } })
    await client.request('/me/transactions', { method: 'POST', body: {} })
    await client.request('/me/transactions', { query: { limit: 50 }, headers: { 'Idempotency-Key': 'k' } })
    expect(fetch).toHaveBeenCalledTimes(4)
  })

  it('treats an early 401 as its own: refresh, then ask again with the new token', async () => {
    await earlyList('token-1', async () => json(401, { code: 'unauthenticated', error: 'expired' }))
    const { client, refreshAccessToken, headersOf } = setup([json(200, [{ id: 'tx-2' }])])
    expect(await client.request('/me/transactions', { query: { limit: 50 } })).toEqual([{ id: 'tx-2' }])
    expect(refreshAccessToken).toHaveBeenCalledTimes(1)
    expect(headersOf(0).get('Authorization')).toBe('Bearer token-2')
  })

  it('names the early request id in an error from it, and asks again when it never arrived', async () => {
    await earlyList('token-1', async () => json(500, { code: 'internal_error', error: 'boom' }))
    const { client } = setup([])
    const error = await client.request('/me/transactions', { query: { limit: 50 } }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).requestId).toBe('early-1')

    await earlyList('token-1', async () => {
      throw new TypeError('Failed to fetch')
    })
    const retry = setup([json(200, [])])
    expect(await retry.client.request('/me/transactions', { query: { limit: 50 } })).toEqual([])
    expect(retry.fetch).toHaveBeenCalledTimes(1)
  })
})
