import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { signAftershipWebhook } from '../adapters/carrier-tracker/aftership-webhook.ts'
import { aftershipSchemaProblems, aftershipSdk } from './aftership-schema.ts'

export interface RecordedAftershipRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: unknown
}

/** A tracking as the 2026-07 API answers it: a subset of the SDK's `Tracking` (every field of which is optional). */
export interface FakeTracking {
  id: string
  created_at: string
  updated_at: string
  tracking_number: string
  slug: string
  active: boolean
  order_id: string | null
  custom_fields: Record<string, string> | null
  tag: string
  subtag: string
  subtag_message: string
  title: string
  checkpoints: Array<{ created_at: string; slug: string; checkpoint_time: string; tag: string; subtag: string; message: string }>
  destination_postal_code: string | null
  destination_country_region: string | null
  destination_state: string | null
  tracking_account_number: string | null
  tracking_key: string | null
  tracking_ship_date: string | null
}

/** A courier as GET /couriers lists it (the SDK's `Courier`): `required_fields` are AdditionalFields names. */
export interface FakeCourier {
  slug: string
  name: string
  required_fields?: string[] | null
}

/** What the app's webhook route answers, through `inject` or over HTTP. */
export type WebhookTarget = (request: { headers: Record<string, string>; payload: string }) => Promise<number>

export interface AftershipFake {
  /** The versioned base, as TRACKING_API_URL. */
  url: string
  apiKey: string
  webhookSecret: string
  requests: RecordedAftershipRequest[]
  couriers: FakeCourier[]
  trackings: Map<string, FakeTracking>
  /** The next `count` API calls answer 500 (an outage). */
  failNext(count: number): void
  find(slug: string, trackingNumber: string): FakeTracking | undefined
  /** A tracking created outside Pactum (the same parcel registered before). */
  seed(slug: string, trackingNumber: string): FakeTracking
  /** The carrier reports a new checkpoint: the tracking's tag moves to `tag`. */
  checkpoint(slug: string, trackingNumber: string, tag: string, at: Date): FakeTracking
  /** The webhook AfterShip would send for the tracking as it is now, signed with `secret` (the account's, unless a test forges one). */
  webhook(tracking: FakeTracking, secret?: string): { headers: Record<string, string>; payload: string }
  emitWebhook(tracking: FakeTracking, target: WebhookTarget): Promise<number>
  close(): Promise<void>
}

const basePath = `/tracking/${aftershipSdk.apiVersion}`

/** AfterShip's formats for the additional fields (https://www.aftership.com/docs/tracking/2025-04/enum/additional-tracking-fields; the ship date as the 2026-07 SDK documents it). */
const additionalFieldFormats: Record<string, RegExp> = {
  tracking_account_number: /^[\x21-\x7e]{1,512}$/,
  tracking_key: /^[A-Za-z0-9._-]+$/,
  tracking_ship_date: /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z?)?$/,
  destination_postal_code: /^[A-Za-z0-9+ -]{1,10}$/,
  origin_country_region: /^[A-Z]{3}$/,
  destination_country_region: /^[A-Z]{3}$/,
  destination_state: /^.+$/,
}

/** The meta `type` of an error answer, from the SDK's MetaType (success answers carry none). */
function metaType(status: number): string | undefined {
  const types: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    429: 'TooManyRequests',
  }
  return status < 400 ? undefined : (types[status] ?? 'InternalError')
}

/**
 * A stateful stand-in for AfterShip's Tracking API (2026-07), for tests,
 * answering to the shapes of AfterShip's official Node SDK for that version
 * (testing/fixtures/aftership-tracking-sdk-17.0.0.json; aftership-fake.test.ts
 * checks every answer against them). It checks `as-api-key` on every call
 * (401 otherwise) and the JSON body of a create against the SDK's
 * `CreateTrackingRequest` (flat since 2024-07: a 2024-04 `{ tracking: … }`
 * body is refused), with AfterShip's meta codes: 4007 no tracking number,
 * 4005 an invalid one, 4010 a slug not among the account's couriers, 4011
 * a courier's `required_fields` missing or malformed, 4003 a second
 * tracking for the same slug and number. It keeps the trackings, answers
 * the courier list and lookups in AfterShip's envelope, and builds webhooks
 * signed as AfterShip signs them (base64 HMAC-SHA256 of the raw body in
 * `aftership-hmac-sha256`).
 */
export async function startAftershipFake(): Promise<AftershipFake> {
  const apiKey = `asat_${randomUUID().replaceAll('-', '')}`
  const webhookSecret = `whsec_${randomUUID().replaceAll('-', '')}`
  const requests: RecordedAftershipRequest[] = []
  const trackings = new Map<string, FakeTracking>()
  const couriers: FakeCourier[] = [
    { slug: 'dhl', name: 'DHL Express', required_fields: [] },
    { slug: 'ups', name: 'UPS', required_fields: [] },
    { slug: 'royal-mail', name: 'Royal Mail', required_fields: [] },
    { slug: 'yodel', name: 'Yodel', required_fields: [] },
    { slug: 'hrvatska-posta', name: 'Hrvatska pošta', required_fields: null },
  ]
  let failures = 0
  const find = (slug: string, trackingNumber: string) =>
    [...trackings.values()].find((tracking) => tracking.slug === slug && tracking.tracking_number === trackingNumber)
  const create = (fields: Record<string, unknown> & { slug: string; tracking_number: string }): FakeTracking => {
    const now = new Date().toISOString()
    const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : null)
    const tracking: FakeTracking = {
      id: randomUUID().replaceAll('-', ''),
      created_at: now,
      updated_at: now,
      tracking_number: fields.tracking_number,
      slug: fields.slug,
      active: true,
      order_id: text('order_id'),
      custom_fields: (fields.custom_fields as Record<string, string> | undefined) ?? null,
      tag: 'Pending',
      subtag: 'Pending_001',
      subtag_message: 'No information yet',
      title: text('title') ?? fields.tracking_number,
      checkpoints: [],
      destination_postal_code: text('destination_postal_code'),
      destination_country_region: text('destination_country_region'),
      destination_state: text('destination_state'),
      tracking_account_number: text('tracking_account_number'),
      tracking_key: text('tracking_key'),
      tracking_ship_date: text('tracking_ship_date'),
    }
    trackings.set(tracking.id, tracking)
    return tracking
  }

  const answer = (status: number, code: number, data: unknown, message = '') => {
    const type = metaType(status)
    return { status, body: { meta: { code, message, ...(type ? { type } : {}) }, data } }
  }

  function route(method: string, url: URL, headers: IncomingHttpHeaders, body: unknown): { status: number; body: unknown } {
    if (headers['as-api-key'] !== apiKey) return answer(401, 401, {}, 'Invalid API key.')
    if (failures > 0) {
      failures -= 1
      return answer(500, 500, {}, 'Something went wrong on our side.')
    }
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : undefined
    if (method === 'GET' && path === '/couriers') return answer(200, 200, { total: couriers.length, couriers })
    if (method === 'POST' && path === '/trackings') {
      if (!headers['content-type']?.startsWith('application/json')) return answer(400, 4001, {}, 'Invalid JSON data.')
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return answer(400, 4001, {}, 'Invalid JSON data.')
      const fields = body as Record<string, unknown>
      if (fields.tracking_number === undefined) return answer(400, 4007, {}, '`tracking_number` is required.')
      const problems = aftershipSchemaProblems('CreateTrackingRequest', fields, 'body')
      if (problems.length > 0) return answer(400, 400, {}, `Invalid request: ${problems.join('; ')}.`)
      const { slug, tracking_number: trackingNumber } = fields
      if (typeof trackingNumber !== 'string' || !/^[\x21-\x7e]{1,100}$/.test(trackingNumber))
        return answer(400, 4005, {}, 'The value of `tracking_number` is invalid.')
      const courier = couriers.find((candidate) => candidate.slug === slug)
      if (typeof slug !== 'string' || !courier) return answer(400, 4010, {}, 'The value of `slug` is invalid.')
      const missing = (courier.required_fields ?? []).filter(
        (name) => typeof fields[name] !== 'string' || !additionalFieldFormats[name]?.test(fields[name] as string),
      )
      if (missing.length > 0) return answer(400, 4011, {}, `Missing or invalid required fields: ${missing.join(', ')}.`)
      if (find(slug, trackingNumber)) return answer(400, 4003, {}, 'Tracking already exists.')
      return answer(201, 201, create({ ...fields, slug, tracking_number: trackingNumber }), 'Created')
    }
    if (method === 'GET' && path === '/trackings') {
      const slug = url.searchParams.get('slug')
      const numbers = (url.searchParams.get('tracking_numbers') ?? '').split(',').filter(Boolean)
      const found = [...trackings.values()].filter(
        (tracking) => (!slug || tracking.slug === slug) && (numbers.length === 0 || numbers.includes(tracking.tracking_number)),
      )
      return answer(200, 200, { pagination: { total: found.length, has_next_page: false }, trackings: found })
    }
    const byId = method === 'GET' && path?.match(/^\/trackings\/([a-z0-9]+)$/)
    if (byId) {
      const tracking = trackings.get(byId[1] as string)
      return tracking ? answer(200, 200, tracking) : answer(404, 4004, {}, 'Tracking does not exist.')
    }
    return answer(404, 404, {}, 'The URI requested is invalid or the resource requested does not exist.')
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      let result: { status: number; body: unknown }
      try {
        body = raw ? JSON.parse(raw) : undefined
        result = route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://fake'), req.headers, body)
      } catch {
        result = answer(400, 4001, {}, 'Invalid JSON data.')
      }
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body })
      res.writeHead(result.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(result.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const fake: AftershipFake = {
    url: `http://127.0.0.1:${port}${basePath}`,
    apiKey,
    webhookSecret,
    requests,
    couriers,
    trackings,
    failNext: (count) => {
      failures = count
    },
    find,
    seed: (slug, trackingNumber) => create({ slug, tracking_number: trackingNumber }),
    checkpoint: (slug, trackingNumber, tag, at) => {
      const tracking = find(slug, trackingNumber)
      if (!tracking) throw new Error(`the fake tracks no ${slug} ${trackingNumber}`)
      tracking.tag = tag
      tracking.subtag = `${tag}_001`
      tracking.subtag_message = tag
      tracking.updated_at = at.toISOString()
      tracking.checkpoints.push({
        created_at: at.toISOString(),
        slug,
        checkpoint_time: at.toISOString(),
        tag,
        subtag: `${tag}_001`,
        message: tag,
      })
      return tracking
    },
    webhook: (tracking, secret = webhookSecret) => {
      const payload = JSON.stringify({
        event: 'tracking_update',
        event_id: randomUUID(),
        is_tracking_first_tag: true,
        ts: Math.floor(Date.now() / 1000),
        msg: tracking,
      })
      return { payload, headers: { 'content-type': 'application/json', 'aftership-hmac-sha256': signAftershipWebhook(payload, secret) } }
    },
    emitWebhook: async (tracking, target) => target(fake.webhook(tracking)),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
  return fake
}
