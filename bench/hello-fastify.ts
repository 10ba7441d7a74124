import Fastify from 'fastify'

/**
 * The floor the benchmark compares Pactum's HTTP figures with: a bare
 * Fastify answering a constant, in its own process, no logging, no database.
 * Run by bench.ts with PORT set; prints "listening" when ready.
 */
const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.stdout.write('listening\n')
