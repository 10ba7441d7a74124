import { randomBytes } from 'node:crypto'
import { withPostgresAdmin } from '../../apps/server/src/db/postgres-admin.ts'

/**
 * The one PostgreSQL database the processes share. With DATABASE_URL the
 * operator names it; otherwise a database of the cluster's own is created
 * (once) on the local server.
 */

export const defaultServerUrl = 'postgres://postgres@127.0.0.1:5432/postgres'

function onServer(serverUrl: string, name: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** Creates `name` on the server unless it exists; answers its URL. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`)
  await withPostgresAdmin(serverUrl, async (admin) => {
    const existing = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (existing.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`)
  })
  return onServer(serverUrl, name)
}

/** A database for one run (the cluster test), to be dropped after it. */
export async function throwawayDatabase(serverUrl: string, purpose: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pactum_${purpose}_${randomBytes(4).toString('hex')}`
  const url = await ensureDatabase(serverUrl, name)
  return {
    url,
    drop: () => withPostgresAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  }
}
