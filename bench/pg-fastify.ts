import Fastify from 'fastify'
import pg from 'pg'

/**
 * The second floor the benchmark compares Pactum with: pgbench's own
 * statements behind the thinnest HTTP server our stack allows (Fastify, no
 * logging, no authentication, no schemas; pg with a pool of 10, as Pactum's,
 * and every statement prepared). What it loses against pgbench is what any
 * Node server on pg loses by being one: HTTP, JSON and a JavaScript client
 * on the same two cores. Run by bench.ts with PORT and DATABASE_URL (a
 * database that `pgbench --initialize` filled); prints "listening" when ready.
 *
 * - POST /simple-update: pgbench's built-in simple-update, one database
 *   transaction (UPDATE an account, SELECT its balance, INSERT a history row).
 * - GET /select-only: pgbench's select-only, one account's balance.
 * - GET /page: 50 accounts after a random one, in key order: a page of a
 *   list, for the list's figure.
 * The account and the delta are drawn at random here, as pgbench draws them.
 */

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('DATABASE_URL: the pgbench database')
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
const { rows: branches } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgbench_branches')
const accounts = 100_000 * branches[0]!.n
const randomAccount = () => 1 + Math.floor(Math.random() * accounts)

const app = Fastify({ logger: false })

app.post('/simple-update', async () => {
  const aid = randomAccount()
  const delta = Math.floor(Math.random() * 10_001) - 5_000
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query({
      name: 'update',
      text: 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2',
      values: [delta, aid],
    })
    const { rows } = await client.query({ name: 'balance', text: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', values: [aid] })
    await client.query({
      name: 'history',
      text: 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)',
      values: [1, 1, aid, delta],
    })
    await client.query('END')
    return rows[0]
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  } finally {
    client.release()
  }
})

app.get('/select-only', async () => {
  const { rows } = await pool.query({
    name: 'balance',
    text: 'SELECT abalance FROM pgbench_accounts WHERE aid = $1',
    values: [randomAccount()],
  })
  return rows[0]
})

app.get('/page', async () => {
  const { rows } = await pool.query({
    name: 'page',
    text: 'SELECT aid, bid, abalance, filler FROM pgbench_accounts WHERE aid > $1 ORDER BY aid LIMIT 50',
    values: [randomAccount() - 50],
  })
  return { accounts: rows }
})

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.stdout.write('listening\n')
