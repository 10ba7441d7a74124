import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'
import type { FastifyInstance } from 'fastify'
import { type PlaidEnvironment, plaidEnvironments } from '../../bank-link-config.ts'
import { behindTrustedProxy, type TrustProxy } from '../../trust-proxy.ts'

/** Stripe.js and its iframes (the Payment Element, 3-D Secure), per Stripe's CSP guidance. */
const stripeSources = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
}

/** Plaid Link: its loader script and iframe come from cdn.plaid.com; Link talks to the environment's API. */
function plaidSources(environment: PlaidEnvironment) {
  return {
    script: ['https://cdn.plaid.com'],
    frame: ['https://cdn.plaid.com'],
    connect: [plaidEnvironments[environment]],
    img: [] as string[],
  }
}

export interface SecurityHeadersOptions {
  externalIssuer?: string
  trustProxy: TrustProxy
  /** The payment provider's browser code is Stripe.js (config.payments.provider === 'stripe'). */
  stripe?: boolean
  /** Plaid Link is the US bank-link screen (PLAID_CLIENT_ID / PLAID_SECRET set), in this environment. */
  plaid?: PlaidEnvironment
}

/**
 * A strict Content-Security-Policy that the built web app passes: scripts
 * only from our origin, no inline scripts, no eval. Inline styles stay
 * allowed because MUI (emotion) injects them. An external sign-in provider's
 * origin is added where the browser talks to it; Stripe's and Plaid's
 * origins only when that provider is configured, so the sandbox's policy
 * stays as strict as it was (no frame-src at all: default-src 'self').
 *
 * helmet decides the headers, once: @fastify/helmet built helmet again for
 * every request (2.4 % of a request's time, issue 13), and running helmet's
 * twelve middlewares per request was still 4 % of a status page's read
 * (issue 36). Our directives are all fixed strings, so what helmet sets is
 * the same for every answer. The headers go on the raw response, as
 * helmet's own middleware sets them, so that answers written outside
 * Fastify's reply (the embedded sign-in's pages) carry them too.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions) {
  const issuerOrigin = options.externalIssuer ? new URL(options.externalIssuer).origin : undefined
  const withIssuer = (sources: string[]) => (issuerOrigin ? [...sources, issuerOrigin] : sources)
  const providers = [...(options.stripe ? [stripeSources] : []), ...(options.plaid ? [plaidSources(options.plaid)] : [])]
  const withProviders = (sources: string[], kind: keyof typeof stripeSources) => [
    ...sources,
    ...providers.flatMap((provider) => provider[kind]),
  ]
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': withProviders(["'self'"], 'script'),
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': withProviders(["'self'", 'data:'], 'img'),
          'font-src': ["'self'", 'data:'],
          'connect-src': withProviders(withIssuer(["'self'"]), 'connect'),
          ...(providers.length > 0 ? { 'frame-src': withProviders(["'self'"], 'frame') } : {}),
          'object-src': ["'none'"],
          'base-uri': ["'self'"],
          'frame-ancestors': ["'none'"],
          'form-action': withIssuer(["'self'"]),
        },
      },
      // The sign-in pages post to our own origin and redirect to the client's
      // redirect_uri; a strict referrer policy keeps codes out of Referer.
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
      // One framing rule: CSP frame-ancestors 'none'; X-Frame-Options would only repeat it.
      frameguard: false,
      // Set below, and only where the browser really came over https.
      hsts: false,
    }),
  )
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value)
    done()
  })
  app.addHook('onSend', async (request, reply) => {
    // Behind a TLS-terminating proxy (TRUST_PROXY) the protocol is the one the browser used;
    // without one, a plain-HTTP answer must not pin https on the host.
    if (behindTrustedProxy(options.trustProxy) && request.protocol === 'https') {
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
    }
    // What a signed-in person's API answers carry is theirs alone: no cache may keep it. A download
    // that already says so (`private, no-store`, for the browsers' download managers) keeps its words.
    const alreadyUncached = String(reply.getHeader('cache-control') ?? '').includes('no-store')
    if (request.headers.authorization && request.url.startsWith('/api/') && !alreadyUncached) reply.header('Cache-Control', 'no-store')
  })
}

/**
 * The headers a middleware sets on a response, read by running it once on
 * a stand-in. Only for a middleware whose headers depend on nothing in the
 * request: it fails loudly if the middleware reads the request, removes a
 * header it did not set (helmet's X-Powered-By, which Fastify never sends,
 * is the one exception it may remove) or does not finish at once.
 */
function headersSetBy(
  middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void,
): Array<[string, string]> {
  const headers = new Map<string, string>()
  const response = {
    setHeader: (name: string, value: string) => void headers.set(name, value),
    removeHeader: (name: string) => {
      if (name.toLowerCase() !== 'x-powered-by') throw new Error(`the middleware removed ${name}`)
    },
  }
  const request = new Proxy(
    {},
    {
      get: (_target, property) => {
        throw new Error(`the middleware read the request's ${String(property)}`)
      },
    },
  )
  let finished = false
  middleware(request as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error
    finished = true
  })
  if (!finished) throw new Error('the middleware did not finish at once')
  return [...headers]
}
