import { setTimeout as sleep } from 'node:timers/promises'

/**
 * An API client that behaves as the contract asks a client to: a request
 * that got no answer, or a gateway's 502/503/504, is sent again unchanged
 * (the same Idempotency-Key, so the server replays or does the work once),
 * and one answered `idempotency_request_in_progress` again after its
 * Retry-After. It counts what it had to do, for the report.
 */

export interface Answer {
  status: number
  // JSON from the API, read field by field by the caller.
  body: Record<string, unknown> | Record<string, unknown>[] | undefined
  /** Sent more than once before this answer (cut off, a gateway error, or in progress). */
  retried: boolean
  replayed: boolean
}

export interface ClientCounts {
  requests: number
  /** Attempts that got no answer or a gateway error and were sent again. */
  cutOff: number
  inProgressWaits: number
  /** Requests still unanswered when the client gave up. */
  gaveUp: number
}

const gatewayErrors = new Set([502, 503, 504])

export class LoadClient {
  readonly baseUrl: string
  readonly counts: ClientCounts = { requests: 0, cutOff: 0, inProgressWaits: 0, gaveUp: 0 }
  readonly #giveUpMs: number

  constructor(baseUrl: string, options: { giveUpSeconds?: number } = {}) {
    this.baseUrl = baseUrl
    this.#giveUpMs = (options.giveUpSeconds ?? 90) * 1000
  }

  async call(token: string | null, method: string, url: string, body?: object, key?: string): Promise<Answer> {
    this.counts.requests += 1
    const started = Date.now()
    let retried = false
    for (;;) {
      let response: Response | undefined
      try {
        response = await fetch(`${this.baseUrl}${url}`, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(key ? { 'idempotency-key': key } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(30_000),
        })
      } catch {
        response = undefined
      }
      const text = response ? await response.text().catch(() => undefined) : undefined
      const late = Date.now() - started > this.#giveUpMs
      if (!response || text === undefined || gatewayErrors.has(response.status)) {
        if (late) {
          this.counts.gaveUp += 1
          throw new Error(`${method} ${url}: no answer for ${this.#giveUpMs / 1000} s (last: ${response?.status ?? 'cut off'})`)
        }
        this.counts.cutOff += 1
        retried = true
        await sleep(250)
        continue
      }
      const json = text ? (JSON.parse(text) as Answer['body']) : undefined
      const code = json && !Array.isArray(json) ? json.code : undefined
      if (response.status === 409 && code === 'idempotency_request_in_progress' && !late) {
        this.counts.inProgressWaits += 1
        retried = true
        await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000)
        continue
      }
      return { status: response.status, body: json, retried, replayed: response.headers.get('idempotent-replayed') === 'true' }
    }
  }

  /** The answer's body when it is 2xx; otherwise an error naming the request. */
  async must(token: string | null, method: string, url: string, body?: object, key?: string): Promise<Record<string, unknown>> {
    const answer = await this.call(token, method, url, body, key)
    if (answer.status >= 300 || !answer.body || Array.isArray(answer.body)) {
      throw new Error(`${method} ${url} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`)
    }
    return answer.body
  }
}
