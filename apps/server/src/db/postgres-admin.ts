import pg from 'pg'

/**
 * One short-lived connection to a PostgreSQL server for work on databases
 * themselves (create, drop, copy a template), which no pool of the app's
 * may hold a connection to. For tests, benchmarks and harnesses.
 */
export async function withPostgresAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    return await work(admin)
  } finally {
    await admin.end()
  }
}

export async function postgresReachable(serverUrl: string): Promise<boolean> {
  try {
    await withPostgresAdmin(serverUrl, (admin) => admin.query('select 1'))
    return true
  } catch {
    return false
  }
}
