import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'
import { passwordCost } from './modules/sign-in/oidc/passwords.ts'

/** What loadConfig refuses in `env`, as the start-up error lists it; fails the test when it accepts. */
function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems.join('\n')
  }
  throw new Error('the configuration was accepted')
}

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

  it('takes a read replica only beside a PostgreSQL primary', () => {
    expect(loadConfig({}).databaseReadUrl).toBeUndefined()
    const config = loadConfig({ DATABASE_URL: 'postgres://app@primary/pactum', DATABASE_READ_URL: 'postgres://app@replica/pactum' })
    expect(config.databaseReadUrl).toBe('postgres://app@replica/pactum')
    expect(problemsOf({ DATABASE_READ_URL: 'postgres://app@replica/pactum' })).toMatch(
      /^DATABASE_READ_URL: a replica of DATABASE_URL, which is not set/m,
    )
    expect(problemsOf({ DATABASE_URL: 'postgres://app@primary/pactum', DATABASE_READ_URL: 'mysql://replica' })).toMatch(
      /^DATABASE_READ_URL:/m,
    )
  })

  it('runs the background jobs unless BACKGROUND_JOBS is off, which only a PostgreSQL process may be', () => {
    expect(loadConfig({}).backgroundJobs).toBe(true)
    expect(loadConfig({ DATABASE_URL: 'postgres://app@primary/pactum', BACKGROUND_JOBS: 'off' }).backgroundJobs).toBe(false)
    expect(problemsOf({ BACKGROUND_JOBS: 'off' })).toMatch(/^BACKGROUND_JOBS: off needs DATABASE_URL/m)
    expect(problemsOf({ DATABASE_URL: 'postgres://app@primary/pactum', BACKGROUND_JOBS: 'no' })).toMatch(/^BACKGROUND_JOBS:/m)
  })

  it("leaves the job queue's pool size to the queue unless JOB_QUEUE_CONNECTIONS gives one from 1 to 100", () => {
    expect(loadConfig({}).jobQueueConnections).toBeUndefined()
    expect(loadConfig({ JOB_QUEUE_CONNECTIONS: '2' }).jobQueueConnections).toBe(2)
    for (const bad of ['0', '101', '2.5', 'six']) expect(problemsOf({ JOB_QUEUE_CONNECTIONS: bad })).toMatch(/^JOB_QUEUE_CONNECTIONS:/m)
  })

  it('asks admins for a second factor unless ADMIN_REQUIRE_MFA is false', () => {
    expect(loadConfig({}).adminRequireMfa).toBe(true)
    expect(loadConfig({ ADMIN_REQUIRE_MFA: '' }).adminRequireMfa).toBe(true)
    expect(loadConfig({ ADMIN_REQUIRE_MFA: 'false' }).adminRequireMfa).toBe(false)
    expect(() => loadConfig({ ADMIN_REQUIRE_MFA: 'no' })).toThrow(/^\s+- ADMIN_REQUIRE_MFA:/m)
  })

  it('hashes new passwords at the full cost, which no variable lowers', () => {
    const asked = { PASSWORD_COST: '16', SCRYPT_N: '16', PASSWORD_HASH_COST: '1' }
    expect(loadConfig({}).signIn.passwordCost).toEqual({ N: 2 ** 15, r: 8, p: 1 })
    expect(loadConfig(asked).signIn.passwordCost).toEqual(passwordCost)
  })

  it('prepares PostgreSQL statements unless DATABASE_PREPARED_STATEMENTS is off, or pooled', () => {
    expect(loadConfig({}).preparedStatements).toBe('on')
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'pooled' }).preparedStatements).toBe('pooled')
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe('off')
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/^\s+- DATABASE_PREPARED_STATEMENTS:/m)
  })

  it('sends no traces unless OTEL_EXPORTER_OTLP_ENDPOINT is set, then to its /v1/traces as OTEL_SERVICE_NAME (pactum)', () => {
    expect(loadConfig({}).tracing).toBeUndefined()
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'shop' }).tracing).toBeUndefined()
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'pactum',
    })
    // A base path is kept (a collector behind a proxy), a trailing slash is not doubled.
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/otlp/', OTEL_SERVICE_NAME: 'pactum-eu' }).tracing).toEqual({
      tracesUrl: 'https://otel.example/otlp/v1/traces',
      serviceName: 'pactum-eu',
    })
    for (const bad of ['collector:4318', 'grpc://collector:4317', 'not a url']) {
      expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: bad }), bad).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT:/m)
    }
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
      smtp: {
        host: 'smtp.shop.example',
        port: 587,
        secure: false,
        requireTls: true,
        auth: { user: 'mailer@shop.example', pass: 'p@ss:wörd' },
        dkim: undefined,
      },
    })
    const implicit = loadConfig({ SMTP_URL: 'smtps://smtp.shop.example', SMTP_FROM: '"Pactum" <no-reply@shop.example>' }).mail
    expect(implicit).toMatchObject({
      from: { name: 'Pactum', address: 'no-reply@shop.example' },
      smtp: { port: 465, secure: true, requireTls: false, auth: undefined },
    })
    const local = loadConfig({ SMTP_URL: 'smtp://localhost:1025', SMTP_REQUIRE_TLS: 'false' }).mail
    expect(local).toMatchObject({ smtp: { host: 'localhost', port: 1025, secure: false, requireTls: false } })
  })

  it('passes the DKIM settings through, the key given inline (one line) or as a file', async () => {
    const inline = loadConfig({
      SMTP_URL: 'smtps://smtp.shop.example',
      SMTP_DKIM_DOMAIN: 'Shop.example',
      SMTP_DKIM_SELECTOR: 'pactum',
      SMTP_DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
    }).mail
    expect(inline).toMatchObject({ smtp: { dkim: { domainName: 'shop.example', keySelector: 'pactum', privateKey: pem } } })
    const dir = await mkdtemp(path.join(tmpdir(), 'pactum-dkim-'))
    try {
      await writeFile(path.join(dir, 'dkim.pem'), pem)
      const fromFile = loadConfig({
        SMTP_URL: 'smtps://smtp.shop.example',
        SMTP_DKIM_DOMAIN: 'shop.example',
        SMTP_DKIM_SELECTOR: 'pactum',
        SMTP_DKIM_PRIVATE_KEY_FILE: path.join(dir, 'dkim.pem'),
      }).mail
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
      [
        { SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'shop.example' },
        /^SMTP_DKIM_SELECTOR: required[\s\S]*^SMTP_DKIM_PRIVATE_KEY: required/m,
      ],
      [
        { SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'shop.example', SMTP_DKIM_SELECTOR: 'x', SMTP_DKIM_PRIVATE_KEY: secret },
        /^SMTP_DKIM_PRIVATE_KEY: not a PEM private key/m,
      ],
      [
        {
          SMTP_URL: 'smtps://smtp.shop.example',
          SMTP_DKIM_DOMAIN: 'shop.example',
          SMTP_DKIM_SELECTOR: 'x',
          SMTP_DKIM_PRIVATE_KEY_FILE: '/nonexistent/dkim.pem',
        },
        /^SMTP_DKIM_PRIVATE_KEY_FILE: cannot read the file \(ENOENT\)/m,
      ],
      [
        { SMTP_URL: 'smtps://smtp.shop.example', SMTP_DKIM_DOMAIN: 'not a domain', SMTP_DKIM_SELECTOR: 'x', SMTP_DKIM_PRIVATE_KEY: pem },
        /^SMTP_DKIM_DOMAIN: not a domain name/m,
      ],
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

describe('document storage configuration', () => {
  it('keeps documents in local files, deleted once checked, unless told otherwise', () => {
    expect(loadConfig({}).documents).toEqual({ storage: { store: 'local' }, retentionDays: 0 })
    expect(loadConfig({ DOCUMENT_RETENTION_DAYS: '30' }).documents).toEqual({ storage: { store: 'local' }, retentionDays: 30 })
  })

  it('selects S3 with S3_BUCKET, with the prefix, path style, credentials and KMS key given', () => {
    expect(loadConfig({ S3_BUCKET: 'pactum-kyc', S3_REGION: 'eu-central-1' }).documents.storage).toEqual({
      store: 's3',
      s3: {
        bucket: 'pactum-kyc',
        prefix: 'identity-documents/',
        region: 'eu-central-1',
        endpoint: undefined,
        forcePathStyle: false,
        credentials: undefined,
        kmsKeyId: undefined,
      },
    })
    const minio = loadConfig({
      S3_BUCKET: 'documents',
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: 'https://minio.internal.example:9000/',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'kyc/eu/',
      S3_ACCESS_KEY_ID: 'pactum',
      S3_SECRET_ACCESS_KEY: 'secret-key',
      S3_KMS_KEY_ID: 'alias/pactum-documents',
    }).documents.storage
    expect(minio).toEqual({
      store: 's3',
      s3: {
        bucket: 'documents',
        prefix: 'kyc/eu/',
        region: 'us-east-1',
        endpoint: 'https://minio.internal.example:9000',
        forcePathStyle: true,
        credentials: { accessKeyId: 'pactum', secretAccessKey: 'secret-key' },
        kmsKeyId: 'alias/pactum-documents',
      },
    })
    expect(
      loadConfig({ S3_BUCKET: 'documents', S3_REGION: 'us-east-1', S3_ENDPOINT: 'http://localhost:9000', S3_PREFIX: '' }).documents.storage,
    ).toMatchObject({
      s3: { endpoint: 'http://localhost:9000', prefix: '' },
    })
  })

  it('fails naming each bad storage variable, and never repeats a credential', () => {
    const secret = 'wJalrXUtnFEMI-very-secret'
    const keyId = 'AKIAPACTUMEXAMPLE'
    const s3 = { S3_BUCKET: 'documents', S3_REGION: 'eu-central-1' }
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ S3_BUCKET: 'Not_A_Bucket', S3_REGION: 'eu-central-1' }, /^S3_BUCKET: not a bucket name/m],
      [{ S3_BUCKET: 'documents' }, /^S3_REGION: required when S3_BUCKET is set/m],
      [{ ...s3, S3_REGION: 'Frankfurt 1' }, /^S3_REGION: not a region name/m],
      [{ ...s3, S3_PREFIX: '../up/' }, /^S3_PREFIX: segments of letters/m],
      [{ ...s3, S3_PREFIX: 'no-trailing-slash' }, /^S3_PREFIX: segments of letters/m],
      [{ ...s3, S3_ENDPOINT: 'http://minio.example:9000' }, /^S3_ENDPOINT: must be https:\/\/ \(plain http only for localhost\)/m],
      [{ ...s3, S3_ENDPOINT: 'ftp://minio.example' }, /^S3_ENDPOINT: the scheme must be https/m],
      [{ ...s3, S3_ENDPOINT: '//minio.example:9000' }, /^S3_ENDPOINT: not a URL/m],
      [{ ...s3, S3_ENDPOINT: `https://${keyId}:${secret}@minio.example` }, /^S3_ENDPOINT: no credentials in the URL/m],
      [{ ...s3, S3_FORCE_PATH_STYLE: 'yes' }, /^S3_FORCE_PATH_STYLE: expected true or false/m],
      [{ ...s3, S3_ACCESS_KEY_ID: keyId }, /^S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/m],
      [{ ...s3, S3_SECRET_ACCESS_KEY: secret }, /^S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY/m],
      [
        { S3_SECRET_ACCESS_KEY: secret, S3_ACCESS_KEY_ID: keyId },
        /^S3_ACCESS_KEY_ID: only used with S3_BUCKET[\s\S]*^S3_SECRET_ACCESS_KEY: only used with S3_BUCKET/m,
      ],
      [{ S3_REGION: 'eu-central-1' }, /^S3_REGION: only used with S3_BUCKET, which is not set/m],
      [{ DOCUMENT_RETENTION_DAYS: '-1' }, /^DOCUMENT_RETENTION_DAYS: expected a whole number of days from 0 to 3650/m],
      [{ DOCUMENT_RETENTION_DAYS: '1.5' }, /^DOCUMENT_RETENTION_DAYS: expected a whole number/m],
      [{ DOCUMENT_RETENTION_DAYS: 'forever' }, /^DOCUMENT_RETENTION_DAYS: expected a whole number/m],
    ]
    for (const [env, expected] of cases) {
      const problems = problemsOf(env)
      expect(problems, JSON.stringify(env)).toMatch(expected)
      expect(problems).not.toContain(secret)
      expect(problems).not.toContain(keyId)
    }
  })
})

describe('carrier tracking configuration', () => {
  it('uses the sandbox tracker unless TRACKING_API_KEY is set', () => {
    expect(loadConfig({}).tracking).toEqual({ provider: 'sandbox', inTransitSeconds: 30, deliveredSeconds: 120 })
  })

  it('selects the aggregator with its key and webhook secret, on the 2026-07 API unless told otherwise', () => {
    expect(loadConfig({ TRACKING_API_KEY: 'asat_0123456789abcdef', TRACKING_WEBHOOK_SECRET: 'whsec-tracking-0123' }).tracking).toEqual({
      provider: 'aftership',
      apiKey: 'asat_0123456789abcdef',
      webhookSecret: 'whsec-tracking-0123',
      apiUrl: 'https://api.aftership.com/tracking/2026-07',
      pollMinutes: 60,
    })
    expect(
      loadConfig({
        TRACKING_API_KEY: 'asat_0123456789abcdef',
        TRACKING_WEBHOOK_SECRET: 'whsec-tracking-0123',
        TRACKING_API_URL: 'http://127.0.0.1:4010/tracking/2026-07/',
        TRACKING_POLL_MINUTES: '15',
      }).tracking,
    ).toMatchObject({ apiUrl: 'http://127.0.0.1:4010/tracking/2026-07', pollMinutes: 15 })
  })

  it('fails naming each bad tracking variable, and never repeats a secret', () => {
    const key = 'asat_very_secret_key_0123'
    const secret = 'whsec_very_secret_0123'
    const aggregator = { TRACKING_API_KEY: key, TRACKING_WEBHOOK_SECRET: secret }
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ TRACKING_API_KEY: key }, /^TRACKING_WEBHOOK_SECRET: required when TRACKING_API_KEY is set/m],
      [{ TRACKING_WEBHOOK_SECRET: secret }, /^TRACKING_WEBHOOK_SECRET: only used with TRACKING_API_KEY/m],
      [{ TRACKING_POLL_MINUTES: '5' }, /^TRACKING_POLL_MINUTES: only used with TRACKING_API_KEY/m],
      [{ ...aggregator, TRACKING_API_KEY: `${key} x` }, /^TRACKING_API_KEY: expected 8–200 printable characters/m],
      [{ ...aggregator, TRACKING_WEBHOOK_SECRET: 'short' }, /^TRACKING_WEBHOOK_SECRET: expected 8–200 printable characters/m],
      [{ ...aggregator, TRACKING_API_URL: 'http://api.aftership.example/tracking' }, /^TRACKING_API_URL: must be https:\/\//m],
      [{ ...aggregator, TRACKING_API_URL: 'not a url' }, /^TRACKING_API_URL: not a URL/m],
      [{ ...aggregator, TRACKING_API_URL: `https://user:${secret}@api.example` }, /^TRACKING_API_URL: no credentials in the URL/m],
      [{ ...aggregator, TRACKING_API_URL: `https://api.example/?key=${key}` }, /^TRACKING_API_URL: no query or fragment/m],
      [
        { ...aggregator, TRACKING_API_URL: 'https://api.aftership.com/tracking/2024-04' },
        /^TRACKING_API_URL: names API version 2024-04; Pactum speaks 2026-07/m,
      ],
      [{ ...aggregator, TRACKING_POLL_MINUTES: '0' }, /^TRACKING_POLL_MINUTES: expected a whole number of minutes from 1 to 10080/m],
      [{ ...aggregator, TRACKING_POLL_MINUTES: 'hourly' }, /^TRACKING_POLL_MINUTES: expected a whole number/m],
    ]
    for (const [env, expected] of cases) {
      const problems = problemsOf(env)
      expect(problems, JSON.stringify(env)).toMatch(expected)
      expect(problems).not.toContain(key)
      expect(problems).not.toContain(secret)
    }
  })
})

describe('Stripe configuration', () => {
  const stripe = {
    STRIPE_SECRET_KEY: 'sk_test_51abcdefSEKRIT',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_51abcdefPUBLIK',
    STRIPE_WEBHOOK_SECRET: 'whsec_platform0123',
  }
  it("selects Stripe with its three keys, on Stripe's API unless STRIPE_API_URL says otherwise", () => {
    expect(loadConfig(stripe).payments).toEqual({
      provider: 'stripe',
      secretKey: stripe.STRIPE_SECRET_KEY,
      publishableKey: stripe.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      api: undefined,
    })
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' }).payments).toMatchObject({
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    })
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'https://stripe-proxy.internal' }).payments).toMatchObject({
      api: { host: 'stripe-proxy.internal', port: 443, protocol: 'https' },
    })
    expect(loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_platform0123, whsec_connect0123' }).payments.provider).toBe('stripe')
  })

  it('fails naming each missing or bad Stripe variable, and never repeats a key', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY }, /^STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set/m],
      [{ STRIPE_API_URL: 'http://127.0.0.1:12111' }, /^STRIPE_API_URL: only used with STRIPE_SECRET_KEY/m],
      [{ ...stripe, STRIPE_API_URL: 'http://api.stripe.example' }, /^STRIPE_API_URL: expected https:/m],
      [{ ...stripe, STRIPE_API_URL: 'https://api.example/v1' }, /^STRIPE_API_URL: expected https:/m],
    ]
    for (const [env, expected] of cases) {
      const problems = problemsOf(env)
      expect(problems, JSON.stringify(env)).toMatch(expected)
      expect(problems).not.toContain('SEKRIT')
      expect(problems).not.toContain('PUBLIK')
    }
  })
})
