import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../../testing/app-per-test.ts'

const testApps = appPerTest()

describe('CORS of the embedded sign-in', () => {
  it('answers a token preflight only for the web app’s own origin', async () => {
    const testApp = await testApps.open()
    const preflight = (origin: string) =>
      testApp!.app.inject({
        method: 'OPTIONS',
        url: '/oidc/token',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })
    const foreign = await preflight('https://evil.example')
    expect(foreign.statusCode).toBe(403)
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    const own = await preflight('http://localhost:3999')
    expect(own.statusCode).toBeLessThan(300)
    expect(own.headers['access-control-allow-origin']).toBe('http://localhost:3999')
  })
})
