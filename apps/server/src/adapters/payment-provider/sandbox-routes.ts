import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { z } from 'zod'
import { AppError, fieldError } from '../../errors.ts'
import { html, type SafeHtml } from '../../modules/sign-in/oidc/html.ts'
import type { PaymentIntent } from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { isSafeReturnUrl } from '../../http/return-url.ts'
import type { SandboxPayments } from './sandbox-payments.ts'
import { perObjectAndAddress, sandboxPageScope } from './sandbox-page-scope.ts'
import { named } from '../../http/named-plugin.ts'

/**
 * The sandbox's own HTTP API, what Stripe.js would call in the browser:
 * confirming an intent (authorised by its client secret, rate-limited since
 * it is public) and P24's bank page. Server-rendered, no script (the CSP
 * allows none inline), forms posting to our own origin.
 */
const confirmBodySchema = z
  .object({
    client_secret: z.string().min(1).max(200),
    card_number: z.string().max(40).optional(),
    iban: z.string().max(64).optional(),
    p24_outcome: z.enum(['succeeded', 'failed']).optional(),
    return_url: z.string().max(2000).optional(),
  })
  .meta({ id: 'SandboxConfirm' })

const intentParamsSchema = z.object({ id: z.string().min(1).max(100) })

const sandboxIntentSchema = z
  .object({
    id: z.string(),
    object: z.literal('payment_intent'),
    status: z.enum(['requires_payment_method', 'requires_action', 'processing', 'succeeded', 'canceled']),
    amount: z.number().int(),
    currency: z.string(),
    payment_method: z.enum(['card', 'sepa', 'p24']),
    last_payment_error: z.object({ code: z.string(), reason: z.string(), message: z.string() }).nullable(),
    next_action: z
      .object({ type: z.literal('redirect_to_url'), redirect_to_url: z.object({ url: z.string(), return_url: z.string() }) })
      .nullable(),
  })
  .meta({ id: 'SandboxPaymentIntent' })

// A wrong client secret answers 404, as an unknown intent does; 429 past the rate limit.
const intentErrors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema }

const p24QuerySchema = z.object({ client_secret: z.string().min(1).max(200), return_url: z.string().max(2000) })
const p24FormSchema = p24QuerySchema.extend({ outcome: z.enum(['authorise', 'fail']) })

export async function sandboxRoutes(app: FastifyInstance, deps: { provider: SandboxPayments }): Promise<void> {
  const { provider } = deps
  const plugin = named('sandbox-payment-pages', async (plain: FastifyInstance) => {
    const scope = await sandboxPageScope(plain)
    const limit = perObjectAndAddress

    scope.post(
      '/sandbox/v1/payment_intents/:id/confirm',
      {
        config: { rateLimit: limit },
        schema: {
          tags: ['sandbox'],
          summary: 'Confirm a sandbox payment intent (what Stripe.js does against Stripe)',
          params: intentParamsSchema,
          body: confirmBodySchema,
          response: { 200: sandboxIntentSchema, ...intentErrors, 409: errorBodySchema },
        },
      },
      async (request) => {
        const body = request.body
        const intent = await asAppErrors(() =>
          provider.confirmPaymentIntent(request.params.id, {
            clientSecret: body.client_secret,
            cardNumber: body.card_number,
            iban: body.iban,
            p24Outcome: body.p24_outcome,
            returnUrl: body.return_url,
          }),
        )
        return intentView(intent)
      },
    )

    scope.get(
      '/sandbox/v1/payment_intents/:id',
      {
        config: { rateLimit: limit },
        schema: {
          tags: ['sandbox'],
          summary: 'Read a sandbox payment intent with its client secret (to follow a SEPA debit)',
          params: intentParamsSchema,
          querystring: z.object({ client_secret: z.string().min(1).max(200) }),
          response: { 200: sandboxIntentSchema, ...intentErrors },
        },
      },
      async (request) => intentView(await asAppErrors(() => provider.retrieveForClient(request.params.id, request.query.client_secret))),
    )

    scope.get(
      '/sandbox/p24/:id',
      { config: { rateLimit: limit }, schema: { hide: true, params: intentParamsSchema, querystring: p24QuerySchema } },
      async (request, reply) => {
        const { client_secret: clientSecret, return_url: returnUrl } = request.query
        if (!isSafeReturnUrl(returnUrl)) return sendPage(reply, 400, messagePage('This payment link is not valid.'))
        const intent = await provider.retrieveForClient(request.params.id, clientSecret).catch(() => null)
        if (!intent || intent.paymentMethod !== 'p24') return sendPage(reply, 404, messagePage('This payment does not exist.'))
        if (intent.status !== 'requires_action') {
          return sendPage(reply, 409, messagePage(`This payment is no longer waiting (${intent.status}).`, returnUrl))
        }
        return sendPage(reply, 200, p24Page(intent, clientSecret, returnUrl))
      },
    )

    scope.post(
      '/sandbox/p24/:id',
      { config: { rateLimit: limit }, schema: { hide: true, params: intentParamsSchema, body: p24FormSchema } },
      async (request, reply) => {
        const { client_secret: clientSecret, return_url: returnUrl, outcome } = request.body
        if (!isSafeReturnUrl(returnUrl)) return sendPage(reply, 400, messagePage('This payment link is not valid.'))
        try {
          const intent = await provider.confirmPaymentIntent(request.params.id, {
            clientSecret,
            p24Outcome: outcome === 'authorise' ? 'succeeded' : 'failed',
          })
          const separator = returnUrl.includes('?') ? '&' : '?'
          const status = intent.status === 'succeeded' ? 'succeeded' : 'failed'
          return reply
            .status(303)
            .header('location', `${returnUrl}${separator}payment_intent=${encodeURIComponent(intent.id)}&redirect_status=${status}`)
            .send()
        } catch (error) {
          if (error instanceof PaymentProviderError && error.code === 'not_found') {
            return sendPage(reply, 404, messagePage('This payment does not exist.'))
          }
          if (error instanceof PaymentProviderError && error.code === 'invalid_state') {
            return sendPage(reply, 409, messagePage('This payment is no longer waiting.', returnUrl))
          }
          throw error
        }
      },
    )
  })
  await app.register(plugin)
}

/** The provider's refusals in the API's error vocabulary. */
export async function asAppErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error
    switch (error.code) {
      case 'not_found':
        throw new AppError('not_found', error.message)
      case 'invalid_state':
        throw new AppError('invalid_state', error.message)
      case 'idempotency_key_reused':
        throw new AppError('idempotency_key_reused', error.message)
      case 'unsupported_combination':
        throw new AppError('unsupported_combination', error.message, { details: { field: 'payment_method' } })
      case 'invalid_request':
      case 'amount_too_large':
        throw fieldError(error.param ? `body.${error.param}` : 'body', error.message)
    }
  }
}

function intentView(intent: PaymentIntent): z.infer<typeof sandboxIntentSchema> {
  return {
    id: intent.id,
    object: 'payment_intent',
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    payment_method: intent.paymentMethod,
    last_payment_error: intent.lastPaymentError,
    next_action: intent.nextAction
      ? { type: 'redirect_to_url', redirect_to_url: { url: intent.nextAction.url, return_url: intent.nextAction.returnUrl } }
      : null,
  }
}

export function sendPage(reply: FastifyReply, status: number, body: SafeHtml, title = 'Pactum sandbox · Przelewy24'): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(layout(body, title).value)
}

function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100)
}

function p24Page(intent: PaymentIntent, clientSecret: string, returnUrl: string): SafeHtml {
  const action = `/sandbox/p24/${encodeURIComponent(intent.id)}`
  const hidden = html`<input type="hidden" name="client_secret" value="${clientSecret}" />
    <input type="hidden" name="return_url" value="${returnUrl}" />`
  return html`<p class="badge">Sandbox · Przelewy24</p>
    <h1>Authorise your payment</h1>
    <p class="amount">${formatAmount(intent.amount, intent.currency)}</p>
    <p>This is Pactum's sandbox bank page. No money moves: choose what the bank answers.</p>
    <div class="actions">
      <form method="post" action="${action}">
        ${hidden}<button type="submit" name="outcome" value="authorise" class="primary">Authorise payment</button>
      </form>
      <form method="post" action="${action}">
        ${hidden}<button type="submit" name="outcome" value="fail" class="secondary">Fail payment</button>
      </form>
    </div>`
}

function messagePage(message: string, returnUrl?: string): SafeHtml {
  return html`<p class="badge">Sandbox · Przelewy24</p>
    <h1>${message}</h1>
    ${returnUrl && isSafeReturnUrl(returnUrl) ? html`<p><a href="${returnUrl}">Back to Pactum</a></p>` : ''}`
}

function layout(content: SafeHtml, title: string): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          body {
            margin: 0;
            font-family:
              Roboto,
              system-ui,
              -apple-system,
              'Segoe UI',
              sans-serif;
            background: #f4f6fb;
            color: #1c1f2a;
          }
          main {
            max-width: 420px;
            margin: 10vh auto;
            background: #fff;
            border-radius: 12px;
            padding: 32px;
            box-shadow: 0 2px 12px rgba(41, 73, 206, 0.12);
          }
          h1 {
            font-size: 1.5rem;
            margin: 0 0 12px;
          }
          .badge {
            display: inline-block;
            margin: 0 0 16px;
            padding: 4px 10px;
            border-radius: 999px;
            background: #e8ecfb;
            color: #2949ce;
            font-size: 0.8rem;
            font-weight: 600;
          }
          .amount {
            font-size: 2rem;
            font-weight: 700;
            margin: 8px 0 16px;
          }
          .actions {
            display: flex;
            gap: 12px;
            flex-wrap: wrap;
            margin-top: 24px;
          }
          button {
            font: inherit;
            font-weight: 600;
            padding: 10px 20px;
            border-radius: 8px;
            cursor: pointer;
            border: 2px solid #2949ce;
          }
          button:focus-visible,
          a:focus-visible {
            outline: 3px solid #1c1f2a;
            outline-offset: 2px;
          }
          .primary {
            background: #2949ce;
            color: #fff;
          }
          .secondary {
            background: #fff;
            color: #2949ce;
          }
          a {
            color: #2949ce;
          }
        </style>
      </head>
      <body>
        <main>${content}</main>
      </body>
    </html>`
}
