/**
 * Pactum as several server processes behind nginx on one PostgreSQL
 * (docs/deployment.md):
 *
 *   npm run cluster                          # 3 processes, nginx on :3000, database pactum_cluster on the local server
 *   npm run cluster -- --port 3100 --processes 2
 *   DATABASE_URL=postgres://user@host:5432/pactum npm run cluster
 *
 * A process that dies is started again (as a service manager would); Ctrl-C
 * or SIGTERM stops nginx, then every process, and exits.
 */
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { Cluster } from './cluster/cluster.ts'
import { defaultServerUrl, ensureDatabase } from './cluster/cluster-database.ts'

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    processes: { type: 'string', default: '3' },
    'data-dir': { type: 'string', default: path.join('data', 'cluster') },
  },
})
const port = Number(options.port)
const processes = Number(options.processes)
if (!Number.isInteger(port) || port < 1 || port > 65_535 - processes) throw new Error(`--port: not a port: ${options.port}`)
if (!Number.isInteger(processes) || processes < 1 || processes > 16) throw new Error(`--processes: 1 to 16, not ${options.processes}`)

const log = (line: string) => process.stderr.write(`cluster: ${line}\n`)
const dataDir = path.resolve(options['data-dir'])
const databaseUrl = process.env.DATABASE_URL || (await ensureDatabase(defaultServerUrl, 'pactum_cluster'))
log(`database ${new URL(databaseUrl).pathname.slice(1)}, DATA_DIR ${dataDir}`)

const cluster = await Cluster.start({ port, processes, databaseUrl, dataDir, runDir: path.join(dataDir, 'run'), log })
log(`Pactum is serving on ${cluster.url} (logs in ${path.join(dataDir, 'run')})`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    log(`${signal}: stopping`)
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  })
}

// Supervision: each process that ends while the cluster runs is started again.
await Promise.all(
  cluster.servers.map(async (server) => {
    while (!stopping) {
      const exit = await server.exited
      if (stopping) return
      log(`${server.name} ended (${exit.signal ?? `exit ${exit.code}`}); starting it again`)
      await sleep(1000)
      await cluster.restart(server).catch((error: unknown) => log(`${server.name} did not come back: ${String(error)}`))
    }
  }),
)
