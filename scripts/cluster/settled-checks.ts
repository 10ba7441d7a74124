import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../apps/server/src/db/schema.ts'
import { verifyLedger } from '../../apps/server/src/ledger/verify-ledger.ts'
import type { MixedLoadResult } from './mixed-load.ts'

/**
 * The books after the mixed load, read from the one database the processes
 * share: nothing acknowledged lost, nothing done twice (whichever process
 * ran a timer, an outbox call or an e-mail), nothing left stuck.
 */

export interface Check {
  name: string
  ok: boolean
  detail: string
}

/** The queues that carry a sale's work: timers, provider calls, webhooks, e-mails, carrier news. */
const workQueues = [
  'transaction-timer',
  'outbox-send',
  'send-notification',
  'sandbox-deliver-webhook',
  'sandbox-settle-payment',
  'sandbox-settle-refund',
  'sandbox-tracking-update',
]

async function count(db: Kysely<Database>, query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  return Number((await query.execute(db)).rows[0]?.n ?? 0)
}

export interface RunningJob {
  id: string
  name: string
}

/** Jobs of the work queues running now (taken at the kill: some of them are the dead process's). */
export async function runningJobs(db: Kysely<Database>): Promise<RunningJob[]> {
  const { rows } = await sql<RunningJob>`
    select id::text as id, name from pgboss.job where state = 'active' and name = any(${workQueues})`.execute(db)
  return rows
}

/** Until every sale is released and the work queues have nothing due, or `seconds` pass. */
export async function waitUntilSettled(db: Kysely<Database>, sales: string[], seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000
  while (Date.now() < deadline) {
    const released = await count(
      db,
      sql`select count(*)::int as n from transactions where status = 'funds_released' and id = any(${sales}::uuid[])`,
    )
    const due = await count(
      db,
      sql`select count(*)::int as n from pgboss.job where name = any(${workQueues})
          and (state = 'active' or (state in ('created', 'retry') and start_after < now() + interval '10 minutes'))`,
    )
    if (released === sales.length && due === 0) return true
    await sleep(1000)
  }
  return false
}

export async function checkBooks(o: {
  db: Kysely<Database>
  load: MixedLoadResult
  settled: boolean
  /** GET /admin/ledger/verify through nginx while the cluster ran. */
  ledgerThroughApi: { status: number; body: unknown }
  /** Jobs running anywhere when the process was killed: each must end completed (the dead one's by another process). */
  runningAtKill: RunningJob[]
  dataDir: string
}): Promise<Check[]> {
  const { db, load } = o
  const checks: Check[] = []
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail })

  check(
    'every client flow ran to its end',
    load.failures.length === 0,
    load.failures.slice(0, 5).join('; ') || `${load.sales.length} sales, ${load.created.length} creates, ${load.reads.ok} reads`,
  )

  const descriptions = [...load.created.map((created) => created.description), ...load.unacknowledged]
  const stored = await db
    .selectFrom('transactions')
    .select(['id', 'description'])
    .where('description', 'in', descriptions.length ? descriptions : [''])
    .execute()
  const byDescription = new Map<string, string[]>()
  for (const row of stored) byDescription.set(row.description, [...(byDescription.get(row.description) ?? []), row.id])
  const lost = load.created.filter((created) => (byDescription.get(created.description) ?? []).join() !== created.id)
  const doubled = load.unacknowledged.filter((description) => (byDescription.get(description) ?? []).length > 1)
  check(
    'every acknowledged create is stored, once',
    lost.length === 0 && doubled.length === 0,
    lost.length + doubled.length > 0
      ? `${lost.length} acknowledged creates missing or doubled, ${doubled.length} unacknowledged ones doubled`
      : `${load.created.length} acknowledged, ${load.unacknowledged.length} never acknowledged (at most once each)`,
  )

  const notReleased = await db
    .selectFrom('transactions')
    .select(['id', 'status'])
    .where('id', 'in', load.sales.length ? load.sales : ['00000000-0000-0000-0000-000000000000'])
    .where('status', '<>', 'funds_released')
    .execute()
  check(
    'every sale finished (funds released)',
    o.settled && notReleased.length === 0 && load.sales.length > 0,
    notReleased.map((row) => `${row.id} is ${row.status}`).join('; ') || `${load.sales.length} sales released`,
  )

  const breaches = await verifyLedger(db)
  const api = o.ledgerThroughApi.body as { ok?: boolean } | undefined
  check(
    'ledger invariants hold',
    breaches.length === 0 && o.ledgerThroughApi.status === 200 && api?.ok === true,
    `through the API: ${o.ledgerThroughApi.status} ${JSON.stringify(api).slice(0, 120)}; at the end: ${breaches.length} breaches ${JSON.stringify(breaches).slice(0, 200)}`,
  )

  const entries = await sql<{ transaction_id: string; kind: string; n: number }>`
    select transaction_id, kind, count(*)::int as n from ledger_entries where transaction_id::text = any(${load.sales}::text[]) group by 1, 2`.execute(
    db,
  )
  const entryProblems = entries.rows.filter((row) => Number(row.n) !== 1).map((row) => `${row.transaction_id} ${row.kind} ×${row.n}`)
  const holds = entries.rows.filter((row) => row.kind === 'hold').length
  const releases = entries.rows.filter((row) => row.kind === 'release').length
  check(
    'each sale held and released once in the ledger',
    entryProblems.length === 0 && holds === load.sales.length && releases === load.sales.length,
    entryProblems.join('; ') || `${holds} holds, ${releases} releases for ${load.sales.length} sales`,
  )

  const transfers = await sql<{ id: string; n: number; total: number; released: number; paid: number; due: number }>`
    select t.id, (select count(*)::int from sandbox_transfers s where s.transaction_id::text = t.id::text) as n,
           (select coalesce(sum(amount), 0)::int from sandbox_transfers s where s.transaction_id::text = t.id::text) as total,
           t.amount_released as released,
           (select coalesce(sum(amount), 0)::int from sandbox_payment_intents i where i.transaction_id::text = t.id::text and i.status = 'succeeded') as paid,
           t.price + t.charge as due
    from transactions t where t.id = any(${load.sales}::uuid[])`.execute(db)
  const moneyProblems = transfers.rows
    .filter((row) => Number(row.n) !== 1 || Number(row.total) !== Number(row.released) || Number(row.paid) !== Number(row.due))
    .map((row) => `${row.id}: ${row.n} transfers of ${row.total} (released ${row.released}), paid ${row.paid} of ${row.due}`)
  check(
    'one transfer per sale at the provider, and one payment',
    moneyProblems.length === 0,
    moneyProblems.slice(0, 5).join('; ') || `${transfers.rows.length} sales, one transfer and one payment each`,
  )

  const twice = await sql<{ transaction_id: string; from_status: string; to_status: string; n: number }>`
    select transaction_id, from_status, to_status, count(*)::int as n from transaction_events
    where from_status <> to_status group by 1, 2, 3 having count(*) > 1`.execute(db)
  check(
    'no state change applied twice',
    twice.rows.length === 0,
    twice.rows.map((row) => `${row.transaction_id} ${row.from_status}→${row.to_status} ×${row.n}`).join('; ') || 'each once',
  )

  const outboxLeft = await count(db, sql`select count(*)::int as n from outbox where status <> 'sent'`)
  const eventsLeft = await count(db, sql`select count(*)::int as n from provider_events where processed_at is null`)
  const deliveriesLeft = await count(db, sql`select count(*)::int as n from sandbox_webhook_deliveries where delivered_at is null`)
  check(
    'every outbox call made, every webhook delivered and applied',
    outboxLeft + eventsLeft + deliveriesLeft === 0,
    `${outboxLeft} outbox rows unsent, ${deliveriesLeft} webhooks undelivered, ${eventsLeft} unprocessed`,
  )

  const unsent = await count(db, sql`select count(*)::int as n from notifications where status <> 'sent'`)
  const sentIds = new Set((await db.selectFrom('notifications').select('mail_id').execute()).map((row) => row.mail_id))
  const files = (await readdir(path.join(o.dataDir, 'mail')).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'))
  // The file mailer names each file after the message's key: a resend shows as a second file with the same id.
  const ids = files.map((file) => /-([0-9a-f-]{36})\.eml$/.exec(file)?.[1] ?? '').filter((id) => sentIds.has(id))
  const duplicates = ids.length - new Set(ids).size
  // The accepted gap (send-notification.ts): an e-mail whose process died between the mailer and the mark goes again.
  const mailsInFlight = o.runningAtKill.filter((job) => job.name === 'send-notification').length
  check(
    'every e-mail sent, none twice beyond the accepted gap',
    unsent === 0 && duplicates <= mailsInFlight,
    `${sentIds.size} sent, ${unsent} unsent, ${duplicates} sent twice (${mailsInFlight} were being sent when the process was killed)`,
  )

  const atKill = o.runningAtKill.map((job) => job.id)
  const { rows: unfinished } = await sql<{ id: string; name: string; state: string }>`
    select id::text as id, name, state::text as state from pgboss.job where id = any(${atKill}::uuid[]) and state <> 'completed'`.execute(
    db,
  )
  check(
    'every job running at the kill ran to completion',
    unfinished.length === 0,
    unfinished.map((job) => `${job.name} ${job.id} is ${job.state}`).join('; ') ||
      `${atKill.length} jobs were running (${summarise(o.runningAtKill)}), all completed`,
  )

  const failedJobs = await sql<{
    name: string
    n: number
  }>`select name, count(*)::int as n from pgboss.job where state = 'failed' group by name`.execute(db)
  check(
    'no job given up',
    failedJobs.rows.length === 0,
    failedJobs.rows.map((row) => `${row.name} ×${row.n}`).join(', ') || 'none failed for good',
  )

  const openKeys = await count(db, sql`select count(*)::int as n from idempotency_keys where status_code is null`)
  check('no Idempotency-Key left in progress', openKeys === 0, `${openKeys} open`)
  return checks
}

/**
 * What nginx's access log says: requests per process (all, and since
 * `since`), and those it sent on to another process after a failure.
 */
export async function accessLogSummary(
  file: string,
  since: Date,
): Promise<{ perProcess: Record<string, number>; perProcessSince: Record<string, number>; failedOver: number; gatewayErrors: number }> {
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean)
  const perProcess: Record<string, number> = {}
  const perProcessSince: Record<string, number> = {}
  let failedOver = 0
  let gatewayErrors = 0
  for (const line of lines) {
    const tried = processesTried(line)
    if (tried.length > 1) failedOver += 1
    const last = tried.at(-1)
    const at = new Date(/\[([^\]]+)\]/.exec(line)?.[1] ?? 0)
    if (last) {
      perProcess[last] = (perProcess[last] ?? 0) + 1
      if (at >= since) perProcessSince[last] = (perProcessSince[last] ?? 0) + 1
    }
    if (/" 50[234] /.test(line)) gatewayErrors += 1
  }
  return { perProcess, perProcessSince, failedOver, gatewayErrors }
}

/** The processes nginx tried for one access-log line, in order: the last one answered. */
export function processesTried(line: string): string[] {
  const upstream = /upstream=(.*?) upstream_status=/.exec(line)?.[1] ?? ''
  return upstream.split(', ').filter((address) => address && address !== '-')
}

function summarise(jobs: RunningJob[]): string {
  const byName = new Map<string, number>()
  for (const job of jobs) byName.set(job.name, (byName.get(job.name) ?? 0) + 1)
  return [...byName].map(([name, n]) => `${name} ×${n}`).join(', ') || 'none'
}
