import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { appPerFile } from '../../testing/app-per-test.ts'
import { registerCanonicalHost } from './canonical-host.ts'

const testApp = appPerFile()

describe('the configured address', () => {
  const page = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

  it('sends a page load under another name (127.0.0.1 for localhost) to the configured origin, path and query kept', async () => {
    const { app } = testApp()
    const answer = await app.inject({ method: 'GET', url: '/transactions?client_id=x', headers: { ...page, host: '127.0.0.1:3999' } })
    expect(answer.statusCode).toBe(308)
    expect(answer.headers.location).toBe(`${app.services.config.publicUrl}/transactions?client_id=x`)
  })

  it('serves the page under the configured name, and API calls and sign-in under any', async () => {
    const { app } = testApp()
    const host = new URL(app.services.config.publicUrl).host
    expect((await app.inject({ method: 'GET', url: '/transactions', headers: { ...page, host } })).statusCode).not.toBe(308)
    const health = await app.inject({ method: 'GET', url: '/api/v1/health', headers: { ...page, host: '127.0.0.1:3999' } })
    expect(health.statusCode).toBe(200)
    const discovery = await app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: '127.0.0.1:3999' },
    })
    expect(discovery.statusCode).not.toBe(308)
  })

  it('leaves a local proxy on another port alone: it may send its upstream’s name, and a redirect could loop', async () => {
    const app = Fastify()
    registerCanonicalHost(app, { publicUrl: 'http://localhost' })
    app.get('/transactions', async () => 'page')
    const answer = await app.inject({ method: 'GET', url: '/transactions', headers: { ...page, host: '127.0.0.1:3000' } })
    expect([answer.statusCode, answer.body]).toEqual([200, 'page'])
  })

  it('leaves a public deployment as its proxy sends it: no redirect on a name the proxy gave, so no loop', async () => {
    const app = Fastify()
    registerCanonicalHost(app, { publicUrl: 'https://pactum.example' })
    app.get('/transactions', async () => 'page')
    const answer = await app.inject({ method: 'GET', url: '/transactions', headers: { ...page, host: '127.0.0.1:3000' } })
    expect([answer.statusCode, answer.body]).toEqual([200, 'page'])
  })
})
