import type { FastifyInstance } from 'fastify'
import { AppError } from '../../errors.ts'
import type { AftershipCarrierTracker } from './aftership.ts'
import { aftershipSignatureHeader, aftershipWebhookSchema, verifyAftershipSignature } from './aftership-webhook.ts'
import { named } from '../../http/named-plugin.ts'

export const trackingWebhookPath = '/webhooks/tracking'

/**
 * The tracking aggregator's webhook, registered only when it is the
 * tracker. The signature is checked over the raw bytes (this scope's only
 * body parser keeps them as a Buffer): 401 when missing or wrong. Anything
 * signed is answered 200, news or not, since the aggregator retries until
 * it gets a 2xx; a repeated delivery is recognised by its event id.
 */
export async function registerTrackingWebhookRoute(
  app: FastifyInstance,
  deps: { tracker: AftershipCarrierTracker; secret: string },
): Promise<void> {
  const plugin = named('aftership-webhook', async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
      done(null, body)
    })
    scope.post(trackingWebhookPath, { schema: { hide: true } }, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const signature = request.headers[aftershipSignatureHeader]
      if (!verifyAftershipSignature(typeof signature === 'string' ? signature : undefined, raw, deps.secret)) {
        request.log.warn({ provider: 'aftership', present: signature !== undefined }, 'tracking webhook signature refused')
        throw new AppError('unauthenticated', 'Invalid tracking webhook signature', { details: { field: aftershipSignatureHeader } })
      }
      let json: unknown
      try {
        json = JSON.parse(raw.toString('utf8'))
      } catch {
        throw new AppError('validation_failed', 'The webhook body is not JSON', { details: { field: 'body' } })
      }
      const parsed = aftershipWebhookSchema.safeParse(json)
      if (!parsed.success) {
        const field = `body.${parsed.error.issues[0]?.path.join('.') ?? ''}`
        throw new AppError('validation_failed', 'The webhook body is not a tracking update', { details: { field } })
      }
      if (parsed.data.event !== 'tracking_update') return { received: true, outcome: 'ignored' }
      const outcome = await deps.tracker.receive(parsed.data.msg)
      request.log.info(
        { provider: 'aftership', eventId: parsed.data.event_id, tag: parsed.data.msg.tag, outcome },
        'tracking webhook received',
      )
      return { received: true, outcome }
    })
  })
  await app.register(plugin)
}
