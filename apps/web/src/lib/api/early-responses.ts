/**
 * GETs started before the app's code has arrived (app/first-requests.ts),
 * handed to the first identical request the app makes. The page would ask
 * for the same thing anyway, only after its ~140 kB of script have
 * downloaded and rendered; asked for early, the answer is in when it
 * renders (issue 13, LCP).
 *
 * A response is handed over once, for the same URL and the same access
 * token, and only while it is fresh: a page opened later asks again. Its
 * body, once it has arrived, can also be read without taking it
 * (`arrivedBody`), so a page can render with it on its first pass.
 */
export const earlyResponseMaxAgeMs = 10_000

interface EarlyResponse {
  url: string
  token: string | undefined
  response: Promise<Response>
  /** The X-Request-Id it was sent with, if any: what an error from it names. */
  requestId: string | undefined
  startedAt: number
  /** The JSON of a 2xx answer, once read. */
  body?: { value: unknown }
}

const pending: EarlyResponse[] = []

export interface EarlyGet {
  url: string
  /** Sent as `Authorization: Bearer …`; the response is handed only to a request with the same token. */
  token?: string
  /** Headers besides Authorization. Leave out any a `<link rel="preload">` for the same URL did not send, or the browser asks twice. */
  headers?: Record<string, string>
}

/** Starts the GET; resolves to the JSON of a 2xx answer, or undefined for anything else (the taker sees the failure). */
export function startEarlyGet(request: EarlyGet, doFetch: typeof fetch = fetch, now: () => number = Date.now): Promise<unknown> {
  const headers = new Headers(request.headers)
  if (request.token) headers.set('Authorization', `Bearer ${request.token}`)
  const response = doFetch(request.url, { headers })
  const early: EarlyResponse = { url: request.url, token: request.token, response, requestId: headers.get('X-Request-Id') ?? undefined, startedAt: now() }
  pending.push(early)
  // The first reader, so the copy is made before the taker reads the response's own body.
  return response
    .then((answer) => answer.clone())
    .then(async (copy) => {
      if (!copy.ok) return undefined
      const value: unknown = await copy.json()
      early.body = { value }
      return value
    })
    .catch(() => undefined)
}

function isFresh(early: EarlyResponse, now: () => number): boolean {
  return now() - early.startedAt <= earlyResponseMaxAgeMs
}

function find(url: string, token: string | undefined): number {
  return pending.findIndex((early) => early.url === url && early.token === token)
}

/** The early response for this GET, once; undefined when none was started, it was taken, or it is stale. */
export function takeEarlyResponse(
  url: string,
  token: string | undefined,
  now: () => number = Date.now,
): Pick<EarlyResponse, 'response' | 'requestId'> | undefined {
  const index = find(url, token)
  if (index === -1) return undefined
  const [early] = pending.splice(index, 1)
  return early && isFresh(early, now) ? early : undefined
}

/** The JSON of this GET's early answer if it has arrived, is a 2xx and is fresh; it stays there to be taken. */
export function arrivedBody(url: string, token: string | undefined, now: () => number = Date.now): { value: unknown } | undefined {
  const early = pending[find(url, token)]
  return early && isFresh(early, now) ? early.body : undefined
}

/** Tests only: forget every early response. */
export function forgetEarlyResponses(): void {
  pending.length = 0
}
