import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { signAftershipWebhook } from '../adapters/carrier-tracker/aftership-webhook.ts'

export interface RecordedAftershipRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: unknown
}

export interface FakeTracking {
  id: string
  slug: string
  tracking_number: string
  order_id: string | null
  custom_fields: Record<string, string>
  tag: string
  updated_at: string
  checkpoints: Array<{ tag: string; checkpoint_time: string; message: string }>
}

/** What the app's webhook route answers, through `inject` or over HTTP. */
export type WebhookTarget = (request: { headers: Record<string, string>; payload: string }) => Promise<number>

export interface AftershipFake {
  /** The versioned base, as TRACKING_API_URL. */
  url: string
  apiKey: string
  webhookSecret: string
  requests: RecordedAftershipRequest[]
  couriers: Array<{ slug: string; name: string }>
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

const basePath = '/tracking/2024-04'
const allowedCreateFields = new Set(['slug', 'tracking_number', 'order_id', 'custom_fields', 'title', 'emails', 'smses'])

/**
 * A stateful stand-in for AfterShip's Tracking API (2024-04), for tests: it
 * checks `as-api-key` on every call (401 otherwise), the JSON body of a
 * create (flat, not the legacy `{ tracking: … }` wrapper; slug among the
 * account's couriers; one tracking per slug and number, a second create
 * answering 400 with meta code 4003), keeps the trackings, answers the
 * courier list and lookups in AfterShip's envelope, and builds webhooks
 * signed as AfterShip signs them (base64 HMAC-SHA256 of the raw body in
 * `aftership-hmac-sha256`).
 */
export async function startAftershipFake(): Promise<AftershipFake> {
  const apiKey = `asat_${randomUUID().replaceAll('-', '')}`
  const webhookSecret = `whsec_${randomUUID().replaceAll('-', '')}`
  const requests: RecordedAftershipRequest[] = []
  const trackings = new Map<string, FakeTracking>()
  const couriers = [
    { slug: 'dhl', name: 'DHL Express' },
    { slug: 'ups', name: 'UPS' },
    { slug: 'royal-mail', name: 'Royal Mail' },
    { slug: 'yodel', name: 'Yodel' },
    { slug: 'hrvatska-posta', name: 'Hrvatska pošta' },
  ]
  let failures = 0
  const find = (slug: string, trackingNumber: string) =>
    [...trackings.values()].find((tracking) => tracking.slug === slug && tracking.tracking_number === trackingNumber)
  const create = (slug: string, trackingNumber: string, orderId: string | null, customFields: Record<string, string>): FakeTracking => {
    const tracking: FakeTracking = {
      id: randomUUID().replaceAll('-', '').slice(0, 24),
      slug,
      tracking_number: trackingNumber,
      order_id: orderId,
      custom_fields: customFields,
      tag: 'Pending',
      updated_at: new Date().toISOString(),
      checkpoints: [],
    }
    trackings.set(tracking.id, tracking)
    return tracking
  }

  const answer = (status: number, code: number, data: unknown, message = 'OK') => ({
    status,
    body: { meta: { code, message, type: status < 300 ? 'OK' : 'BadRequest' }, data },
  })

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
      const unknown = Object.keys(fields).filter((key) => !allowedCreateFields.has(key))
      if (unknown.length > 0) return answer(400, 4001, {}, `Unknown fields: ${unknown.join(', ')}.`)
      const { slug, tracking_number: trackingNumber, order_id: orderId, custom_fields: customFields } = fields
      if (typeof trackingNumber !== 'string' || !/^[\x21-\x7e]{1,100}$/.test(trackingNumber))
        return answer(400, 4002, {}, 'The value of `tracking_number` is invalid.')
      if (typeof slug !== 'string' || !couriers.some((courier) => courier.slug === slug))
        return answer(400, 4005, {}, 'The value of `slug` is invalid.')
      if (orderId !== undefined && typeof orderId !== 'string') return answer(400, 4001, {}, 'The value of `order_id` is invalid.')
      if (
        customFields !== undefined &&
        (typeof customFields !== 'object' ||
          customFields === null ||
          Object.values(customFields).some((value) => typeof value !== 'string'))
      ) {
        return answer(400, 4001, {}, 'The value of `custom_fields` is invalid.')
      }
      if (find(slug, trackingNumber)) return answer(400, 4003, {}, 'Tracking already exists.')
      return answer(201, 201, create(slug, trackingNumber, orderId ?? null, (customFields ?? {}) as Record<string, string>), 'Created')
    }
    if (method === 'GET' && path === '/trackings') {
      const slug = url.searchParams.get('slug')
      const numbers = (url.searchParams.get('tracking_numbers') ?? '').split(',').filter(Boolean)
      const found = [...trackings.values()].filter(
        (tracking) => (!slug || tracking.slug === slug) && (numbers.length === 0 || numbers.includes(tracking.tracking_number)),
      )
      return answer(200, 200, { trackings: found, pagination: { total: found.length, has_next_page: false } })
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
    seed: (slug, trackingNumber) => create(slug, trackingNumber, null, {}),
    checkpoint: (slug, trackingNumber, tag, at) => {
      const tracking = find(slug, trackingNumber)
      if (!tracking) throw new Error(`the fake tracks no ${slug} ${trackingNumber}`)
      tracking.tag = tag
      tracking.updated_at = at.toISOString()
      tracking.checkpoints.push({ tag, checkpoint_time: at.toISOString(), message: tag })
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
