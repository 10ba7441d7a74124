import { errorStatus } from '@pactum/contracts/errors'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../apps/server/src/db/schema.ts'
import type { Answer } from './client.ts'
import type { Sale } from './sale.ts'

/*
 * What `npm run bench:conflicts` checks once every job has drained: each
 * sale at one end its ledger and the provider agree with, and every answer
 * a success or a documented refusal.
 */

export interface Failure {
  check: string
  saleId?: string
  detail: string
}

/** Statuses a sale may not rest in once every job has run: something is still to happen to it. */
const moving = new Set(['cancelled_with_payment', 'cancelled_with_deposit', 'complaint_period_ended', 'tracked'])
/** The escrow is settled (a release or a refund entry was written). */
const resolved = new Set(['funds_released', 'payment_refunded', 'cancelled_with_payment', 'cancelled_with_deposit', 'deposit_refunded'])

type Row = Awaited<ReturnType<typeof loadRow>>

function loadRow(db: Kysely<Database>, id: string) {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** What the ledger must say for a sale in its status, worked out from its terms (DESIGN §2 "Who gets what"). */
export function expectedMoney(row: Row): { held: number; released: number; refunded: number; escrow: number } {
  let held: number
  let released = 0
  let refunded = 0
  if (row.type === 'online') {
    held = row.paid ? row.price + row.charge : 0
    if (row.status === 'funds_released') released = row.price - row.charge_seller
    if (row.status === 'payment_refunded' || row.status === 'cancelled_with_payment') refunded = held
  } else {
    const remainderPaid = row.remainder_paid !== null
    const remainder = remainderPaid ? (row.total_price ?? 0) - row.price : 0
    held = (row.deposit_paid ? row.price + row.charge : 0) + (remainderPaid ? remainder + (row.remainder_charge ?? 0) : 0)
    if (row.status === 'funds_released')
      released = row.price - row.charge_seller + (remainderPaid ? remainder - (row.remainder_charge_seller ?? 0) : 0)
    if (row.status === 'payment_refunded') refunded = held
    // A cancellation after the deposit returns it less its fee.
    if (row.status === 'cancelled_with_deposit' || row.status === 'deposit_refunded') refunded = row.price
  }
  return { held, released, refunded, escrow: resolved.has(row.status) ? 0 : held }
}

export interface SaleOutcome {
  status: string
  /** The first state change after the race began: which request (or timer, or webhook) won. */
  decidedBy: string
}

export async function checkSale(
  db: Kysely<Database>,
  sale: Sale,
  answers: Answer[],
  now: Date,
): Promise<{ outcome: SaleOutcome; failures: Failure[] }> {
  const failures: Failure[] = []
  const fail = (check: string, detail: string) => failures.push({ check, saleId: sale.id, detail })
  const row = await loadRow(db, sale.id)

  // One end, and one the race allows.
  if (!sale.kind.ends.includes(row.status)) fail('end', `${sale.kind.name} ended ${row.status}, not one of ${sale.kind.ends.join('/')}`)
  if (moving.has(row.status) || row.is_payment_in_progress)
    fail('stuck', `still ${row.status}${row.is_payment_in_progress ? ' with a payment in progress' : ''} after every job ran`)
  if (
    row.complaint_period_deadline &&
    row.complaint_period_deadline.getTime() < now.getTime() - 10_000 &&
    ['delivered', 'seller_handover_confirmed', 'buyer_handover_confirmed'].includes(row.status)
  ) {
    if (row.status !== 'buyer_handover_confirmed' || !row.seller_confirms_handover)
      fail('stuck', `${row.status} with its complaint window over since ${row.complaint_period_deadline.toISOString()}`)
  }

  // The ledger, the transaction row and the status agree.
  const postings = await db
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
    .select(['e.id as entry', 'e.kind', 'p.account', 'p.amount'])
    .where('e.transaction_id', '=', sale.id)
    .execute()
  const escrowAccount = `escrow:${sale.id}`
  const sum = (rows: typeof postings) => rows.reduce((total, posting) => total + Number(posting.amount), 0)
  const ledger = {
    held: sum(postings.filter((p) => p.kind === 'hold' && p.account === escrowAccount)),
    released: sum(postings.filter((p) => p.kind === 'release' && p.account.startsWith('seller:'))),
    refunded: sum(postings.filter((p) => p.kind === 'refund' && p.account.startsWith('buyer_refund:'))),
    escrow: sum(postings.filter((p) => p.account === escrowAccount)),
  }
  const resolutions = new Set(postings.filter((p) => p.kind === 'release' || p.kind === 'refund').map((p) => p.entry)).size
  const expected = expectedMoney(row)
  const shown = (money: typeof expected) =>
    `held ${money.held}, released ${money.released}, refunded ${money.refunded}, escrow ${money.escrow}`
  if (shown(ledger) !== shown(expected)) fail('ledger', `${row.status}: ledger ${shown(ledger)}; expected ${shown(expected)}`)
  // Money sent straight back without being held is on the row's refunded amount too (docs/decisions/007-every-refund-is-on-the-sale.md "Every refund is on the sale").
  const returned = sum(postings.filter((p) => p.kind === 'refund_unheld' && p.account.startsWith('buyer_refund:')))
  const onRow = { held: row.amount_held, released: row.amount_released, refunded: row.amount_refunded - returned, escrow: expected.escrow }
  if (shown(onRow) !== shown(expected)) fail('ledger', `${row.status}: row ${shown(onRow)}; expected ${shown(expected)}`)
  if (resolutions !== (resolved.has(row.status) ? 1 : 0)) fail('ledger', `${row.status} with ${resolutions} release/refund entries`)

  // The provider moved exactly what the books say: at most one transfer, of
  // the seller's share; refunds never above a payment, and together what
  // was charged but never held (each on the sale) plus what the ledger refunded.
  const intents = await db
    .selectFrom('sandbox_payment_intents')
    .select(['id', 'amount', 'status'])
    .where('transaction_id', '=', sale.id)
    .execute()
  const charged = intents.filter((intent) => intent.status === 'succeeded').reduce((total, intent) => total + intent.amount, 0)
  const refunds =
    intents.length === 0
      ? []
      : await db
          .selectFrom('sandbox_refunds')
          .select(['payment_intent_id', 'amount', 'status'])
          .where(
            'payment_intent_id',
            'in',
            intents.map((intent) => intent.id),
          )
          .execute()
  for (const intent of intents) {
    const back = refunds.filter((refund) => refund.payment_intent_id === intent.id).reduce((total, refund) => total + refund.amount, 0)
    if (back > (intent.status === 'succeeded' ? intent.amount : 0))
      fail('provider', `${intent.id} (${intent.status}, ${intent.amount}) refunded ${back}`)
    if (intent.status === 'processing') fail('stuck', `payment ${intent.id} still processing at the provider`)
  }
  if (refunds.some((refund) => refund.status !== 'succeeded'))
    fail('stuck', `refunds not settled: ${refunds.map((refund) => refund.status).join(', ')}`)
  const refundedAtProvider = refunds.reduce((total, refund) => total + refund.amount, 0)
  if (refundedAtProvider !== charged - expected.held + expected.refunded) {
    fail(
      'provider',
      `charged ${charged}, held ${expected.held}, ledger refunded ${expected.refunded}, but the provider refunded ${refundedAtProvider}`,
    )
  }
  if (returned !== charged - expected.held)
    fail('ledger', `charged ${charged} and held ${expected.held}, but the sale records ${returned} sent back unheld`)
  const transfers = await db.selectFrom('sandbox_transfers').select('amount').where('transaction_id', '=', sale.id).execute()
  if (transfers.length > 1) fail('provider', `${transfers.length} transfers`)
  const transferred = transfers.reduce((total, transfer) => total + transfer.amount, 0)
  if (transferred !== expected.released) fail('provider', `transferred ${transferred}, the seller's share is ${expected.released}`)

  // Every answer told the client a state the transaction really was in.
  const audit = await db
    .selectFrom('transaction_events')
    .select(['event', 'actor_kind', 'from_status', 'to_status', 'created_at'])
    .where('transaction_id', '=', sale.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const passed = new Set(audit.flatMap((event) => [event.from_status, event.to_status]))
  for (const answer of answers) {
    if (answer.reportedStatus && answer.route.startsWith('POST /api/') && !passed.has(answer.reportedStatus)) {
      fail(
        'answer',
        `${answer.label} answered ${answer.status} ${answer.code ?? ''} naming status ${answer.reportedStatus}, a state the sale never was in`,
      )
    }
  }

  const startedAt = sale.raceStartedAt?.getTime() ?? 0
  const decisive = audit.find((event) => event.created_at.getTime() >= startedAt - 1 && event.from_status !== event.to_status)
  return { outcome: { status: row.status, decidedBy: decisive ? `${decisive.actor_kind} ${decisive.event}` : 'nothing' }, failures }
}

/** Statuses each documented route may answer, from the server's own OpenAPI document. */
export type DocumentedStatuses = Map<string, Set<number>>

export function documentedStatuses(openapi: {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>
}): DocumentedStatuses {
  const documented: DocumentedStatuses = new Map()
  for (const [path, operations] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      documented.set(`${method.toUpperCase()} ${path}`, new Set(Object.keys(operation.responses ?? {}).map(Number)))
    }
  }
  return documented
}

/**
 * Each answer: no 5xx, no dropped connection; a refusal carries a code of
 * the documented vocabulary with that code's status, on a status the route
 * documents; a provider webhook is always taken (2xx).
 */
export function checkAnswers(answers: Answer[], documented: DocumentedStatuses): Failure[] {
  const failures: Failure[] = []
  const table = errorStatus as Record<string, number>
  for (const answer of answers) {
    const fail = (check: string, detail: string) =>
      failures.push({ check, saleId: answer.saleId, detail: `${answer.phase} ${answer.label} (${answer.route}): ${detail}` })
    if (answer.networkError) {
      fail('answer', `no answer: ${answer.networkError}`)
      continue
    }
    if (answer.status >= 500) fail('5xx', `${answer.status} ${answer.code ?? ''} ${JSON.stringify(answer.body)}`)
    else if (answer.route === 'POST /webhooks/sandbox' && answer.status !== 200)
      fail('answer', `webhook refused with ${answer.status} ${answer.code}`)
    else if (answer.status >= 400) {
      if (!answer.code || table[answer.code] === undefined) fail('undocumented', `${answer.status} with code ${answer.code ?? '(none)'}`)
      else if (table[answer.code] !== answer.status)
        fail('undocumented', `${answer.code} answered ${answer.status}, documented as ${table[answer.code]}`)
      const statuses = documented.get(answer.route)
      if (statuses && !statuses.has(answer.status))
        fail('undocumented', `${answer.status} ${answer.code} is not among the route's documented answers (${[...statuses].join(', ')})`)
    }
  }
  return failures
}

/** Work still to do: provider calls, e-mails, due jobs, refunds and webhooks at the sandbox, sales on their way somewhere. */
export async function pendingWork(db: Kysely<Database>, saleIds: string[]): Promise<Record<string, number>> {
  const { rows } = await sql<Record<string, number | string>>`
    select
      (select count(*) from outbox where status <> 'sent') as "transfers/refunds to send",
      (select count(*) from notifications where status <> 'sent') as "e-mails unsent",
      (select count(*) from pgboss.job where state in ('created', 'retry', 'active') and start_after < now() + interval '60 seconds') as "jobs due",
      (select count(*) from sandbox_refunds where status = 'pending') as "refunds pending at the provider",
      (select count(*) from sandbox_payment_intents where status = 'processing') as "payments processing at the provider",
      (select count(*) from sandbox_webhook_deliveries where delivered_at is null) as "webhooks undelivered",
      (select count(*) from transactions where id = any(${saleIds}::uuid[])
         and (status in ('cancelled_with_payment', 'cancelled_with_deposit', 'complaint_period_ended', 'tracked') or is_payment_in_progress)) as "sales on their way"
  `.execute(db)
  return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([name, count]) => [name, Number(count)]))
}

/** Jobs that threw (and were retried) or gave up, by queue, with their last error. */
export async function troubledJobs(db: Kysely<Database>): Promise<Array<{ name: string; state: string; retries: number; error: string }>> {
  const { rows } = await sql<{ name: string; state: string; retry_count: number; output: unknown }>`
    select name, state, retry_count, output from pgboss.job where retry_count > 0 or state = 'failed' order by name
  `.execute(db)
  return rows.map((row) => ({
    name: row.name,
    state: row.state,
    retries: Number(row.retry_count),
    error:
      typeof row.output === 'object' && row.output !== null && 'message' in row.output
        ? String((row.output as { message: unknown }).message)
        : JSON.stringify(row.output),
  }))
}
