import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('configuration', () => {
  it('runs on the embedded defaults with an empty environment', () => {
    const config = loadConfig({})
    expect(config.port).toBe(3000)
    expect(config.databaseUrl).toBeUndefined()
    expect(config.dataDir).toMatch(/data$/)
    expect(config.oidc).toEqual({
      mode: 'embedded',
      issuer: 'http://localhost:3000/oidc',
      clientId: 'pactum-app',
      audience: 'pactum-api',
    })
  })

  it('lists every bad or missing variable in one error', () => {
    let error: unknown
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', OIDC_ISSUER: 'https://id.example.com' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    const problems = (error as ConfigError).problems.join('\n')
    expect(problems).toMatch(/^PORT:/m)
    expect(problems).toMatch(/^DATABASE_URL:/m)
    expect(problems).toMatch(/^OIDC_CLIENT_ID: required/m)
    expect(problems).toMatch(/^OIDC_AUDIENCE: required/m)
  })

  it('switches to an external sign-in provider when all three OIDC variables are set', () => {
    const config = loadConfig({
      OIDC_ISSUER: 'https://id.example.com/realms/pactum',
      OIDC_CLIENT_ID: 'web',
      OIDC_AUDIENCE: 'api',
    })
    expect(config.oidc.mode).toBe('external')
  })

  it('treats empty variables as unset and trims the public URL', () => {
    const config = loadConfig({ DATABASE_URL: '', PUBLIC_URL: 'https://pactum.example/', ADMIN_EMAILS: ' A@x.com, b@y.com ' })
    expect(config.databaseUrl).toBeUndefined()
    expect(config.publicUrl).toBe('https://pactum.example')
    expect(config.adminEmails).toEqual(['a@x.com', 'b@y.com'])
  })

  it('arms no crash point unless CRASH_POINT names one, with an optional count', () => {
    expect(loadConfig({}).crashPoint).toBeUndefined()
    expect(loadConfig({ CRASH_POINT: 'outbox.after-provider-call' }).crashPoint).toEqual({ name: 'outbox.after-provider-call', nth: 1 })
    expect(loadConfig({ CRASH_POINT: 'timer.after-commit:3' }).crashPoint).toEqual({ name: 'timer.after-commit', nth: 3 })
    for (const bad of ['outbox', 'outboxXafter-provider-call', 'timer.after-commit:0', 'timer.after-commit:x']) {
      expect(() => loadConfig({ CRASH_POINT: bad }), bad).toThrow(/^\s+- CRASH_POINT: one of/m)
    }
  })
})
