import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, openSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Database, openDatabase, openPostgres } from '../db/database.ts'
import { withPostgresAdmin } from '../db/postgres-admin.ts'

/**
 * The real server as a child process, for the crash harness
 * (bench/crash-harness.ts) and its short version in the tests: started with
 * `node apps/server/src/main.ts` on an engine of its own, optionally with a
 * crash point armed, and inspected through its database once it is down.
 */

const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url))

/** Short enough that a burst of sales runs its whole course in seconds. */
export const crashRunTimings = {
  COMPLAINT_PERIOD_SECONDS: '6',
  TRACKING_DEADLINE_SECONDS: '3600',
  SANDBOX_REFUND_DELAY_SECONDS: '1',
  SANDBOX_SEPA_DELAY_SECONDS: '2',
  SANDBOX_TRACKING_IN_TRANSIT_SECONDS: '1',
  SANDBOX_TRACKING_DELIVERED_SECONDS: '2',
  SANDBOX_PAYOUT_DELAY_SECONDS: '86400',
} as const

export interface CrashEngine {
  name: 'pglite' | 'postgres'
  /** The server's DATA_DIR (signing key, mail, logs), and its database on PGlite. */
  dataDir: string
  env: Record<string, string>
  /** The server's database, for inspection; on PGlite only while no server runs. */
  open(): Promise<Database>
  dispose(): Promise<void>
}

export async function pgliteEngine(): Promise<CrashEngine> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-crash-'))
  return {
    name: 'pglite',
    dataDir,
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ databaseUrl: undefined, dataDir }),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  }
}

/** A database of its own (`pactum_crash_…`) on the server `serverUrl` points at, dropped by dispose(). */
export async function postgresEngine(serverUrl: string): Promise<CrashEngine> {
  const name = `pactum_crash_${randomBytes(5).toString('hex')}`
  await withPostgresAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-crash-'))
  return {
    name: 'postgres',
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: async () => openPostgres(url.toString()),
    dispose: async () => {
      await withPostgresAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A port free now on the loopback interface (kept for every restart: the sign-in's issuer names it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

export class ServerProcess {
  readonly baseUrl: string
  readonly logFile: string
  /** Whether stop() had to resort to SIGKILL. */
  killedOnStop = false
  readonly exited: Promise<Exit>
  readonly #child: ChildProcess

  private constructor(child: ChildProcess, baseUrl: string, logFile: string) {
    this.#child = child
    this.baseUrl = baseUrl
    this.logFile = logFile
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  }

  /**
   * Starts `main.ts` on the pinned Node (the one running this code) and
   * resolves once /health answers. Its output goes to `<DATA_DIR>/server-<n>.log`.
   */
  static async start(
    engine: CrashEngine,
    options: { port: number; run: number; crashPoint?: string; env?: Record<string, string> },
  ): Promise<ServerProcess> {
    const baseUrl = `http://127.0.0.1:${options.port}`
    const logFile = path.join(engine.dataDir, `server-${options.run}.log`)
    const output = openSync(logFile, 'a')
    const child = spawn(process.execPath, [mainScript], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PORT: String(options.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        LOG_LEVEL: 'warn',
        ...crashRunTimings,
        ...engine.env,
        ...options.env,
        ...(options.crashPoint ? { CRASH_POINT: options.crashPoint } : {}),
      },
      stdio: ['ignore', output, output],
    })
    closeSync(output)
    const server = new ServerProcess(child, baseUrl, logFile)
    let exit: Exit | undefined
    void server.exited.then((value) => (exit = value))
    const deadline = Date.now() + 120_000
    for (;;) {
      if (exit) throw new Error(`the server exited while starting (${exit.code ?? exit.signal}); see ${logFile}`)
      try {
        const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2000) })
        if (response.ok) return server
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        server.kill()
        throw new Error(`the server did not answer within 120 s; see ${logFile}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** The last lines of its log, for a failure message (the data directory is gone once the test disposes of it). */
  async logTail(lines = 40): Promise<string> {
    const log = await readFile(this.logFile, 'utf8').catch(() => '')
    return log.trimEnd().split('\n').slice(-lines).join('\n')
  }

  /** The crash point it reported reaching before it died, if any. */
  async crashPointReached(): Promise<string | undefined> {
    const log = await readFile(this.logFile, 'utf8').catch(() => '')
    return /^crash point (\S+) reached: SIGKILL$/m.exec(log)?.[1]
  }

  /**
   * SIGTERM: the server closes gracefully (running jobs get up to 10 s, then
   * PGlite writes its files); SIGKILL if it takes over 90 s. The margin is
   * wide because a kill in the middle of PGlite's close can leave files the
   * next start cannot read, and a CI machine running every test file at
   * once makes a close take many times its usual second or two.
   */
  async stop(): Promise<Exit> {
    this.#child.kill('SIGTERM')
    const timer = setTimeout(() => {
      this.killedOnStop = true
      this.kill()
    }, 90_000)
    const exit = await this.exited
    clearTimeout(timer)
    return exit
  }

  kill(): void {
    this.#child.kill('SIGKILL')
  }
}
