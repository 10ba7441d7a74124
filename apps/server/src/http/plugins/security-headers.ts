import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * A strict Content-Security-Policy that the built web app passes: scripts
 * only from our origin, no inline scripts, no eval. Inline styles stay
 * allowed because MUI (emotion) injects them. An external sign-in provider's
 * origin is added where the browser talks to it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { externalIssuer?: string }) {
  const issuerOrigin = options.externalIssuer ? new URL(options.externalIssuer).origin : undefined
  const withIssuer = (sources: string[]) => (issuerOrigin ? [...sources, issuerOrigin] : sources)
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': withIssuer(["'self'"]),
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
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
  })
}
