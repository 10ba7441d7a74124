import { randomUUID } from 'node:crypto'
import { signWebhook } from '../../apps/server/src/modules/payments/webhook-signature.ts'

/** Who calls: a party of the sale, the administrator, or nobody signed in (the provider's own page, webhooks). */
export type Caller = 'buyer' | 'seller' | 'admin' | null

export type Phase = 'setup' | 'race'

export interface CallContext {
  race: string
  saleId: string
  phase: Phase
}

/** One answer, as the bench keeps it for the checks and the figures. */
export interface Answer {
  race: string
  saleId: string
  /** `setup` brings the sale to where the race starts; `race` is the race itself. */
  phase: Phase
  /** What was asked, as the race names it (`seller cancel`, `buyer confirm_payment`). */
  label: string
  /** The route as the API documents it: `POST /api/v1/transactions/{id}/cancel`. */
  route: string
  status: number
  /** The refusal's code, or null for a success. */
  code: string | null
  replayed: boolean
  /** The transaction status a success reported, or the one a refusal was made in. */
  reportedStatus: string | null
  /** Thrown before any answer (connection refused, reset): counts as a failure. */
  networkError: string | null
  body: unknown
}

export interface CallOptions {
  body?: object
  idempotencyKey?: string
  label?: string
}

/**
 * Calls the running server over HTTP as a client does (bearer token,
 * X-Request-Id, optional Idempotency-Key) and records every answer.
 */
export class ApiClient {
  readonly answers: Answer[] = []
  readonly #baseUrl: string
  readonly #webhookSecret: string

  constructor(baseUrl: string, webhookSecret: string) {
    this.#baseUrl = baseUrl
    this.#webhookSecret = webhookSecret
  }

  async call(
    context: CallContext & { tokens: Record<'buyer' | 'seller' | 'admin', string> },
    who: Caller,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    options: CallOptions = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { 'x-request-id': `bench-${randomUUID()}` }
    if (who) headers.authorization = `Bearer ${context.tokens[who]}`
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey
    if (options.body) headers['content-type'] = 'application/json'
    const label = options.label ?? `${who ?? 'anonymous'} ${path.split('?')[0]!.split('/').pop()}`
    return this.#send(context, label, method, path, headers, options.body ? JSON.stringify(options.body) : undefined)
  }

  /** Posts a provider event to the webhook endpoint again, signed as the sandbox signs it (a redelivery). */
  async redeliverWebhook(context: CallContext, event: Record<string, unknown>, label = 'provider webhook'): Promise<Answer> {
    const payload = JSON.stringify(event)
    const headers = {
      'content-type': 'application/json',
      'pactum-signature': signWebhook(payload, this.#webhookSecret, Math.floor(Date.now() / 1000)),
      'x-request-id': `bench-${randomUUID()}`,
    }
    return this.#send(context, label, 'POST', '/webhooks/sandbox', headers, payload)
  }

  async #send(
    context: CallContext,
    label: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    payload: string | undefined,
  ): Promise<Answer> {
    const answer: Answer = {
      race: context.race,
      saleId: context.saleId,
      phase: context.phase,
      label,
      route: `${method} ${routeOf(path)}`,
      status: 0,
      code: null,
      replayed: false,
      reportedStatus: null,
      networkError: null,
      body: undefined,
    }
    try {
      const response = await fetch(`${this.#baseUrl}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) })
      const text = await response.text()
      answer.status = response.status
      answer.replayed = response.headers.get('idempotent-replayed') === 'true'
      answer.body = text ? parseJson(text) : undefined
      const body = answer.body as { code?: unknown; status?: unknown; details?: { status?: unknown } } | undefined
      if (response.status >= 400) {
        answer.code = typeof body?.code === 'string' ? body.code : '(no code)'
        // A refusal of the state machine names the state it was refused in.
        if (typeof body?.details?.status === 'string') answer.reportedStatus = body.details.status
      } else if (typeof body?.status === 'string') answer.reportedStatus = body.status
    } catch (error) {
      answer.networkError = (error as Error).message
    }
    this.answers.push(answer)
    return answer
  }
}

/** `/api/v1/transactions/0190…/cancel?to=x` → `/api/v1/transactions/{id}/cancel`, as the OpenAPI document names paths. */
export function routeOf(path: string): string {
  const bare = path.split('?')[0]!
  return bare
    .replace(/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/g, '/{id}')
    .replace(/\/sandbox\/v1\/payment_intents\/[^/]+/, '/sandbox/v1/payment_intents/{id}')
    .replace(/\/transactions_by_join_code\/[^/]+/, '/transactions_by_join_code/{code}')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
