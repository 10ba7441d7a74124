import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { NginxFront } from './nginx-front.ts'
import { ServerProcess } from './server-process.ts'

/**
 * Several Pactum server processes on one PostgreSQL database and one
 * DATA_DIR, with nginx in front on one port (docs/deployment.md). The
 * processes start together on purpose: the first start of a fresh database
 * has all of them run the migrations and install the job queue at once,
 * which the database's advisory locks serialise.
 */

export interface ClusterOptions {
  /** The port nginx listens on; the processes take the next ones. */
  port: number
  processes: number
  databaseUrl: string
  /** Shared by every process: e-mails written as files, identity documents, the sign-in key file. */
  dataDir: string
  /** nginx's prefix (configuration, pid, logs, temporary files) and the processes' log files. */
  runDir: string
  /** Settings for every process beside the ones the cluster sets. */
  env?: Record<string, string>
  /** Settings of one process (its index from 0), e.g. a METRICS_PORT of its own. */
  processEnv?: (index: number) => Record<string, string>
  /** nginx's interface; every interface when left out. */
  host?: string
  log?: (line: string) => void
}

export class Cluster {
  readonly servers: ServerProcess[]
  readonly front: NginxFront
  readonly #log: (line: string) => void

  private constructor(servers: ServerProcess[], front: NginxFront, log: (line: string) => void) {
    this.servers = servers
    this.front = front
    this.#log = log
  }

  get url(): string {
    return this.front.url
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const log = options.log ?? (() => undefined)
    await mkdir(options.runDir, { recursive: true })
    await mkdir(options.dataDir, { recursive: true })
    const publicUrl = `http://localhost:${options.port}`
    const servers = Array.from(
      { length: options.processes },
      (_, index) =>
        new ServerProcess({
          name: `server-${index + 1}`,
          port: options.port + index + 1,
          logFile: path.join(options.runDir, `server-${index + 1}.log`),
          env: {
            ...options.env,
            ...options.processEnv?.(index),
            DATABASE_URL: options.databaseUrl,
            DATA_DIR: options.dataDir,
            // Every process names the address people use: one sign-in issuer, one set of links in e-mails.
            PUBLIC_URL: publicUrl,
            // Only nginx, on this machine, may say who the client is.
            TRUST_PROXY: '127.0.0.1',
          },
        }),
    )
    try {
      for (const server of servers) server.spawn()
      await Promise.all(servers.map((server) => server.waitUntilHealthy()))
      log(`${servers.length} server processes healthy (${servers.map((server) => server.address).join(', ')})`)
      const front = await NginxFront.start({
        prefix: path.join(options.runDir, 'nginx'),
        port: options.port,
        upstreams: servers.map((server) => server.address),
        ...(options.host ? { host: options.host } : {}),
      })
      log(`nginx serves ${front.url}`)
      return new Cluster(servers, front, log)
    } catch (error) {
      await Promise.all(servers.map((server) => server.stop()))
      throw error
    }
  }

  /** Starts a process that has ended again, and waits until it serves. */
  async restart(server: ServerProcess): Promise<void> {
    if (server.running) return
    server.spawn()
    await server.waitUntilHealthy()
    this.#log(`${server.name} serves again`)
  }

  /** nginx first (no new requests reach the processes), then every process with SIGTERM. */
  async stop(): Promise<void> {
    await this.front.stop()
    await Promise.all(this.servers.map((server) => server.stop()))
    this.#log('stopped')
  }
}
