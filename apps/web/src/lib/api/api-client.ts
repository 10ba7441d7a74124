import { ApiError, apiErrorFromResponse } from './api-error.ts'
import { arrivedBody, takeEarlyResponse } from './early-responses.ts'

export const defaultApiBaseUrl: string = import.meta.env.VITE_API_BASE_URL ?? '/api/v1'

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Record<string, string | number | undefined>
  /** Sent as JSON, or as is when it is FormData (document uploads). */
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Resolve `path` from the site root instead of the API base (e.g. `/app_api/contact_us`). */
  fromSiteRoot?: boolean
  /**
   * `blob`: the answer is a file (a PDF, an attachment), resolved as a Blob: a download that needs the
   * bearer token, which a plain link cannot carry. Errors are still read as JSON.
   */
  responseType?: 'json' | 'blob'
}

export interface ApiClient {
  request<T>(path: string, request?: ApiRequest): Promise<T>
  /**
   * The body of this GET if it has already arrived: asked for before the app
   * loaded (early-responses.ts), for a page's first render. Undefined otherwise.
   */
  arrived<T>(path: string, request?: Pick<ApiRequest, 'query'>): T | undefined
}

export interface ApiClientOptions {
  baseUrl?: string
  getAccessToken: () => string | undefined
  /** Resolves to a fresh access token, or null when the session cannot be renewed. */
  refreshAccessToken: () => Promise<string | null>
  /** Called when the API still refuses us after a refresh: the person has to sign in again. */
  onUnauthenticated: () => void
  /** The interface language as a BCP 47 tag (`pl-PL`): the server keeps it as the language of the person's e-mails until they choose one. */
  getLanguage?: () => string | undefined
  fetch?: typeof fetch
  newRequestId?: () => string
}

/** The site root of `baseUrl`: its origin when absolute, '' (same origin) when root-relative. */
export function siteRootOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin
  } catch {
    return ''
  }
}

function buildUrl(baseUrl: string, path: string, query: ApiRequest['query']): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value))
  }
  const search = params.toString()
  return `${baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}${search ? `?${search}` : ''}`
}

/** The one way the web app calls the API: bearer token, request id, typed errors. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? defaultApiBaseUrl
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init))
  const newRequestId = options.newRequestId ?? (() => crypto.randomUUID())

  async function send(path: string, request: ApiRequest, token: string | undefined) {
    const url = buildUrl(request.fromSiteRoot ? siteRootOf(baseUrl) : baseUrl, path, request.query)
    const method = request.method ?? 'GET'
    // The same GET, asked for by src/first-requests.ts before the app's script had arrived.
    const early =
      method === 'GET' && request.body === undefined && request.headers === undefined ? takeEarlyResponse(url, token) : undefined
    if (early) {
      try {
        return { response: await early.response, requestId: early.requestId ?? newRequestId() }
      } catch {
        // It failed on the way (the network was down a moment ago): ask again, as if it had never been sent.
      }
    }
    const requestId = newRequestId()
    const headers = new Headers(request.headers)
    headers.set('X-Request-Id', requestId)
    headers.set('Accept', request.responseType === 'blob' ? '*/*' : 'application/json')
    const language = options.getLanguage?.()
    if (language) headers.set('Accept-Language', language)
    if (token) headers.set('Authorization', `Bearer ${token}`)
    let body: BodyInit | undefined
    if (request.body instanceof FormData) {
      body = request.body
    } else if (request.body !== undefined) {
      headers.set('Content-Type', 'application/json')
      body = JSON.stringify(request.body)
    }
    try {
      const response = await doFetch(url, {
        method,
        headers,
        body,
        signal: request.signal,
      })
      return { response, requestId }
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause
      throw new ApiError({ status: 0, code: 'network_error', message: String(cause), requestId })
    }
  }

  return {
    arrived<T>(path: string, request: Pick<ApiRequest, 'query'> = {}): T | undefined {
      return arrivedBody(buildUrl(baseUrl, path, request.query), options.getAccessToken())?.value as T | undefined
    },
    async request<T>(path: string, request: ApiRequest = {}): Promise<T> {
      let { response, requestId } = await send(path, request, options.getAccessToken())
      if (response.status === 401) {
        // One refresh and one retry: the token may have expired between checks.
        const token = await options.refreshAccessToken()
        if (token) ({ response, requestId } = await send(path, request, token))
        if (!token || response.status === 401) options.onUnauthenticated()
      }
      if (!response.ok) throw await apiErrorFromResponse(response, requestId)
      if (response.status === 204) return undefined as T
      if (request.responseType === 'blob') return (await response.blob()) as T
      const text = await response.text()
      return (text ? JSON.parse(text) : undefined) as T
    },
  }
}
