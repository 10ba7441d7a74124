import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Pactum as `npm start` runs it (apps/server/src/main.ts, its own process,
 * default log level), so that the benchmark measures the product and not an
 * in-process test harness. The web bundle is not needed for the API.
 */

const root = path.resolve(import.meta.dirname, '..')

export interface PactumProcess {
  baseUrl: string
  child: ChildProcess
  /** How long from spawning the process until GET /api/v1/health answered 200. */
  startSeconds: number
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

/**
 * `profileDir`: write a V8 CPU profile of the server there when it stops (node --cpu-prof).
 * `sourceRoot`: run the server of another checkout of the repository (bench/compare.ts); this one by default.
 */
export async function startPactum(
  env: Record<string, string>,
  port: number,
  profileDir?: string,
  sourceRoot = root,
): Promise<PactumProcess> {
  const baseUrl = `http://127.0.0.1:${port}`
  const started = performance.now()
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const child = spawn(process.execPath, [...profiling, path.join(sourceRoot, 'apps/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl },
    // Request logs go nowhere, but the server still writes them (as in production).
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let errors = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000)
  })
  await waitUntilHealthy(baseUrl, child, () => errors)
  return { baseUrl, child, startSeconds: (performance.now() - started) / 1000 }
}

async function waitUntilHealthy(baseUrl: string, child: ChildProcess, errors: () => string): Promise<void> {
  const deadline = performance.now() + 120_000
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${errors()}`)
    const healthy = await fetch(`${baseUrl}/api/v1/health`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (healthy) return
    await sleep(10)
  }
  throw new Error(`the server did not become healthy within 120 s: ${errors()}`)
}

/** SIGTERM, as a deployment stops it, and wait for the process to end. */
export async function stopPactum(server: PactumProcess): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = once(server.child, 'exit')
  server.child.kill('SIGTERM')
  await exited
}

/** The server's resident memory in MB (VmRSS in /proc; Linux only). */
export async function residentMegabytes(server: PactumProcess): Promise<number> {
  const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8')
  const kilobytes = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]
  if (!kilobytes) throw new Error('no VmRSS in /proc/<pid>/status')
  return Number(kilobytes) / 1024
}
