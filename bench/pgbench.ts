import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { withPostgresAdmin } from '../apps/server/src/db/postgres-admin.ts'

/**
 * PostgreSQL's own figure on the same server and at the same concurrency:
 * pgbench's built-in simple-update (one UPDATE, one SELECT, one INSERT per
 * transaction) and select-only (one indexed SELECT), on a database of its
 * own that is dropped afterwards.
 */

const run = promisify(execFile)
const pgbench = process.env.PGBENCH ?? '/usr/bin/pgbench'

export type PgbenchScript = 'simple-update' | 'select-only'

export interface Pgbench {
  /** The pgbench database's address, for a client of its own (bench/pg-fastify.ts). */
  url: string
  tps(script: PgbenchScript, clients: number, seconds: number): Promise<number>
  dispose(): Promise<void>
}

export async function preparePgbench(serverUrl: string, scale: number): Promise<Pgbench> {
  const name = `pactum_pgbench_${randomBytes(4).toString('hex')}`
  await withPostgresAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = url.toString()
  await run(pgbench, ['--initialize', '--quiet', `--scale=${scale}`, database])
  return {
    url: database,
    async tps(script, clients, seconds) {
      const { stdout } = await run(pgbench, [`--builtin=${script}`, `--client=${clients}`, '--jobs=2', `--time=${seconds}`, database])
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1]
      if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`)
      return Number(tps)
    },
    dispose: async () => {
      await withPostgresAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    },
  }
}
