import { setTimeout as sleep } from 'node:timers/promises'
import type { ServerProcess } from '../crash-server.ts'
import type { RetriedRequest } from './scenario.ts'

/*
 * The crash run's HTTP client, as a real client behaves: it sends a request
 * again when the crash cuts it off (with the same Idempotency-Key), waits
 * out `idempotency_request_in_progress`, and records every request it had
 * to retry and what the retry got.
 */

/** What a party's action answers once the complaint window's timer has released the money. */
const timerRefusals = ['complaint_period_expired', 'funds_already_released']

export interface Answer {
  status: number
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the API, read field by field
  interrupted: boolean
  stuck: boolean
}

type Party = 'seller' | 'buyer' | 'admin' | null

export class StepFailed extends Error {}

export class CrashClient {
  /** Requests the crash cut off (or left in progress), with what their retries got. */
  readonly retried: RetriedRequest[] = []
  /** The server answering now: the restarted one once the crash's restart is under way. */
  readonly #server: () => Promise<ServerProcess>
  readonly #tokens: Map<string, string>
  readonly #inProgressRetrySeconds: number

  constructor(options: { server: () => Promise<ServerProcess>; tokens: Map<string, string>; inProgressRetrySeconds: number | undefined }) {
    this.#server = options.server
    this.#tokens = options.tokens
    this.#inProgressRetrySeconds = options.inProgressRetrySeconds ?? 90
  }

  /**
   * One client request, sent again (with the same Idempotency-Key) when the
   * crash cuts it off, and again after `Retry-After` while the server says
   * the key's first request is still in progress.
   */
  async call(
    who: string | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body: object | undefined,
    options: { label: string; key?: string; alsoFine?: string[] },
  ): Promise<Answer> {
    let interrupted = false
    let inProgressSince: number | undefined
    for (let attempt = 0; ; attempt++) {
      const server = await this.#server()
      let response: Response
      try {
        response = await fetch(`${server.baseUrl}${url}`, {
          method,
          headers: {
            ...(who ? { authorization: `Bearer ${this.#tokens.get(who)}` } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(options.key ? { 'idempotency-key': options.key } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(30_000),
        })
      } catch (error) {
        // Cut off: by the crash if the process is gone (or goes within a few seconds).
        const died = await Promise.race([server.exited.then(() => true), sleep(5000).then(() => false)])
        if (!died || attempt > 5) throw error
        interrupted = true
        continue
      }
      const text = await response.text()
      const json = text ? JSON.parse(text) : undefined
      const code = typeof json?.code === 'string' ? (json.code as string) : null
      if (response.status === 409 && code === 'idempotency_request_in_progress') {
        inProgressSince ??= Date.now()
        if (Date.now() - inProgressSince < this.#inProgressRetrySeconds * 1000) {
          await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000)
          continue
        }
      }
      const stuck = response.status === 409 && code === 'idempotency_request_in_progress'
      if (interrupted || inProgressSince !== undefined) {
        this.retried.push({
          label: options.label,
          key: options.key ?? null,
          status: response.status,
          code,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          stuck,
          refusedByLaterState:
            response.status === 409 && code !== null && (options.alsoFine ?? []).includes(code) && timerRefusals.includes(code),
        })
      }
      return { status: response.status, body: json, interrupted: interrupted || inProgressSince !== undefined, stuck }
    }
  }

  /** A request that must succeed. */
  async must(
    who: Party | string,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body: object | undefined,
    options: { label: string; key?: string },
  ) {
    const answer = await this.call(who, method, url, body, options)
    if (answer.status >= 300) throw new StepFailed(`${options.label} answered ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }

  /** A request without an Idempotency-Key: when the crash cut it off, `done()` tells whether it had taken effect. */
  async step(
    who: string | null,
    method: 'POST' | 'PUT',
    url: string,
    body: object | undefined,
    options: { label: string },
    done: () => Promise<boolean>,
  ) {
    const answer = await this.call(who, method, url, body, options)
    if (answer.status < 300) return answer.body
    if (answer.interrupted && (await done())) return undefined
    throw new StepFailed(`${options.label} answered ${answer.status} ${JSON.stringify(answer.body)}`)
  }

  /**
   * A money-moving POST with its Idempotency-Key. `alsoFine` lists refusals
   * that only mean the sale went the same way by another path (a timer came
   * first). A key left in progress for good is recorded (the check fails)
   * and the client carries on with a fresh key, so the rest of the burst
   * still runs.
   */
  async keyed(who: string, url: string, body: object | undefined, key: string, label: string, alsoFine: string[] = []) {
    let answer = await this.call(who, 'POST', url, body, { label, key, alsoFine })
    if (answer.stuck) answer = await this.call(who, 'POST', url, body, { label: `${label} (fresh key)`, key: `${key}-fresh`, alsoFine })
    if (answer.status < 300) return answer.body
    if (answer.status === 409 && alsoFine.includes(answer.body?.code)) return { status: answer.body?.code }
    throw new StepFailed(`${label} answered ${answer.status} ${JSON.stringify(answer.body)}`)
  }
}
