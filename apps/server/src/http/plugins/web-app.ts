import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/** Paths owned by the server; everything else is the web app's to route. */
const serverPrefixes = ['/api/', '/app_api/', '/oidc', '/webhooks/', '/sandbox/', '/stop-invitations/', '/email-opt-out/']

/**
 * Serves the built web app on the same port as the API, with a history
 * fallback: an unknown path that a browser navigates to gets index.html and
 * the app's router decides (unknown paths end on /transactions there).
 */
export async function registerWebApp(app: FastifyInstance, options: { distDir: string }) {
  const indexFile = path.join(options.distDir, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir: options.distDir }, 'web app is not built; run `npm run build`')
    return
  }
  await app.register(fastifyStatic, {
    root: options.distDir,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside each file (apps/web/precompress-plugin.ts); sent by Accept-Encoding.
    preCompressed: true,
    // Hashed bundle files never change; index.html must always be revalidated.
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return
    const pathname = request.url.split('?')[0] ?? '/'
    if (serverPrefixes.some((prefix) => pathname === prefix.replace(/\/$/, '') || pathname.startsWith(prefix))) return
    if (path.extname(pathname) !== '' && pathname !== '/') return
    reply.header('cache-control', 'no-cache')
    return reply.sendFile('index.html')
  })
}
