import Fastify from 'fastify'
import pg from 'pg'

/**
 * The GET figure's floor again, with Pactum's row instead of pgbench's: one
 * transaction read by its id from Pactum's own database and sent back as
 * JSON, behind the same thinnest server as pg-fastify.ts (Fastify, no
 * logging, no authentication, no schemas; pg with a pool of 10, the
 * statement prepared). pgbench's select-only answers one integer; a
 * transaction is a row of 78 columns, and reading, parsing and
 * sending it costs any server on pg the same. So the gap between this figure
 * and pg-fastify.ts's is the row's width, and the gap between it and
 * Pactum's GET is what Pactum adds: the sign-in, the party check, the view,
 * the response schema, the log line and the headers. Run by bench.ts with
 * PORT and DATABASE_URL (Pactum's database); prints "listening" when ready.
 *
 * - GET /transactions/:id: `select * from transactions where id = $1`.
 */

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error("DATABASE_URL: Pactum's database")
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })

const app = Fastify({ logger: false })

app.get<{ Params: { id: string } }>('/transactions/:id', async (request, reply) => {
  const { rows } = await pool.query({ name: 'transaction', text: 'SELECT * FROM transactions WHERE id = $1', values: [request.params.id] })
  if (rows.length === 0) return reply.code(404).send()
  return rows[0]
})

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.stdout.write('listening\n')
