import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { JWK } from 'jose'
import type { Clock } from '../clock.ts'
import { loadConfig } from '../config.ts'
import type { Database } from '../db/database.ts'
import { type AppOptions, buildApp } from '../http/app.ts'
import { verifyLedger } from '../ledger/verify-ledger.ts'
import { newSigningKey, signingKeysName } from '../modules/sign-in/oidc/server-secrets.ts'
import { mintAccessToken } from '../modules/sign-in/oidc/token-minter.ts'
import { createTestDatabase } from './test-database.ts'
import { testPasswordCost } from './test-password-cost.ts'

export interface TestApp {
  app: FastifyInstance
  database: Database
  dataDir: string
  /** An access token as the embedded sign-in would issue it. */
  tokenFor(
    email: string,
    options?: {
      admin?: boolean
      firstName?: string
      lastName?: string
      emailVerified?: boolean
      ttlSeconds?: number
      issuedAt?: Date
      amr?: readonly string[]
    },
  ): Promise<string>
  close(): Promise<void>
}

export type TestAppOptions = {
  env?: Record<string, string>
  clock?: Clock
  webDistDir?: string
  /** Extra routes for tests of cross-cutting plugins. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>
  /** What the app is given instead of the fresh test database (the replica routing tests watch its statements). */
  adaptDatabase?: (database: Database) => Database
} & Pick<AppOptions, 'verifyAccessToken' | 'onRoute' | 'replayedLsn'>

/**
 * One RSA signing key for the sign-in of every app this worker opens, made on
 * first use: the server makes one on its first start, and making one took
 * about a third of opening a test app (60 ms of 200, 2026-12-07). Each app
 * still has a database of its own; no test compares two apps' keys.
 */
let signingKey: JWK | undefined
function testSigningKey(): JWK {
  signingKey ??= newSigningKey()
  return signingKey
}

/**
 * The real server, in-process, on a fresh database (PGlite, or PostgreSQL
 * when DATABASE_URL is set), called through `inject` with no open port.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3999',
    // On PostgreSQL each test app's job queue opened its 6 connections within its first second, and
    // each new connection cost its server process about 26 ms of CPU on a CI machine (2026-12-07):
    // three quarters of a test's connections. Two still let its workers poll side by side.
    JOB_QUEUE_CONNECTIONS: '2',
    ...options.env,
  })
  config.signIn.passwordCost = testPasswordCost
  const fresh = await createTestDatabase()
  await fresh.db
    .insertInto('server_secrets')
    .values({ name: signingKeysName, value: JSON.stringify({ keys: [testSigningKey()] }) })
    .execute()
  const database = options.adaptDatabase ? options.adaptDatabase(fresh) : fresh
  const app = await buildApp({
    config,
    database,
    ...(options.replayedLsn ? { replayedLsn: options.replayedLsn } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    webDistDir: options.webDistDir ?? path.join(dataDir, 'no-web-build'),
    ...(options.verifyAccessToken ? { verifyAccessToken: options.verifyAccessToken } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
  })
  await options.beforeReady?.(app)
  await app.ready()
  return {
    app,
    database,
    dataDir,
    tokenFor: async (email, tokenOptions = {}) => {
      if (!app.embeddedSigningKey) throw new Error('tokenFor needs the embedded sign-in')
      return mintAccessToken({
        privateSigningKey: app.embeddedSigningKey,
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        clientId: config.oidc.clientId,
        email,
        ...tokenOptions,
      })
    },
    close: async () => {
      // Every integration test ends with sound books (DESIGN §2).
      const breaches = await verifyLedger(database.db)
      await app.close()
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
      if (breaches.length > 0) throw new Error(`ledger invariants broken:\n${JSON.stringify(breaches, null, 2)}`)
    },
  }
}
