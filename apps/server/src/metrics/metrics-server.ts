import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

/**
 * GET /metrics on its own port (METRICS_PORT, on METRICS_HOST: 127.0.0.1
 * unless told), apart from the public API, so that neither the money's
 * figures nor the process's internals are ever served to the internet.
 * Nothing else is answered there.
 */
export async function startMetricsServer(options: {
  registry: Registry
  port: number
  host: string
  onError: (error: unknown) => void
}): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    options.registry
      .metrics()
      .then((text) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(text))
      .catch((error: unknown) => {
        options.onError(error)
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be read\n')
      })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
