import { z } from 'zod'

/**
 * A small client for AfterShip's Tracking API (version 2026-07, plain
 * fetch): every request carries the key in `as-api-key`; every answer is the
 * envelope `{ meta: { code, message }, data }`, `meta.code` being the
 * API's own code. From 2024-07 on, request and answer bodies are the
 * tracking itself (2024-04 wrapped both in `{ tracking: … }`); the shapes
 * are those of AfterShip's official Node SDK for 2026-07
 * (@aftership/tracking-sdk 17.0.0), which testing/aftership-fake.ts checks
 * against (testing/fixtures/aftership-tracking-sdk-17.0.0.json).
 */
export const aftershipApiVersion = '2026-07'
export const trackingAlreadyExists = 4003
/** MISSING_OR_INVALID_REQUIRED_FIELD: the courier needs a field the create did not give (or gave in a form it refuses). */
export const missingOrInvalidRequiredField = 4011

const checkpointSchema = z.looseObject({
  tag: z.string().nullish(),
  checkpoint_time: z.string().nullish(),
})

export const aftershipTrackingSchema = z.looseObject({
  id: z.string().nullish(),
  slug: z.string(),
  tracking_number: z.string(),
  tag: z.string().nullish(),
  updated_at: z.string().nullish(),
  checkpoints: z.array(checkpointSchema).nullish(),
})
export type AftershipTracking = z.infer<typeof aftershipTrackingSchema>

const courierSchema = z.looseObject({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/),
  name: z.string().min(1).max(200),
  /** AdditionalFields names (`destination_postal_code`, `tracking_ship_date`, …); null or absent when none. */
  required_fields: z.array(z.string()).nullish(),
})
export type AftershipCourier = z.infer<typeof courierSchema>

const envelopeSchema = z.looseObject({
  meta: z.looseObject({ code: z.number(), message: z.string().nullish() }),
  data: z.unknown().optional(),
})

export class AftershipApiError extends Error {
  readonly status: number
  readonly metaCode: number | undefined
  constructor(status: number, metaCode: number | undefined, message: string) {
    super(`AfterShip answered ${status}${metaCode === undefined ? '' : ` (${metaCode})`}: ${message}`)
    this.name = 'AftershipApiError'
    this.status = status
    this.metaCode = metaCode
  }

  /** The API refused a duplicate: the tracking is registered, which is what was asked. */
  get alreadyExists(): boolean {
    return this.metaCode === trackingAlreadyExists || this.status === 409
  }

  /** The courier needs a detail the create lacked: asking again with the same body cannot succeed. */
  get missingRequiredField(): boolean {
    return this.metaCode === missingOrInvalidRequiredField
  }
}

export interface NewTracking {
  slug: string
  trackingNumber: string
  transactionId: string
  /** The courier's additional fields (aftership-required-fields.ts), by AfterShip's names. */
  additionalFields?: Record<string, string>
}

const requestTimeoutMs = 10_000

export class AftershipApi {
  readonly #baseUrl: string
  readonly #apiKey: string

  constructor(options: { baseUrl: string; apiKey: string }) {
    this.#baseUrl = options.baseUrl
    this.#apiKey = options.apiKey
  }

  /** POST /trackings. The API keeps one tracking per slug and number: a second create answers 4003. */
  async createTracking(tracking: NewTracking): Promise<AftershipTracking> {
    const data = await this.#call('POST', '/trackings', {
      ...tracking.additionalFields,
      slug: tracking.slug,
      tracking_number: tracking.trackingNumber,
      order_id: tracking.transactionId,
      custom_fields: { pactum_transaction_id: tracking.transactionId },
    })
    return aftershipTrackingSchema.parse(data)
  }

  /** GET /trackings/{id}. */
  async getTracking(id: string): Promise<AftershipTracking> {
    return aftershipTrackingSchema.parse(await this.#call('GET', `/trackings/${encodeURIComponent(id)}`))
  }

  /** GET /trackings filtered by slug and number: how a tracking created earlier (a 4003) is found. */
  async findTracking(slug: string, trackingNumber: string): Promise<AftershipTracking | undefined> {
    const query = new URLSearchParams({ slug, tracking_numbers: trackingNumber })
    const data = z
      .looseObject({ trackings: z.array(aftershipTrackingSchema) })
      .parse(await this.#call('GET', `/trackings?${query.toString()}`))
    return data.trackings.find((tracking) => tracking.slug === slug && tracking.tracking_number === trackingNumber)
  }

  /** GET /couriers: the couriers activated on the account. */
  async listCouriers(): Promise<AftershipCourier[]> {
    const data = z.looseObject({ couriers: z.array(z.unknown()) }).parse(await this.#call('GET', '/couriers'))
    // One malformed entry does not cost the whole list.
    return data.couriers.flatMap((courier) => {
      const parsed = courierSchema.safeParse(courier)
      return parsed.success ? [parsed.data] : []
    })
  }

  async #call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.#baseUrl}${path}`, {
      method,
      headers: {
        'as-api-key': this.#apiKey,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    })
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new AftershipApiError(response.status, undefined, 'not a JSON answer')
    }
    const envelope = envelopeSchema.safeParse(json)
    if (!response.ok || !envelope.success) {
      const meta = envelope.success ? envelope.data.meta : undefined
      throw new AftershipApiError(response.status, meta?.code, meta?.message ?? 'unexpected answer')
    }
    return envelope.data.data
  }
}
