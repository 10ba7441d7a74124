import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import { crashPoint } from '../../crash-points.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import { AppError } from '../../errors.ts'
import type { PaymentEvent } from './payment-event.ts'
import { receiveProviderEvent } from './receive-provider-event.ts'
import { providerEventSchema } from './reduce-provider-event.ts'
import { type SignatureCheck, verifyWebhookSignature } from './webhook-signature.ts'
import { named } from '../../http/named-plugin.ts'

export interface WebhookEndpoint {
  provider: PaymentEvent['provider']
  /** `/webhooks/sandbox` or `/webhooks/stripe`. */
  path: string
  /** `Pactum-Signature` for the sandbox, `Stripe-Signature` for Stripe: same format. */
  signatureHeader: string
  secret: string
  /** How the signature is checked when not by webhook-signature.ts (Stripe's own SDK, stripe-webhook.ts). */
  verify?: (header: string | undefined, rawBody: Buffer, nowSeconds: number) => SignatureCheck
}

/**
 * Provider webhooks: the signature is checked over the raw bytes, so these
 * routes get their own scope whose only body parser keeps the body as a
 * Buffer. 400 for a bad or stale signature, 200 for anything accepted,
 * including a duplicate (a provider retries until it gets a 2xx).
 */
export async function registerWebhookRoutes(
  app: FastifyInstance,
  deps: {
    db: Kysely<Database>
    clock: Clock
    handlers: EventHandlers
    endpoints: WebhookEndpoint[]
    /** Counted for the metrics (pactum_webhooks_received_total, pactum_webhooks_rejected_total). */
    counts?: { received(provider: string): void; rejected(provider: string): void }
  },
): Promise<void> {
  const plugin = named('payment-webhooks', async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => {
      done(null, body)
    })
    for (const endpoint of deps.endpoints) {
      const headerName = endpoint.signatureHeader.toLowerCase()
      scope.post(endpoint.path, { schema: { hide: true } }, async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
        const signature = request.headers[headerName]
        const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000)
        const header = typeof signature === 'string' ? signature : undefined
        const check = endpoint.verify
          ? endpoint.verify(header, raw, nowSeconds)
          : verifyWebhookSignature(header, raw, endpoint.secret, nowSeconds)
        if (!check.ok) {
          deps.counts?.rejected(endpoint.provider)
          request.log.warn({ provider: endpoint.provider, reason: check.reason }, 'webhook signature refused')
          throw new AppError('validation_failed', `Invalid webhook signature (${check.reason})`, {
            details: { field: endpoint.signatureHeader },
          })
        }
        let json: unknown
        try {
          json = JSON.parse(raw.toString('utf8'))
        } catch {
          deps.counts?.rejected(endpoint.provider)
          throw new AppError('validation_failed', 'The webhook body is not JSON')
        }
        const parsed = providerEventSchema.safeParse(json)
        if (!parsed.success) {
          deps.counts?.rejected(endpoint.provider)
          throw new AppError('validation_failed', 'The webhook body is not a provider event')
        }
        deps.counts?.received(endpoint.provider)
        const outcome = await receiveProviderEvent(deps, endpoint.provider, parsed.data)
        crashPoint('webhook.after-commit')
        request.log.info({ provider: endpoint.provider, eventId: parsed.data.id, type: parsed.data.type, outcome }, 'webhook received')
        return { received: true, duplicate: outcome === 'duplicate' }
      })
    }
  })
  await app.register(plugin)
}
