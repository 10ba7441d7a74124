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

/**
 * Keeps `early` for its taker and reads a 2xx answer's JSON for `arrivedBody`
 * (on a copy, made first so the taker can still read the response's own
 * body); resolves to that JSON, or undefined for anything else (the taker
 * sees the failure).
 */
function keep(early: EarlyResponse): Promise<unknown> {
  pending.push(early)
  return early.response
    .then((answer) => answer.clone())
    .then(async (copy) => {
      if (!copy.ok) return undefined
      const value: unknown = await copy.json()
      early.body = { value }
      return value
    })
    .catch(() => undefined)
}

/** Starts the GET; resolves to the JSON of a 2xx answer, or undefined for anything else (the taker sees the failure). */
export function startEarlyGet(request: EarlyGet, doFetch: typeof fetch = fetch, now: () => number = Date.now): Promise<unknown> {
  const headers = new Headers(request.headers)
  if (request.token) headers.set('Authorization', `Bearer ${request.token}`)
  const response = doFetch(request.url, { headers })
  return keep({ url: request.url, token: request.token, response, requestId: headers.get('X-Request-Id') ?? undefined, startedAt: now() })
}

export interface EarlyBatch {
  /** The API's base (`/api/v1`): the batch goes to `<base>/me/batch`, and each answer is handed to a GET of `<base><get>`. */
  baseUrl: string
  /** Paths below the base with their query (`/me/transactions?limit=50`), as the app will ask for them. */
  gets: readonly string[]
  token: string
  /** Headers besides Authorization; an `X-Request-Id` names each GET's answer as `<id>.<index>`, as the server logs it. */
  headers?: Record<string, string>
}

interface BatchedAnswer {
  get: string
  status: number
  body: unknown
}

/** The batch's answers, checked by hand: zod stays out of the first script. */
function batchedAnswers(body: unknown): BatchedAnswer[] {
  const answers: unknown = typeof body === 'object' && body !== null ? (body as { answers?: unknown }).answers : undefined
  if (!Array.isArray(answers)) throw new Error('GET /me/batch answered without answers')
  return answers.filter(
    (answer): answer is BatchedAnswer =>
      typeof answer === 'object' &&
      answer !== null &&
      typeof (answer as BatchedAnswer).get === 'string' &&
      typeof (answer as BatchedAnswer).status === 'number',
  )
}

/** A batched answer as the response its GET alone would have had. */
function responseOf(answer: BatchedAnswer): Response {
  const bodiless = [204, 205, 304].includes(answer.status)
  return new Response(bodiless ? null : JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'Content-Type': 'application/json' },
  })
}

/**
 * Several GETs in one request (`GET /me/batch`, which answers each as if it
 * had been asked alone): one connection instead of one each while the app's
 * script downloads. Each answer then waits for the same GET as
 * `startEarlyGet`'s does. If the batch fails or is refused as a whole (an
 * expired token, an unavailable server), a taker gets the failure and asks
 * again itself (api-client.ts), so it sees the real answer.
 */
export function startEarlyBatch(batch: EarlyBatch, doFetch: typeof fetch = fetch, now: () => number = Date.now): void {
  const headers = new Headers(batch.headers)
  headers.set('Authorization', `Bearer ${batch.token}`)
  const requestId = headers.get('X-Request-Id') ?? undefined
  const query = new URLSearchParams(batch.gets.map((get) => ['get', get]))
  const answers = doFetch(`${batch.baseUrl}/me/batch?${query}`, { headers }).then(async (response) => {
    if (!response.ok) throw new Error(`GET /me/batch answered ${response.status}`)
    return batchedAnswers(await response.json())
  })
  const startedAt = now()
  batch.gets.forEach((get, index) => {
    const response = answers.then((all) => {
      const found = all.find((candidate) => candidate.get === get)
      if (!found) throw new Error(`GET /me/batch left out ${get}`)
      return responseOf(found)
    })
    const requestIdOfGet = requestId === undefined ? undefined : `${requestId}.${index}`
    void keep({ url: `${batch.baseUrl}${get}`, token: batch.token, response, requestId: requestIdOfGet, startedAt })
  })
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
