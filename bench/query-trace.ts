/**
 * The SQL statements one request sends, as PostgreSQL logs them: the number
 * of round trips is most of a request's cost on a small machine (issue 13).
 *
 *   npm run bench:queries
 *
 * Starts Pactum on a database of its own on the benchmarks' PostgreSQL
 * (superuser needed: the database gets log_statement = 'all'), warms up,
 * then for each request reads the statements the server's log gained.
 */
import { readFile, stat } from 'node:fs/promises'
import { sql } from 'kysely'
import { loadConfig } from '../apps/server/src/config.ts'
import { mintAccessToken, readSigningKeyFile } from '../apps/server/src/modules/sign-in/oidc/token-minter.ts'
import { openBenchDatabase } from './bench-database.ts'
import { freePort, startPactum, stopPactum } from './pactum-process.ts'

const setup = await openBenchDatabase('postgres', 'queries')
const name = (await sql<{ name: string }>`select current_database() as name`.execute(setup.database.db)).rows[0]!.name
await sql.raw(`ALTER DATABASE ${name} SET log_statement = 'all'`).execute(setup.database.db)
// With logging_collector off (Debian's default) the server's stderr goes to pg_ctlcluster's log file.
const logFile =
  (await sql<{ file: string | null }>`select pg_current_logfile() as file`.execute(setup.database.db)).rows[0]?.file ??
  process.env.PG_LOG_FILE ??
  '/var/log/postgresql/postgresql-15-main.log'
const port = await freePort()
const server = await startPactum(setup.env, port)
try {
  const logPath = logFile.startsWith('/')
    ? logFile
    : `${(await sql<{ d: string }>`show data_directory`.execute(setup.database.db)).rows[0]!.d}/${logFile}`
  const config = loadConfig({ ...process.env, ...setup.env, PORT: String(port), PUBLIC_URL: server.baseUrl })
  const signingKey = await readSigningKeyFile(config.dataDir)
  const seller = await mintAccessToken({
    privateSigningKey: signingKey,
    issuer: config.oidc.issuer,
    audience: config.oidc.audience,
    clientId: config.oidc.clientId,
    email: 'seller@example.com',
  })
  const call = async (method: string, url: string, body?: object) => {
    const response = await fetch(`${server.baseUrl}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${seller}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return (await response.json()) as Record<string, string>
  }
  const traced = async (label: string, request: () => Promise<unknown>) => {
    // Let the workers' polls pass, then take what the log gained during the request alone.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const before = (await stat(logPath)).size
    await request()
    await new Promise((resolve) => setTimeout(resolve, 200))
    const text = (await readFile(logPath)).subarray(before).toString()
    const statements = text.split('\n').filter((line) => line.includes(`${name}`) && /(statement|execute [^:]*):/.test(line))
    const listed = statements.map((line) => `  ${line.replace(/^.*?LOG:\s+/, '').slice(0, 220)}`)
    process.stdout.write([`\n## ${label}: ${statements.length} statements (worker polls included if any)`, ...listed, ''].join('\n'))
  }
  const quote = await call('GET', '/charge?price=10000&currency=eur&payment_method=card')
  const body = {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: 'A bicycle',
    payment_method: 'card',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  }
  const first = await call('POST', '/me/transactions', body)
  await traced('POST /me/transactions', () => call('POST', '/me/transactions', body))
  await traced(`GET /transactions/{id}`, () => call('GET', `/transactions/${first.id}`))
  await traced('GET /me/transactions', () => call('GET', '/me/transactions'))
  await traced('GET /me/transactions?view=summary', () => call('GET', '/me/transactions?view=summary'))
} finally {
  await stopPactum(server)
  await setup.database.close()
  await setup.dispose()
}
