import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, openSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * One Pactum server process as `npm start` runs it (apps/server/src/main.ts
 * on this Node), listening on 127.0.0.1 only so that nothing but the proxy
 * in front reaches it, its output appended to a log file of its own.
 */

const root = path.resolve(import.meta.dirname, '../..')

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
}

export class ServerProcess {
  readonly name: string
  readonly port: number
  readonly logFile: string
  readonly #env: Record<string, string>
  #child: ChildProcess | undefined
  #exited: Promise<ProcessExit> = Promise.resolve({ code: 0, signal: null })

  constructor(options: { name: string; port: number; logFile: string; env: Record<string, string> }) {
    this.name = options.name
    this.port = options.port
    this.logFile = options.logFile
    this.#env = options.env
  }

  get address(): string {
    return `127.0.0.1:${this.port}`
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null
  }

  get pid(): number | undefined {
    return this.#child?.pid
  }

  /** Resolves when the current run of the process ends, however it ends. */
  get exited(): Promise<ProcessExit> {
    return this.#exited
  }

  /** Spawns the process; `waitUntilHealthy` tells when it serves. */
  spawn(): void {
    if (this.running) throw new Error(`${this.name} is already running`)
    // The process writes its log straight into the file: piped through this
    // process, every request's log lines would cost the caller (a load
    // generator, under the bench) time of its own.
    const log = openSync(this.logFile, 'a')
    let child: ChildProcess
    try {
      child = spawn(process.execPath, [path.join(root, 'apps/server/src/main.ts')], {
        cwd: root,
        env: { ...process.env, ...this.#env, PORT: String(this.port), HOST: '127.0.0.1' },
        stdio: ['ignore', log, log],
      })
    } finally {
      closeSync(log)
    }
    this.#exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
    this.#child = child
  }

  async waitUntilHealthy(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`${this.name} exited before it was healthy (${JSON.stringify(await this.#exited)}); see ${this.logFile}`)
      if (await healthy(`http://${this.address}`)) return
      await sleep(100)
    }
    throw new Error(`${this.name} was not healthy within ${timeoutMs / 1000} s; see ${this.logFile}`)
  }

  /** A signal as an operator or the kernel sends it; does not wait. */
  kill(signal: NodeJS.Signals): void {
    if (this.running) this.#child?.kill(signal)
  }

  /** SIGTERM (the server finishes what it is doing and closes), SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<ProcessExit> {
    if (!this.running) return this.#exited
    this.kill('SIGTERM')
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs)
    try {
      return await this.#exited
    } finally {
      clearTimeout(timer)
    }
  }
}

export async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2000) })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

/** Waits for a child process that may already have ended. */
export async function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await once(child, 'exit')
}
