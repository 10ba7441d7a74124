import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
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

describe('e-mail configuration', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

  function problemsOf(env: Record<string, string>): string {
    try {
      loadConfig(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      return (error as ConfigError).problems.join('\n')
    }
    throw new Error('the configuration was accepted')
  }

  it('writes files from the support address unless SMTP_URL is set', () => {
    expect(loadConfig({}).mail).toEqual({ transport: 'file', from: { address: 'support@pactum.example' } })
    expect(loadConfig({ SUPPORT_EMAIL: 'help@shop.example', SMTP_FROM: 'Pactum Shop <no-reply@shop.example>' }).mail).toEqual({
      transport: 'file',
      from: { name: 'Pactum Shop', address: 'no-reply@shop.example' },
    })
  })

  it('reads host, port, TLS mode and percent-encoded credentials from SMTP_URL', () => {
    const starttls = loadConfig({ SMTP_URL: 'smtp://mailer%40shop.example:p%40ss%3Aw%C3%B6rd@smtp.shop.example' }).mail
    expect(starttls).toEqual({
      transport: 'smtp',
      from: { address: 'support@pactum.example' },
      smtp: { host: 'smtp.shop.example', port: 587, secure: false, requireTls: true, auth: { user: 'mailer@shop.example', pass: 'p@ss:wörd' }, dkim: undefined },
    })
    const implicit = loadConfig({ SMTP_URL: 'smtps://smtp.shop.example', SMTP_FROM: '"Pactum" <no-reply@shop.example>' }).mail
    expect(implicit).toMatchObject({ from: { name: 'Pactum', address: 'no-reply@shop.example' }, smtp: { port: 465, secure: true, requireTls: false, auth: undefined } })
    const local = loadConfig({ SMTP_URL: 'smtp://localhost:1025', SMTP_REQUIRE_TLS: 'false' }).mail
    expect(local).toMatchObject({ smtp: { host: 'localhost', port: 1025, secure: false, requireTls: false } })
  })

  it('passes the DKIM settings through, the key given inline (one line) or as a file', async () => {
    const inline = loadConfig({ SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'Shop.example', SMTP_DKIM_SELECTOR: 'pactum', SMTP_DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }).mail
    expect(inline).toMatchObject({ smtp: { dkim: { domainName: 'shop.example', keySelector: 'pactum', privateKey: pem } } })
    const dir = await mkdtemp(path.join(tmpdir(), 'pactum-dkim-'))
    try {
      await writeFile(path.join(dir, 'dkim.pem'), pem)
      const fromFile = loadConfig({ SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'shop.example', SMTP_DKIM_SELECTOR: 'pactum', SMTP_DKIM_PRIVATE_KEY_FILE: path.join(dir, 'dkim.pem') }).mail
      expect(fromFile).toMatchObject({ smtp: { dkim: { privateKey: pem } } })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('fails naming each bad e-mail variable, and never repeats a secret', () => {
    const secret = 'hunter2-very-secret'
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ SMTP_URL: `http://user:${secret}@smtp.shop.example` }, /^SMTP_URL: the scheme must be/m],
      [{ SMTP_URL: `smtp://user:${secret}@smtp.shop.example/path?x=1` }, /^SMTP_URL: only user, password, host and port/m],
      [{ SMTP_URL: `smtp://:${secret}@smtp.shop.example` }, /^SMTP_URL: give both the user and the password/m],
      [{ SMTP_URL: 'not a url' }, /^SMTP_URL: not a URL/m],
      [{ SMTP_URL: 'smtps://smtp.shop.example', SMTP_FROM: 'nobody' }, /^SMTP_FROM: not an e-mail address/m],
      [{ SMTP_URL: 'smtps://smtp.shop.example', SMTP_REQUIRE_TLS: 'maybe' }, /^SMTP_REQUIRE_TLS: expected true or false/m],
      [{ SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'shop.example' }, /^SMTP_DKIM_SELECTOR: required[\s\S]*^SMTP_DKIM_PRIVATE_KEY: required/m],
      [{ SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'shop.example', SMTP_DKIM_SELECTOR: 'x', SMTP_DKIM_PRIVATE_KEY: secret }, /^SMTP_DKIM_PRIVATE_KEY: not a PEM private key/m],
      [{ SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'shop.example', SMTP_DKIM_SELECTOR: 'x', SMTP_DKIM_PRIVATE_KEY_FILE: '/nonexistent/dkim.pem' }, /^SMTP_DKIM_PRIVATE_KEY_FILE: cannot read the file \(ENOENT\)/m],
      [{ SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'not a domain', SMTP_DKIM_SELECTOR: 'x', SMTP_DKIM_PRIVATE_KEY: pem }, /^SMTP_DKIM_DOMAIN: not a domain name/m],
      [{ SMTP_DKIM_DOMAIN: 'shop.example' }, /^SMTP_DKIM_DOMAIN: only used with SMTP_URL/m],
    ]
    for (const [env, expected] of cases) {
      const problems = problemsOf(env)
      expect(problems, JSON.stringify(env)).toMatch(expected)
      expect(problems).not.toContain(secret)
      expect(problems).not.toContain('PRIVATE KEY-----')
    }
  })
})
