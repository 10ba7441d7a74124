import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { exitOf, healthy } from './server-process.ts'

/**
 * nginx from Debian's package in front of the server processes, run as a
 * child of ours (never the system's service, never /etc/nginx): its
 * configuration is the repository's template filled in, and everything it
 * writes (pid, logs, temporary files) stays under a prefix folder.
 */

const root = path.resolve(import.meta.dirname, '../..')
export const nginxTemplate = path.join(root, 'deploy/nginx/pactum.conf.template')

export function nginxBinary(): string {
  const candidates = [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']
  const found = candidates.find((candidate): candidate is string => Boolean(candidate) && existsSync(candidate!))
  if (!found) throw new Error('nginx not found: apt-get install -y nginx (or set NGINX_BIN)')
  return found
}

/** The template with its two blanks filled: where nginx listens, and one `server` line per process. */
export function renderNginxConfig(template: string, options: { listen: string; upstreams: string[] }): string {
  if (options.upstreams.length === 0) throw new Error('nginx needs at least one server process behind it')
  // A process that fails a request is left alone for 5 s: nginx tries the others meanwhile.
  const servers = options.upstreams.map((address) => `        server ${address} max_fails=1 fail_timeout=5s;`).join('\n')
  const filled = template.replaceAll('{{listen}}', options.listen).replaceAll('{{servers}}', servers)
  const left = /\{\{\w+\}\}/.exec(filled)
  if (left) throw new Error(`the nginx template has a blank this script does not fill: ${left[0]}`)
  return filled
}

export class NginxFront {
  readonly prefix: string
  readonly port: number
  readonly #configFile: string
  #child: ChildProcess | undefined
  #stderr = ''

  private constructor(prefix: string, port: number) {
    this.prefix = prefix
    this.port = port
    this.#configFile = path.join(prefix, 'nginx.conf')
  }

  get url(): string {
    return `http://localhost:${this.port}`
  }

  get accessLog(): string {
    return path.join(this.prefix, 'logs/access.log')
  }

  /**
   * Writes the configuration, has nginx check it (`-t`), starts it in the
   * foreground and waits until the servers answer through it.
   */
  static async start(options: { prefix: string; port: number; upstreams: string[]; host?: string }): Promise<NginxFront> {
    const front = new NginxFront(options.prefix, options.port)
    await mkdir(path.join(options.prefix, 'logs'), { recursive: true })
    await mkdir(path.join(options.prefix, 'temp'), { recursive: true })
    // Run as root, nginx's workers run as nobody: they must be able to reach
    // the temporary folders it makes under the prefix.
    await chmod(options.prefix, 0o755)
    const template = await readFile(nginxTemplate, 'utf8')
    // Every interface by default, as `npm start` listens (HOST=0.0.0.0).
    const listen = options.host ? `${options.host}:${options.port}` : String(options.port)
    await writeFile(front.#configFile, renderNginxConfig(template, { listen, upstreams: options.upstreams }))
    const binary = nginxBinary()
    await promisify(execFile)(binary, [...front.#arguments(), '-t', '-q'])
    front.#child = spawn(binary, front.#arguments(), { stdio: ['ignore', 'ignore', 'pipe'] })
    front.#child.stderr?.on('data', (chunk: Buffer) => {
      front.#stderr = (front.#stderr + chunk.toString()).slice(-4000)
    })
    const deadline = Date.now() + 30_000
    while (!(await healthy(front.url))) {
      if (!front.running) throw new Error(`nginx exited: ${front.#stderr}`)
      if (Date.now() > deadline) throw new Error(`nothing answered through nginx within 30 s: ${front.#stderr}`)
      await sleep(100)
    }
    return front
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null
  }

  #arguments(): string[] {
    return ['-p', `${this.prefix}/`, '-c', this.#configFile, '-g', `daemon off; pid ${path.join(this.prefix, 'nginx.pid')};`]
  }

  /** SIGQUIT: nginx finishes the requests it is serving, then exits (SIGTERM would cut them). */
  async stop(): Promise<void> {
    const child = this.#child
    if (!child || !this.running) return
    child.kill('SIGQUIT')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    try {
      await exitOf(child)
    } finally {
      clearTimeout(timer)
    }
  }
}
