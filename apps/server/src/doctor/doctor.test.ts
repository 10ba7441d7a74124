import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { type AftershipFake, startAftershipFake } from '../testing/aftership-fake.ts'
import { type S3Fake, startS3Fake } from '../testing/s3-fake.ts'
import { runDoctor } from './doctor.ts'
import { formatReport, hasFailures, type ProviderReport } from './report.ts'

const stripeSecret = 'sk_test_doctorDoctorDoctor123'
/** A restricted key that may read the balance, Connect and Identity, but not balance transactions, disputes or files. */
const restrictedKey = 'rk_test_doctorRestricted123'
/** A restricted key that may read everything the doctor lists. */
const readingKey = 'rk_test_doctorReadsAll1234'
const smtpPassword = 'mail-password-1'

let dataDir: string
let tracking: AftershipFake
let s3: S3Fake
let smtp: SMTPServer
let smtpPort: number
let stripe: Server
/** Every call the stand-in received, as `METHOD /path`. */
const stripeCalls: string[] = []
let stripeUrl: string

/** The permission Stripe names when a restricted key may not read one of the lists (its 403). */
const restrictedLists: Readonly<Record<string, string>> = {
  '/v1/balance_transactions': 'rak_balance_transaction_source_read',
  '/v1/disputes': 'rak_dispute_read',
  '/v1/files': 'rak_file_read',
}

/**
 * Stripe's API as far as the doctor reads it: Bearer auth, the balance and
 * five lists, errors in Stripe's shape; the restricted key is refused the
 * lists in `restrictedLists` as Stripe refuses a key without the permission.
 */
function startStripeStandIn(): Promise<Server> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: object) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    const restricted = request.headers.authorization === `Bearer ${restrictedKey}`
    const known = [stripeSecret, restrictedKey, readingKey].map((key) => `Bearer ${key}`)
    if (!known.includes(request.headers.authorization ?? ''))
      return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } })
    const url = new URL(request.url ?? '/', 'http://stripe')
    stripeCalls.push(`${request.method} ${url.pathname}`)
    const permission = restrictedLists[url.pathname]
    if (restricted && permission) {
      return reply(403, {
        error: {
          type: 'invalid_request_error',
          message: `The provided key 'rk_test_****ed123' does not have the required permissions for this endpoint on account 'acct_doctor'. Having the '${permission}' permission would allow this request to continue.`,
        },
      })
    }
    if (url.pathname === '/v1/balance') return reply(200, { object: 'balance', livemode: false, available: [], pending: [] })
    if (
      ['/v1/accounts', '/v1/identity/verification_sessions', '/v1/balance_transactions', '/v1/disputes', '/v1/files'].includes(url.pathname)
    )
      return reply(200, { object: 'list', data: [], has_more: false })
    reply(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } })
  })
  server.listen(0, '127.0.0.1')
  return once(server, 'listening').then(() => server)
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-doctor-'))
  ;[tracking, s3, stripe] = await Promise.all([startAftershipFake(), startS3Fake(), startStripeStandIn()])
  stripeUrl = `http://127.0.0.1:${(stripe.address() as AddressInfo).port}`
  // Plain SMTP with AUTH: the test has no certificate the doctor would trust (the mailer's contract tests cover TLS).
  smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'pactum' && auth.password === smtpPassword) return callback(null, { user: 'pactum' })
      callback(new Error('Invalid username or password'))
    },
  })
  smtp.listen(0, '127.0.0.1')
  await once(smtp.server, 'listening')
  smtpPort = (smtp.server.address() as AddressInfo).port
})

afterAll(async () => {
  await Promise.all([
    tracking.close(),
    s3.close(),
    new Promise((resolve) => smtp.close(() => resolve(undefined))),
    new Promise((resolve) => stripe.close(resolve)),
  ])
  await rm(dataDir, { recursive: true, force: true })
})

function realEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    STRIPE_SECRET_KEY: stripeSecret,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_doctorDoctorDoctor123',
    STRIPE_WEBHOOK_SECRET: 'whsec_doctorDoctorDoctor123456',
    IDENTITY_VERIFICATION_METHOD: 'stripe_identity',
    TRACKING_API_KEY: tracking.apiKey,
    TRACKING_WEBHOOK_SECRET: tracking.webhookSecret,
    TRACKING_API_URL: tracking.url,
    SMTP_URL: `smtp://pactum:${smtpPassword}@127.0.0.1:${smtpPort}`,
    SMTP_REQUIRE_TLS: 'false',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    ...overrides,
  }
}

const doctor = (env: Record<string, string>) => runDoctor(loadConfig({ STRIPE_API_URL: stripeUrl, ...env }))
const service = (reports: ProviderReport[], name: string) => reports.find((report) => report.service === name)!
const outcomes = (report: ProviderReport) => Object.fromEntries(report.checks.map((check) => [check.name, check.outcome]))

describe('cli doctor', () => {
  it('reports the embedded defaults as sandbox, and passes', async () => {
    const reports = await runDoctor(loadConfig({ DATA_DIR: dataDir }))
    expect(reports.map((report) => [report.service, report.mode])).toEqual([
      ['database', 'embedded'],
      ['sign-in', 'embedded'],
      ['payments', 'sandbox'],
      ['bank accounts', 'sandbox'],
      ['tracking', 'sandbox'],
      ['e-mail', 'sandbox'],
      ['documents', 'sandbox'],
    ])
    expect(hasFailures(reports)).toBe(false)
    expect(formatReport(reports)).toContain('All checks passed.')
    // The documents probe leaves nothing behind, not even a folder.
    expect(await readdir(path.join(dataDir, 'sandbox-files'))).toEqual([])
  })

  it('reports every configured provider as real, asks each one, and passes when they answer', async () => {
    const reports = await doctor(realEnv())
    expect(service(reports, 'payments')).toMatchObject({ mode: 'real', summary: 'Stripe (test mode)' })
    expect(outcomes(service(reports, 'payments'))).toEqual({
      STRIPE_SECRET_KEY: 'ok',
      STRIPE_PUBLISHABLE_KEY: 'ok',
      STRIPE_WEBHOOK_SECRET: 'ok',
      'the API answers': 'ok',
      Connect: 'ok',
      'Balance transactions': 'ok',
      Disputes: 'ok',
      Files: 'ok',
      'Stripe Identity': 'ok',
    })
    expect(outcomes(service(reports, 'tracking'))).toMatchObject({ 'the API answers': 'ok' })
    expect(outcomes(service(reports, 'e-mail'))).toMatchObject({ 'the server answers': 'ok', TLS: 'warning' })
    expect(outcomes(service(reports, 'documents'))).toMatchObject({ 'write, read back and delete a probe': 'ok', encryption: 'ok' })
    expect(hasFailures(reports)).toBe(false)
    // The probe went to the bucket, with the encryption every document gets, and was deleted.
    const puts = s3.requests.filter((request) => request.method === 'PUT' && request.url.includes('/doctor-probe-'))
    expect(puts).toHaveLength(1)
    expect(puts[0]!.headers['x-amz-server-side-encryption']).toBe('AES256')
    const probeKey = puts[0]!.url.split('?')[0]
    expect(s3.requests.some((request) => request.method === 'DELETE' && request.url.split('?')[0] === probeKey)).toBe(true)
    // Secrets are never printed.
    const printed = formatReport(reports)
    for (const secret of [stripeSecret, smtpPassword, tracking.apiKey, s3.secretAccessKey, 'whsec_doctorDoctorDoctor123456'])
      expect(printed).not.toContain(secret)
  })

  it('fails, naming the check and the service’s reason, when a key is wrong or the keys do not match', async () => {
    const reports = await doctor(
      realEnv({
        STRIPE_SECRET_KEY: 'sk_test_someoneElsesKey1234',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_doctorDoctorDoctor123',
        TRACKING_API_KEY: 'wrong-tracking-key',
        SMTP_URL: `smtp://pactum:wrong@127.0.0.1:${smtpPort}`,
        S3_SECRET_ACCESS_KEY: 'not-the-secret',
      }),
    )
    const payments = service(reports, 'payments')
    expect(outcomes(payments)).toMatchObject({ STRIPE_PUBLISHABLE_KEY: 'failed', 'the API answers': 'failed' })
    expect(payments.checks.find((check) => check.name === 'the API answers')?.detail).toContain('Stripe answered 401')
    expect(payments.checks.find((check) => check.name === 'STRIPE_PUBLISHABLE_KEY')?.detail).toContain('same mode')
    expect(outcomes(service(reports, 'tracking'))).toMatchObject({ 'the API answers': 'failed' })
    expect(outcomes(service(reports, 'e-mail'))).toMatchObject({ 'the server answers': 'failed' })
    expect(outcomes(service(reports, 'documents'))).toMatchObject({ 'write, read back and delete a probe': 'failed' })
    expect(hasFailures(reports)).toBe(true)
    expect(formatReport(reports)).toMatch(/\d+ checks FAILED\./)
  })

  it('fails each list a restricted key may not read, naming the permission to grant, and only reads', async () => {
    stripeCalls.length = 0
    const reports = await doctor(realEnv({ STRIPE_SECRET_KEY: restrictedKey }))
    const payments = service(reports, 'payments')
    expect(outcomes(payments)).toEqual({
      STRIPE_SECRET_KEY: 'ok',
      STRIPE_PUBLISHABLE_KEY: 'ok',
      STRIPE_WEBHOOK_SECRET: 'ok',
      'the API answers': 'ok',
      Connect: 'ok',
      'Balance transactions': 'failed',
      Disputes: 'failed',
      Files: 'failed',
      'Stripe Identity': 'ok',
    })
    const detail = (name: string) => payments.checks.find((check) => check.name === name)?.detail
    expect(detail('STRIPE_SECRET_KEY')).toBe('a test-mode restricted key')
    expect(detail('Balance transactions')).toMatch(
      /^the key may not list balance transactions.*grant it Read on Balance transaction sources/,
    )
    expect(detail('Balance transactions')).toContain("Stripe answered 403: The provided key 'rk_test_****ed123' does not have")
    expect(detail('Balance transactions')).toContain('rak_balance_transaction_source_read')
    expect(detail('Disputes')).toMatch(/grant it Write on Disputes.*Stripe answered 403.*rak_dispute_read/)
    expect(detail('Files')).toMatch(/grant it Write on Files.*dispute_evidence.*Stripe answered 403.*rak_file_read/)
    expect(hasFailures(reports)).toBe(true)
    expect(formatReport(reports)).not.toContain(restrictedKey)
    // Nothing is created at the provider: no file is uploaded to find out whether the key may.
    expect(stripeCalls.filter((call) => !call.startsWith('GET '))).toEqual([])
    expect(stripeCalls).toContain('GET /v1/files')
  })

  it('says what a restricted key must be allowed to write that the doctor does not try, when it may read everything', async () => {
    const payments = service(await doctor(realEnv({ STRIPE_SECRET_KEY: readingKey })), 'payments')
    expect(payments.checks.filter((check) => check.outcome !== 'ok')).toEqual([])
    const detail = (name: string) => payments.checks.find((check) => check.name === name)?.detail
    expect(detail('Files')).toBe(
      'files can be listed; dispute evidence is uploaded as a file (purpose dispute_evidence), which needs Write on Files as well (not tried: nothing is uploaded)',
    )
    expect(detail('Disputes')).toContain('needs Write on Disputes as well')
  })

  it.runIf(process.env.DATABASE_URL)('asks PostgreSQL for its version and the migrations still to apply', async () => {
    const reports = await runDoctor(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL! }))
    const database = service(reports, 'database')
    expect(database.mode).toBe('real')
    expect(outcomes(database)).toMatchObject({ 'the server answers': 'ok' })
    expect(database.checks.map((check) => check.name)).toContain('migrations')
    expect(database.checks.map((check) => check.name)).not.toContain('the read replica (DATABASE_READ_URL)')
  })

  it.runIf(process.env.DATABASE_URL)('refuses a DATABASE_READ_URL that is not a standby replaying the primary', async () => {
    // The primary itself: it answers, but replays nothing, so the server would never read a list there.
    const url = process.env.DATABASE_URL!
    const reports = await runDoctor(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_READ_URL: url }))
    const replica = service(reports, 'database').checks.find((check) => check.name === 'the read replica (DATABASE_READ_URL)')
    expect(replica).toMatchObject({ outcome: 'failed', detail: expect.stringMatching(/not a standby/) })
  })

  it('refuses keys that are not Stripe keys at all, without calling Stripe', async () => {
    const before = s3.requests.length
    const reports = await runDoctor(
      loadConfig({
        DATA_DIR: dataDir,
        STRIPE_SECRET_KEY: 'sk_nonsense',
        STRIPE_PUBLISHABLE_KEY: 'pk_nonsense',
        STRIPE_WEBHOOK_SECRET: 'secret',
        STRIPE_API_URL: 'http://127.0.0.1:9',
      }),
    )
    expect(outcomes(service(reports, 'payments'))).toEqual({
      STRIPE_SECRET_KEY: 'failed',
      STRIPE_PUBLISHABLE_KEY: 'failed',
      STRIPE_WEBHOOK_SECRET: 'failed',
    })
    expect(s3.requests.length).toBe(before)
  })
})
