import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import type { Database } from '../../db/database.ts'

/*
 * What a crash run reads of the server's work once it is stopped: the
 * burst's jobs in pg-boss's queue, when they completed, counts of rows
 * left undone, and the e-mails written to the data directory.
 */

/** The queues whose jobs carry the burst's work (timers, provider calls, webhooks, e-mails, carrier news, the partner's webhooks). */
export const workQueues = [
  'transaction-timer',
  'outbox-send',
  'send-notification',
  'sandbox-deliver-webhook',
  'sandbox-settle-payment',
  'sandbox-settle-refund',
  'sandbox-tracking-update',
  'partner-webhooks',
]

export interface JobRow {
  id: string
  name: string
  state: string
}

/** Jobs of the burst's queues running, or due and not yet done (a job due in an hour or a day is not the burst's). */
export async function unfinishedJobs(database: Database): Promise<JobRow[]> {
  const { rows } = await sql<JobRow>`
    select id::text as id, name, state::text as state from pgboss.job
    where name = any(${workQueues})
      and (state = 'active' or (state in ('created', 'retry') and start_after < now() + interval '10 minutes'))`.execute(database.db)
  return rows
}

/** Seconds from the restart until each job completed (null if it has not). */
export async function resumeTimes(database: Database, jobs: JobRow[], readyAt: number): Promise<Map<string, number | null>> {
  if (jobs.length === 0) return new Map()
  const { rows } = await sql<{ id: string; completed_on: Date | null }>`
    select id::text as id, completed_on from pgboss.job where id = any(${jobs.map((job) => job.id)}::uuid[])`.execute(database.db)
  return new Map(
    rows.map((row) => [row.id, row.completed_on ? Math.max(0, (new Date(row.completed_on).getTime() - readyAt) / 1000) : null]),
  )
}

/** From the restart until the burst's last job completed. */
export async function lastWorkSeconds(database: Database, readyAt: number): Promise<number | null> {
  const { rows } = await sql<{ last: Date | null }>`
    select max(completed_on) as last from pgboss.job
    where name = any(${workQueues}) and start_after < now() + interval '10 minutes'`.execute(database.db)
  const last = rows[0]?.last
  return last ? Math.max(0, (new Date(last).getTime() - readyAt) / 1000) : null
}

export async function countOf(db: Database['db'], query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  const { rows } = await query.execute(db)
  return Number(rows[0]?.n ?? 0)
}

export async function mailFiles(dataDir: string): Promise<string[]> {
  return (await readdir(path.join(dataDir, 'mail')).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'))
}
