import type { FastifyInstance, FastifyRequest } from 'fastify'

/**
 * On this machine, the app answers to several names for itself
 * (`localhost`, `127.0.0.1`, `[::1]`), but sign-in, its cookies, the content
 * security policy and the API's CORS name one origin, the configured one:
 * opened as `http://127.0.0.1:3000` for `http://localhost:3000`, sign-in
 * could never complete (issue 33 item 7). A page load under another of
 * those names is sent to the configured address.
 *
 * Only loopback names are moved. Behind a reverse proxy the Host the server
 * sees is often the proxy's upstream, not the public name; redirecting on
 * it would loop, so a public deployment is left as its proxy sends it. API
 * calls, the sign-in provider's paths and the sandbox's pages are answered
 * under any name.
 */
export function registerCanonicalHost(app: FastifyInstance, options: { publicUrl: string }): void {
  const canonical = new URL(options.publicUrl)
  if (!loopbackNames.has(canonical.hostname)) return
  const canonicalPort = Number(canonical.port || (canonical.protocol === 'https:' ? 443 : 80))
  app.addHook('onRequest', async (request, reply) => {
    if (!isPageLoad(request) || !loopbackNames.has(request.hostname) || request.hostname === canonical.hostname) return
    // Only this very server under another of its names: the same port. Another port is a local proxy
    // in front of it (which may send its upstream's name), where a redirect could loop.
    if (request.port !== canonicalPort) return
    return reply.redirect(`${canonical.origin}${request.url}`, 308)
  })
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

const answeredUnderAnyName = ['/api/', '/oidc/', '/app_api/', '/sandbox/', '/.well-known/']

function isPageLoad(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  if (answeredUnderAnyName.some((prefix) => request.url.startsWith(prefix))) return false
  return String(request.headers.accept ?? '').includes('text/html')
}
