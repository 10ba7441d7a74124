import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'

/**
 * `/favicon.ico`, which browsers ask for on every origin: the web app's mark
 * (apps/web/public/favicon.svg) at 16, 32 and 48 px. Served by the server in
 * both sign-in modes, built web app or not, so the embedded sign-in pages and
 * the app show the same icon.
 */
const faviconFile = new URL('../../../assets/favicon.ico', import.meta.url)

export async function faviconRoute(app: FastifyInstance): Promise<void> {
  const icon = await readFile(faviconFile)
  // A browser asset, not API: kept out of the OpenAPI document.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/x-icon').header('Cache-Control', 'public, max-age=86400').send(icon),
  )
}
