import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { withPostgresAdmin } from '../../apps/server/src/db/postgres-admin.ts'

/**
 * A streaming replica of the cluster's PostgreSQL server on this machine,
 * for the cluster test's reads (DATABASE_READ_URL): a second PostgreSQL
 * cluster copied with `pg_basebackup -R` into a temporary directory,
 * started with `pg_ctl` on its own port, stopped and removed at the end.
 *
 * The primary must allow replication connections from this machine: a
 * `host replication all 127.0.0.1/32 trust` line (or with a password) in
 * its pg_hba.conf, and `wal_level` replica or logical (PostgreSQL's
 * default). PostgreSQL refuses to run as root: when this script is root,
 * the copy and the server run as the `postgres` user (runuser).
 */

const run = promisify(execFile)

export interface ReadReplica {
  /** The replica's URL for one database of the primary (the same name). */
  urlFor(databaseUrl: string): string
  /** How far behind the primary's written WAL the replica has replayed, in bytes. */
  lagBytes(primaryUrl: string): Promise<number>
  stop(): Promise<void>
}

/** The PostgreSQL programs of the primary's major version, when this machine has them (Debian's layout). */
export async function replicaTools(primaryUrl: string): Promise<{ bin: string } | { missing: string }> {
  const version = await withPostgresAdmin(primaryUrl, async (admin) =>
    Number((await admin.query('show server_version_num')).rows[0].server_version_num),
  )
  const bin = `/usr/lib/postgresql/${Math.floor(version / 10_000)}/bin`
  const missing = ['pg_basebackup', 'pg_ctl', 'postgres'].filter((name) => !existsSync(path.join(bin, name)))
  return missing.length ? { missing: `${missing.join(', ')} not in ${bin}` } : { bin }
}

export async function startReadReplica(options: {
  primaryUrl: string
  bin: string
  port: number
  log(line: string): void
}): Promise<ReadReplica> {
  const primary = new URL(options.primaryUrl)
  const asRoot = process.getuid?.() === 0
  const runAs = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(options.bin, program), ...args]) : run(path.join(options.bin, program), args)
  const dir = await mkdtemp(path.join(tmpdir(), 'pactum-replica-'))
  const data = path.join(dir, 'data')
  let started = false
  const stop = async () => {
    if (started) await runAs('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined)
    started = false
    await rm(dir, { recursive: true, force: true })
  }
  try {
    if (asRoot) await run('chown', ['postgres:postgres', dir])
    // Hot standby refuses to start with fewer of these than the primary has.
    const settings = await withPostgresAdmin(options.primaryUrl, async (admin) => {
      const names = ['max_connections', 'max_worker_processes', 'max_prepared_transactions', 'max_locks_per_transaction', 'max_wal_senders']
      const values: string[] = []
      for (const name of names) values.push(`${name} = ${String((await admin.query(`show ${name}`)).rows[0][name])}`)
      return values
    })
    await runAs('pg_basebackup', [
      '-h',
      primary.hostname,
      '-p',
      primary.port || '5432',
      '-U',
      decodeURIComponent(primary.username || 'postgres'),
      '-D',
      data,
      '-R', // standby.signal and primary_conninfo: it streams from the primary once started
      '-X',
      'stream',
      '-c',
      'fast', // an immediate checkpoint: the copy starts at once instead of after a spread one
    ])
    // Debian keeps postgresql.conf and pg_hba.conf outside the data directory, so the copy has neither.
    await writeFile(
      path.join(data, 'postgresql.conf'),
      [
        `port = ${options.port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'hot_standby = on',
        // The primary keeps rows the replica's reads still see, instead of the replica pausing its replay for them.
        'hot_standby_feedback = on',
        'shared_buffers = 32MB',
        ...settings,
        '',
      ].join('\n'),
    )
    await writeFile(path.join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n')
    if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir])
    await runAs('pg_ctl', ['-D', data, '-l', path.join(dir, 'replica.log'), '-w', '-t', '60', 'start'])
    started = true
    const replicaServer = new URL(options.primaryUrl)
    replicaServer.hostname = '127.0.0.1'
    replicaServer.port = String(options.port)
    const inRecovery = await withPostgresAdmin(replicaServer.toString(), async (admin) => {
      return Boolean((await admin.query('select pg_is_in_recovery() as standby')).rows[0].standby)
    })
    if (!inRecovery) throw new Error('the copy started as a primary, not as a standby')
    options.log(`read replica streaming on 127.0.0.1:${options.port} (${data})`)
    return {
      urlFor: (databaseUrl) => {
        const url = new URL(databaseUrl)
        url.hostname = '127.0.0.1'
        url.port = String(options.port)
        return url.toString()
      },
      lagBytes: async (primaryUrl) => {
        const written = await withPostgresAdmin(primaryUrl, async (admin) =>
          String((await admin.query('select pg_current_wal_lsn()::text as lsn')).rows[0].lsn),
        )
        return withPostgresAdmin(replicaServer.toString(), async (admin) => {
          const { rows } = await admin.query('select pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::int8::text as lag', [written])
          return Math.max(0, Number(rows[0].lag))
        })
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Waits until the replica has replayed what the primary had written when asked (at most `seconds`). */
export async function waitForReplay(replica: ReadReplica, primaryUrl: string, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000
  let lag = await replica.lagBytes(primaryUrl)
  while (lag > 0 && Date.now() < deadline) {
    await sleep(100)
    lag = await replica.lagBytes(primaryUrl)
  }
  return lag
}
