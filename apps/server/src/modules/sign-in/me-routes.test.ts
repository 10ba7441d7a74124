import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

describe('POST /me/email_confirmation', () => {
  it('answers 401 without a token', async () => {
    const testApp = await testApps.open()
    const response = await testApp.app.inject({ method: 'POST', url: '/api/v1/me/email_confirmation' })
    expect(response.statusCode).toBe(401)
  })

  it('has nothing to send for someone without an embedded sign-in account, and e-mails nobody', async () => {
    const testApp = await testApps.open()
    // A token minted for an address that never registered (as `npm run cli -- token` does).
    const token = await testApp.tokenFor('minted@example.com')
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/me/email_confirmation',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'email_confirmation_unavailable' })
    expect(await readdir(path.join(testApp.dataDir, 'mail')).catch(() => [])).toEqual([])
  })

  it('tells the web app that the embedded sign-in confirms addresses', async () => {
    const testApp = await testApps.open()
    const config = (await testApp.app.inject({ url: '/api/v1/config' })).json()
    expect(config.oidc).toMatchObject({ supports_registration: true, supports_email_confirmation: true, supports_password_change: true })
  })
})

describe('POST /me/password', () => {
  it('is for embedded sign-in accounts only: a clear code for anyone else', async () => {
    const testApp = await testApps.open()
    const token = await testApp.tokenFor('minted@example.com')
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/me/password',
      headers: { authorization: `Bearer ${token}` },
      payload: { current_password: 'whatever 123', new_password: 'battery staple 77' },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'password_change_unavailable' })
  })
})

describe('GET /me/sessions', () => {
  it('is for embedded sign-in accounts only', async () => {
    const testApp = await testApps.open()
    const token = await testApp.tokenFor('minted@example.com')
    const response = await testApp.app.inject({ url: '/api/v1/me/sessions', headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'sessions_unavailable' })
  })
})
