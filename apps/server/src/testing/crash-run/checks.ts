import { sql } from 'kysely'
import type { Database } from '../../db/database.ts'
import { verifyLedger } from '../../ledger/verify-ledger.ts'
import type { Answer } from './client.ts'
import type { ReceivedWebhook } from './partner-receiver.ts'
import { countOf, type JobRow, lastWorkSeconds, mailFiles, resumeTimes, workQueues } from './jobs.ts'
import type { Check, Crash, CrashRunReport, RetriedRequest, Sale } from './scenario.ts'

/*
 * The books after a crash run, read from the stopped server's database:
 * nothing lost (every sale in its expected state, every row sent, every
 * job run again), nothing doubled (transfers, refunds, state changes,
 * e-mails beyond the one accepted gap, keyed requests), and the timings.
 */

/** What the run saw, for the checks. */
export interface FinishedRun {
  crashPoint: string
  dataDir: string
  sales: Sale[]
  /** Every sale showed its expected status before the time ran out. */
  settled: boolean
  /** `GET /admin/ledger/verify`, asked while the server ran. */
  ledger: Answer
  /** How many times the queue was looked at before it was quiet. */
  inspections: number
  crash: Crash | undefined
  /** Sales whose client could not drive them to the end. */
  failures: string[]
  retried: RetriedRequest[]
  /** What the partner's receiver got, in the order it came. */
  partnerWebhooks: ReceivedWebhook[]
  log: (line: string) => void
}

export async function crashReport(database: Database, run: FinishedRun): Promise<CrashRunReport> {
  const { sales, settled, ledger, inspections, crash, failures, retried } = run
  const { db } = database
  const checks: Check[] = []
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail })
  const point = run.crashPoint.split(':')[0]
  check('crashed at the point', crash?.point === point, crash ? `died at ${crash.point}` : 'the point was never reached')
  check('client burst ran', failures.length === 0, failures.join('; ') || `${sales.length} sales driven`)

  const rows = await db
    .selectFrom('transactions')
    .select(['id', 'status', 'price', 'charge', 'amount_released', 'amount_refunded'])
    .execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  const wrongState = sales.filter((sale) => !sale.id || byId.get(sale.id)?.status !== sale.expected)
  check(
    'every sale in its expected state',
    settled && wrongState.length === 0,
    wrongState
      .map(
        (sale) => `sale ${sale.index} (${sale.plan}) is ${sale.id ? byId.get(sale.id)?.status : 'not created'}, expected ${sale.expected}`,
      )
      .join('; ') || `${sales.length} sales settled`,
  )

  // Through the API while the server ran, and over the final books.
  const finalBreaches = await verifyLedger(db)
  check(
    'ledger verifies',
    ledger.status === 200 && ledger.body.ok === true && finalBreaches.length === 0,
    `GET /admin/ledger/verify: ${ledger.status} ${JSON.stringify(ledger.body).slice(0, 200)}; at the end: ${finalBreaches.length} breaches ${JSON.stringify(finalBreaches).slice(0, 200)}`,
  )

  // What the sandbox provider did, sale by sale.
  const transfers = await db
    .selectFrom('sandbox_transfers')
    .select(['transaction_id', sql<number>`count(*)`.as('n'), sql<number>`sum(amount)`.as('total')])
    .groupBy('transaction_id')
    .execute()
  const intents = await db
    .selectFrom('sandbox_payment_intents')
    .select([
      'transaction_id',
      sql<number>`sum(case when status = 'succeeded' then amount else 0 end)`.as('paid'),
      sql<number>`sum(amount_refunded)`.as('refunded'),
    ])
    .groupBy('transaction_id')
    .execute()
  const refunds = await db
    .selectFrom('sandbox_refunds as r')
    .innerJoin('sandbox_payment_intents as i', 'i.id', 'r.payment_intent_id')
    .select([
      'i.id',
      'i.amount',
      sql<number>`sum(r.amount)`.as('refunded'),
      sql<number>`sum(case when r.status = 'pending' then 1 else 0 end)`.as('pending'),
    ])
    .where('r.status', '<>', 'failed')
    .groupBy(['i.id', 'i.amount'])
    .execute()
  const transferOf = new Map(transfers.map((row) => [row.transaction_id, row]))
  const intentOf = new Map(intents.map((row) => [row.transaction_id, row]))
  const moneyProblems: string[] = []
  for (const sale of sales) {
    const row = sale.id ? byId.get(sale.id) : undefined
    if (!row) continue
    const transfer = transferOf.get(row.id)
    const intent = intentOf.get(row.id)
    const net = Number(intent?.paid ?? 0) - Number(intent?.refunded ?? 0)
    const released = row.status === 'funds_released'
    if (Number(transfer?.n ?? 0) > 1) moneyProblems.push(`sale ${sale.index}: ${transfer?.n} transfers`)
    if (Number(transfer?.total ?? 0) !== (released ? row.amount_released : 0)) {
      moneyProblems.push(`sale ${sale.index}: transferred ${transfer?.total ?? 0}, released ${row.amount_released}`)
    }
    const expectedNet = released ? row.price + row.charge : 0
    if (net !== expectedNet)
      moneyProblems.push(`sale ${sale.index} (${row.status}): the buyer is out ${net} at the provider, expected ${expectedNet}`)
  }
  for (const refund of refunds) {
    if (Number(refund.refunded) > refund.amount) moneyProblems.push(`intent ${refund.id}: refunded ${refund.refunded} of ${refund.amount}`)
    if (Number(refund.pending) > 0) moneyProblems.push(`intent ${refund.id}: a refund still pending`)
  }
  check(
    'no transfer or refund doubled or lost at the provider',
    moneyProblems.length === 0,
    moneyProblems.join('; ') || `${transfers.length} transfers, ${refunds.length} refunded payments`,
  )

  const twice = await sql<{ transaction_id: string; from_status: string; to_status: string; n: number }>`
    select transaction_id, from_status, to_status, count(*)::int as n from transaction_events
    where from_status <> to_status group by 1, 2, 3 having count(*) > 1`.execute(db)
  check(
    'no state change applied twice',
    twice.rows.length === 0,
    twice.rows.map((row) => `${row.transaction_id} ${row.from_status}→${row.to_status} ×${row.n}`).join('; ') || 'each once',
  )

  const outboxLeft = await countOf(db, sql`select count(*)::int as n from outbox where status <> 'sent'`)
  const eventsLeft = await countOf(db, sql`select count(*)::int as n from provider_events where processed_at is null`)
  const deliveriesLeft = await countOf(db, sql`select count(*)::int as n from sandbox_webhook_deliveries where delivered_at is null`)
  check(
    'every outbox row sent, every webhook delivered and applied',
    outboxLeft + eventsLeft + deliveriesLeft === 0,
    `${outboxLeft} outbox rows unsent, ${deliveriesLeft} webhooks undelivered, ${eventsLeft} unprocessed`,
  )

  const unsent = await countOf(db, sql`select count(*)::int as n from notifications where status <> 'sent'`)
  const sentIds = new Set((await db.selectFrom('notifications').select('mail_id').execute()).map((row) => row.mail_id))
  const files = await mailFiles(run.dataDir)
  // A resend carries the first attempt's id (the message's key), so it shows as a second file with a recorded id.
  const fileIds = files.map((file) => /-([0-9a-f-]{36})\.eml$/.exec(file)?.[1] ?? '')
  const duplicates = fileIds.length - new Set(fileIds).size + fileIds.filter((id) => !sentIds.has(id)).length
  // The one gap the notifications accept (send-notification.ts): a crash between the mailer and the mark sends that e-mail again.
  const mailsInFlight = crash?.inFlight.filter((job) => job.name === 'send-notification').length ?? 0
  check(
    'every e-mail sent, none doubled beyond the accepted gap',
    unsent === 0 && duplicates <= mailsInFlight,
    `${sentIds.size} sent, ${unsent} unsent, ${duplicates} sent twice (${mailsInFlight} were being sent at the crash)`,
  )

  check('every partner event delivered, signed and in order', ...(await partnerWebhookCheck(database, run)))

  const failedJobs = await sql<{ name: string; n: number }>`
    select name, count(*)::int as n from pgboss.job where state = 'failed' and name = any(${workQueues}) group by name`.execute(db)
  check(
    'no job given up',
    failedJobs.rows.length === 0,
    failedJobs.rows.map((row) => `${row.name} ×${row.n}`).join(', ') || 'none failed for good',
  )

  const resumed = crash?.readyAt ? await resumeTimes(database, crash.due, crash.readyAt) : new Map<string, number | null>()
  const seconds = (jobs: JobRow[]) => {
    const times = jobs.map((job) => resumed.get(job.id))
    if (times.some((time) => time === null || time === undefined)) return null
    return times.length === 0 ? 0 : Math.max(...(times as number[]))
  }
  const inFlight = { count: crash?.inFlight.length ?? 0, maxSeconds: seconds(crash?.inFlight ?? []) }
  const due = { count: crash?.due.length ?? 0, maxSeconds: seconds(crash?.due ?? []) }
  check(
    'every job cut off by the crash ran again within 30 s',
    !crash || (due.maxSeconds !== null && due.maxSeconds <= 30),
    crash
      ? `${inFlight.count} running (longest ${fmt(inFlight.maxSeconds)} s after the restart), ${due.count} due (longest ${fmt(due.maxSeconds)} s)`
      : 'no crash',
  )

  const keyed = retried.filter((request) => request.key)
  const badRetries = keyed.filter((request) => request.stuck || (request.status >= 300 && !request.refusedByLaterState))
  const openClaims = await countOf(db, sql`select count(*)::int as n from idempotency_keys where status_code is null`)
  check(
    'a retried Idempotency-Key gets the stored result or the work done once',
    badRetries.length === 0 && openClaims === 0,
    `${keyed.length} keyed requests retried: ${keyed.filter((request) => request.replayed).length} replayed, ${keyed.filter((request) => !request.replayed && request.status < 300).length} done on retry, ${keyed.filter((request) => request.refusedByLaterState).length} refused as a timer had moved on` +
      (badRetries.length
        ? `; ${badRetries.map((request) => `${request.label} ${request.stuck ? 'stuck in progress' : `${request.status} ${request.code}`}`).join(', ')}`
        : '') +
      (openClaims ? `; ${openClaims} keys left in progress` : ''),
  )

  const settleSeconds = crash?.readyAt ? await lastWorkSeconds(database, crash.readyAt) : null
  if (inspections > 1) run.log(`looked at the queue ${inspections} times before it was quiet`)
  return {
    point: run.crashPoint,
    sales: sales.length,
    crashedAt: crash?.point,
    restartSeconds: crash?.readyAt ? (crash.readyAt - crash.at) / 1000 : null,
    settleSeconds,
    inFlightJobs: inFlight,
    dueJobs: due,
    retriedRequests: retried,
    checks,
  }
}

/**
 * The partner's side (issue 35): each event the engine wrote reached the
 * receiver, verified with the endpoint's secret; the first arrival of each
 * came in its transaction's order; and no event came twice except those a
 * crash cut off after the receiver's answer (at most one per delivery job
 * running at the crash: at least once, never lost).
 */
async function partnerWebhookCheck(database: Database, run: FinishedRun): Promise<[boolean, string]> {
  const events = await database.db.selectFrom('partner_events').select(['id', 'transaction_id', 'sequence']).execute()
  const undelivered = await countOf(database.db, sql`select count(*)::int as n from webhook_deliveries where status <> 'delivered'`)
  const received = run.partnerWebhooks
  const arrived = new Set(received.map((webhook) => webhook.id))
  const lost = events.filter((event) => !arrived.has(event.id))
  const unverified = received.filter((webhook) => !webhook.verified)
  const lastSequence = new Map<string, number>()
  const firstArrivals = received.filter((webhook, index) => received.findIndex((other) => other.id === webhook.id) === index)
  const outOfOrder = firstArrivals.filter((webhook) => {
    const before = lastSequence.get(webhook.transactionId) ?? 0
    lastSequence.set(webhook.transactionId, webhook.sequence)
    return webhook.sequence !== before + 1
  })
  const twice = received.length - firstArrivals.length
  const cutOff = run.crash?.inFlight.filter((job) => job.name === 'partner-webhooks').length ?? 0
  const ok =
    events.length > 0 && undelivered === 0 && lost.length === 0 && unverified.length === 0 && outOfOrder.length === 0 && twice <= cutOff
  return [
    ok,
    `${events.length} events, ${undelivered} deliveries not done, ${lost.length} never arrived, ${unverified.length} unverified, ` +
      `${outOfOrder.length} out of order, ${twice} twice (${cutOff} delivery jobs were running at the crash)`,
  ]
}

function fmt(value: number | null): string {
  return value === null ? 'never' : value.toFixed(1)
}
