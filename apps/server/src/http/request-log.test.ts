import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { OneLinePerRequest } from './request-log.ts'

function loggedApp() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
      done()
    },
  })
  const app = Fastify({ logger: { level: 'info', stream }, logController: new OneLinePerRequest({ requestIdLogLabel: 'request_id' }) })
  app.get('/hello', async () => ({ hello: 'world' }))
  return { app, lines }
}

describe('the request log', () => {
  let close: (() => Promise<void>) | undefined
  afterEach(async () => close?.())

  it('writes one line per request when it ends: method, URL, status, time and request id, no headers', async () => {
    const { app, lines } = loggedApp()
    close = () => app.close()
    await app.inject({ url: '/hello', headers: { authorization: 'Bearer secret-token' } })
    await app.inject({ url: '/nowhere' })
    const requests = lines.filter((line) => line.request_id !== undefined)
    expect(requests).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/hello' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      // The 404 handler's own line, then the request's.
      expect.objectContaining({ msg: 'Route GET:/nowhere not found' }),
      expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ url: '/nowhere' }), res: { statusCode: 404 } }),
    ])
    expect(JSON.stringify(lines)).not.toContain('secret-token')
  })
})
