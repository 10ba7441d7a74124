import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { clientOfApiKey } from './modules/partner-clients/partner-api-key.ts'
import { openDatabase } from './db/database.ts'
import { appPerTest } from './testing/app-per-test.ts'
import { apiCaller, partyTokens } from './testing/api-caller.ts'
import { joinedSale } from './testing/sale-steps.ts'

const run = promisify(execFile)
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))

const testApps = appPerTest()

// Each test starts the CLI as a process (and some a database of their own, migrated from nothing):
// a few seconds alone, but over a minute when the machine runs every other test file at once.
vi.setConfig({ testTimeout: 180_000 })

async function token(dataDir: string, ...args: string[]) {
  // process.execPath is the Node 24 that runs the tests, as `npm run cli` would.
  return run(process.execPath, [cli, 'token', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', DATABASE_URL: '' },
  })
}

describe('npm run cli -- token', () => {
  it('prints a token the running server accepts, creating the user, while the server holds the database', async () => {
    const testApp = await testApps.open()
    const { stdout } = await token(testApp.dataDir, 'Cli.User@Example.com', '--admin')
    const response = await testApp.app.inject({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${stdout.trim()}` },
    })
    expect(response.statusCode).toBe(200)
    // The operator vouches for the address (issue 30).
    expect(response.json()).toMatchObject({ email: 'cli.user@example.com', roles: ['admin'], email_verified: true })
  })

  it('refuses a missing or malformed e-mail', async () => {
    const testApp = await testApps.open()
    await expect(token(testApp.dataDir)).rejects.toMatchObject({ code: 2 })
    await expect(token(testApp.dataDir, 'not-an-email')).rejects.toMatchObject({ code: 2 })
  })

  it('explains what to do when the server never ran', async () => {
    await expect(token('/nonexistent/pactum-data', 'a@example.com')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('start the server once'),
    })
  })
})

describe('npm run cli -- ledger verify', () => {
  it('asks the running server, whose books are sound', async () => {
    const port = await freePort()
    const address = `http://127.0.0.1:${port}`
    const testApp = await testApps.open({ env: { PUBLIC_URL: address } })
    await testApp.app.listen({ port, host: '127.0.0.1' })
    const { stderr } = await run(process.execPath, [cli, 'ledger', 'verify'], {
      env: { ...process.env, DATA_DIR: testApp.dataDir, PUBLIC_URL: address, DATABASE_URL: '' },
    })
    expect(stderr).toContain('every invariant holds')
  })
})

describe('npm run cli -- backup and restore (issue 37)', () => {
  it('backs up while the server runs and restores into a new place that holds the same rows', async () => {
    const port = await freePort()
    const address = `http://127.0.0.1:${port}`
    const testApp = await testApps.open({ env: { PUBLIC_URL: address } })
    await testApp.app.listen({ port, host: '127.0.0.1' })
    const before = await testApp.database.db.selectFrom('clients').select('id').orderBy('id').execute()
    const folder = await mkdtemp(path.join(tmpdir(), 'pactum-cli-backup-'))
    try {
      const file = path.join(folder, 'nightly', 'pactum.backup')
      const databaseUrl = testApp.database.connectionString ?? ''
      const env = { ...process.env, DATA_DIR: testApp.dataDir, PUBLIC_URL: address, DATABASE_URL: databaseUrl }
      const { stderr } = await run(process.execPath, [cli, 'backup', file], { env })
      expect(stderr).toContain(`to ${file}`)
      if (testApp.database.kind === 'pglite') {
        // The server holds the directory: the command asked it for the copy.
        const restoredDir = path.join(folder, 'restored')
        await run(process.execPath, [cli, 'restore', file, '--data-dir', restoredDir], { env })
        await expect(run(process.execPath, [cli, 'restore', file, '--data-dir', restoredDir], { env })).rejects.toMatchObject({
          stderr: expect.stringContaining('exists already'),
        })
        const copy = await openDatabase({ databaseUrl: undefined, dataDir: restoredDir })
        try {
          expect(await copy.db.selectFrom('clients').select('id').orderBy('id').execute()).toEqual(before)
        } finally {
          await copy.close()
        }
      } else {
        await expect(run(process.execPath, [cli, 'restore', file, '--data-dir', path.join(folder, 'x')], { env })).rejects.toMatchObject({
          code: 2,
          stderr: expect.stringContaining('--database-url'),
        })
      }
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})

describe('npm run cli -- outbox retry', () => {
  it('asks the running server to send a call again, and says so when it was sent already or does not exist', async () => {
    const port = await freePort()
    const address = `http://127.0.0.1:${port}`
    const testApp = await testApps.open({ env: { PUBLIC_URL: address } })
    await testApp.app.listen({ port, host: '127.0.0.1' })
    const { db } = testApp.database
    const sale = await joinedSale(apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} })))
    const id = randomUUID()
    await db
      .insertInto('outbox')
      .values({
        id,
        transaction_id: sale.id,
        action: 'transfer',
        idempotency_key: `cli-${id}`,
        payload: '{}',
        status: 'sent',
        created_at: new Date(),
      })
      .execute()
    const env = { ...process.env, DATA_DIR: testApp.dataDir, PUBLIC_URL: address, DATABASE_URL: '' }
    const { stderr } = await run(process.execPath, [cli, 'outbox', 'retry', id], { env })
    expect(stderr).toContain('was sent already')
    await expect(run(process.execPath, [cli, 'outbox', 'retry', randomUUID()], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('answered 404'),
    })
  })
})

describe('npm run cli -- reconcile', () => {
  it('asks the running server, and exits 1 listing a difference, 0 on a clean day', async () => {
    const port = await freePort()
    const address = `http://127.0.0.1:${port}`
    const testApp = await testApps.open({ env: { PUBLIC_URL: address } })
    await testApp.app.listen({ port, host: '127.0.0.1' })
    const env = { ...process.env, DATA_DIR: testApp.dataDir, PUBLIC_URL: address, DATABASE_URL: '' }
    const clean = await run(process.execPath, [cli, 'reconcile', '--date', '2026-01-05'], { env })
    expect(clean.stderr).toContain('reconciled 2026-01-05 with sandbox: no open difference')
    // A transfer at the provider that the ledger never booked.
    await testApp.app.services.db
      .insertInto('sandbox_accounts')
      .values({ id: 'acct_cli', user_id: randomUUID(), email: 'cli@example.com', country: 'ie', created_at: new Date() })
      .execute()
    await testApp.app.services.db
      .insertInto('sandbox_transfers')
      .values({
        id: 'tr_cli',
        destination_account: 'acct_cli',
        amount: 700,
        currency: 'eur',
        transaction_id: randomUUID(),
        created_at: new Date('2026-01-05T12:00:00Z'),
      })
      .execute()
    const failure = await run(process.execPath, [cli, 'reconcile', '--date', '2026-01-05'], { env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failure?.code).toBe(1)
    expect(failure?.stderr).toContain('missing_in_ledger transfer tr_cli: ledger nothing, provider 700 eur')
    await expect(run(process.execPath, [cli, 'reconcile', '--date', '2026-02-30'], { env })).rejects.toMatchObject({ code: 2 })
  })
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('npm run cli -- client api-key', () => {
  it('prints a key that authenticates the client, keeping only its hash', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-cli-'))
    try {
      const env = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', DATABASE_URL: '' }
      await expect(run(process.execPath, [cli, 'client', 'api-key', 'Not An Id'], { env })).rejects.toMatchObject({ code: 2 })
      const { stdout } = await run(process.execPath, [cli, 'client', 'api-key', 'market', '--name', 'The Market'], { env })
      const key = stdout.trim()
      expect(key).toMatch(/^market\.[A-Za-z0-9_-]{43}$/)
      const database = await openDatabase({ databaseUrl: undefined, dataDir })
      try {
        expect(await clientOfApiKey(database.db, key)).toEqual({ id: 'market', name: 'The Market' })
        const stored = await database.db.selectFrom('clients').select('api_key_hash').where('id', '=', 'market').executeTakeFirstOrThrow()
        expect(stored.api_key_hash).not.toContain(key.split('.')[1])
      } finally {
        await database.close()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('npm run cli -- doctor', () => {
  it('prints what is sandbox and what is real, and exits 0 when every check passes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-cli-'))
    try {
      const { stdout } = await run(process.execPath, [cli, 'doctor'], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } })
      expect(stdout).toMatch(/^payments\s+sandbox\s+the embedded sandbox provider/m)
      expect(stdout).toContain('All checks passed.')
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('exits 1 when a check fails', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-cli-'))
    try {
      const env = {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        STRIPE_SECRET_KEY: 'sk_nonsense',
        STRIPE_PUBLISHABLE_KEY: 'pk_nonsense',
        STRIPE_WEBHOOK_SECRET: 'x',
      }
      const failure = await run(process.execPath, [cli, 'doctor'], { env }).then(
        () => undefined,
        (error: { code: number; stdout: string }) => error,
      )
      expect(failure?.code).toBe(1)
      expect(failure?.stdout).toMatch(/✗ STRIPE_SECRET_KEY: not a Stripe secret key/)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
