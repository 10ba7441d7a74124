import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import type { Database } from '../db/database.ts'
import { verifyLedger } from '../ledger/verify-ledger.ts'
import { mintAccessToken, readSigningKeyFile } from '../modules/sign-in/oidc/token-minter.ts'
import { type CrashEngine, freePort, ServerProcess } from './crash-server.ts'

/**
 * One crash scenario (issue 10): the real server in a child process with a
 * crash point armed, a burst of sales driven over HTTP the way a client
 * drives them (with Idempotency-Keys, retrying what the crash cut off), a
 * restart without the crash point, and then the books: nothing lost, nothing
 * doubled, nothing stuck.
 */

/** How each sale of the burst runs its course; sale i follows plan i mod 6. */
export const salePlans = ['timer-release', 'buyer-release', 'carrier-release', 'seller-refund', 'complaint-refund', 'buyer-cancel'] as const
export type SalePlan = (typeof salePlans)[number]

/** The queues whose jobs carry the burst's work (timers, provider calls, webhooks, e-mails, carrier news). */
const workQueues = [
  'transaction-timer',
  'outbox-send',
  'send-notification',
  'sandbox-deliver-webhook',
  'sandbox-settle-payment',
  'sandbox-settle-refund',
  'sandbox-tracking-update',
]

export interface CrashRunOptions {
  engine: CrashEngine
  /** `name[:n]`, as CRASH_POINT takes it. */
  crashPoint: string
  sales: number
  plans?: readonly SalePlan[]
  /** Settings for the server beside crashRunTimings (a shorter complaint window for the test). */
  env?: Record<string, string>
  /** Sale i starts i × this many ms after the first (default 400), so that the crash lands among sales at every step. */
  staggerMs?: number
  /** How long a client keeps retrying a request answered `idempotency_request_in_progress` (default 90 s). */
  inProgressRetrySeconds?: number
  /**
   * When jobs were running in the dead process, the first look at the queue
   * (on PGlite, with the server stopped) waits this long after the restart
   * (default 40 s, past the 30 s the jobs have), so that looking does not
   * delay what it measures. The test, which does not time, looks at once.
   */
  firstLookSeconds?: number
  log?: (line: string) => void
}

export interface Check {
  name: string
  ok: boolean
  detail: string
}

export interface CrashRunReport {
  point: string
  sales: number
  /** Where the server died, if it reached its crash point. */
  crashedAt: string | undefined
  /** From the crash until the restarted server answered. */
  restartSeconds: number | null
  /** From the restart until the last piece of the burst's work was done (database timestamps). */
  settleSeconds: number | null
  /** Jobs running in the dead process, and the longest any took to run again to completion after the restart. */
  inFlightJobs: { count: number; maxSeconds: number | null }
  /** Every job due but unfinished at the crash (those running included). */
  dueJobs: { count: number; maxSeconds: number | null }
  /** Client requests the crash cut off, and what their retries got. */
  retriedRequests: RetriedRequest[]
  checks: Check[]
}

export interface RetriedRequest {
  label: string
  key: string | null
  status: number
  code: string | null
  replayed: boolean
  /** Answered `idempotency_request_in_progress` until the client gave up. */
  stuck: boolean
  /**
   * A refusal that means the sale went the same way by another path: the
   * first attempt never committed, and by the retry a timer had moved on
   * (a complaint after a restart longer than the complaint window).
   */
  refusedByLaterState: boolean
}

/** What a party's action answers once the complaint window's timer has released the money. */
const timerRefusals = ['complaint_period_expired', 'funds_already_released']

interface Answer {
  status: number
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the API, read field by field
  interrupted: boolean
  stuck: boolean
}

type Party = 'seller' | 'buyer' | 'admin' | null

interface Sale {
  index: number
  plan: SalePlan
  id?: string
  /** The status the sale must end in, given what the server answered its client. */
  expected?: string
}

class StepFailed extends Error {}

export async function runCrashScenario(options: CrashRunOptions): Promise<CrashRunReport> {
  const run = new CrashRun(options)
  try {
    return await run.execute()
  } finally {
    await run.shutdown()
  }
}

class CrashRun {
  readonly #options: CrashRunOptions
  readonly #log: (line: string) => void
  readonly #runId = Math.random().toString(36).slice(2, 8)
  #port = 0
  #runs = 0
  #current!: Promise<ServerProcess>
  #server: ServerProcess | undefined
  #stopping = false
  #crash: { at: number; point: string | undefined; inFlight: JobRow[]; due: JobRow[]; readyAt?: number } | undefined
  #restartSettled: Promise<void> = Promise.resolve()
  #tokens = new Map<string, string>()
  readonly #retried: RetriedRequest[] = []
  readonly #failures: string[] = []

  constructor(options: CrashRunOptions) {
    this.#options = options
    this.#log = options.log ?? (() => undefined)
  }

  async execute(): Promise<CrashRunReport> {
    const { engine, crashPoint } = this.#options
    this.#port = await freePort()
    this.#current = this.#startServer(crashPoint)
    await this.#current

    const plans = this.#options.plans ?? salePlans
    const sales: Sale[] = Array.from({ length: this.#options.sales }, (_, index) => ({ index, plan: plans[index % plans.length]! }))
    const started = Date.now()
    await Promise.all(
      sales.map((sale) =>
        sleep(sale.index * (this.#options.staggerMs ?? 400))
          .then(() => this.#drive(sale))
          .catch((error: unknown) => {
          this.#failures.push(`sale ${sale.index} (${sale.plan}): ${error instanceof Error ? error.message : String(error)}`)
        }),
      ),
    )
    this.#log(`burst driven in ${((Date.now() - started) / 1000).toFixed(1)} s${this.#crash ? '' : ' (no crash yet)'}`)

    const settled = await this.#waitForStates(sales)
    const ledger = await this.#call('admin', 'GET', '/api/v1/admin/ledger/verify', undefined, { label: 'ledger verify' })
    await this.#restartSettled
    const inspections = await this.#stopWhenQuiet()
    const database = await engine.open()
    try {
      return await this.#report(database, sales, settled, ledger, inspections)
    } finally {
      await database.close()
    }
  }

  async shutdown(): Promise<void> {
    this.#stopping = true
    const server = this.#server
    if (server) await server.stop().catch(() => server.kill())
  }

  // ── the server ────────────────────────────────────────────────────────

  async #startServer(crashPoint?: string): Promise<ServerProcess> {
    const server = await ServerProcess.start(this.#options.engine, {
      port: this.#port,
      run: this.#runs++,
      ...(crashPoint ? { crashPoint } : {}),
      ...(this.#options.env ? { env: this.#options.env } : {}),
    })
    this.#server = server
    if (this.#tokens.size === 0) await this.#mintTokens()
    void server.exited.then((exit) => {
      if (this.#stopping || this.#server !== server) return
      // Registered before any request's own wait on this exit, so a failed request finds the restart under way.
      this.#current = this.#afterCrash(server, exit)
      this.#restartSettled = this.#current.then(() => undefined)
    })
    return server
  }

  async #afterCrash(server: ServerProcess, exit: { code: number | null; signal: string | null }): Promise<ServerProcess> {
    const at = Date.now()
    const point = await server.crashPointReached()
    this.#log(`server died (${exit.signal ?? exit.code})${point ? ` at ${point}` : ''}`)
    if (!point) throw new Error(`the server died without reaching a crash point (${exit.signal ?? exit.code}); see ${server.logFile}`)
    const database = await this.#options.engine.open()
    let jobs: JobRow[]
    try {
      jobs = await unfinishedJobs(database)
    } finally {
      await database.close()
    }
    this.#crash = { at, point, inFlight: jobs.filter((job) => job.state === 'active'), due: jobs }
    const restarted = await this.#startServer()
    this.#crash.readyAt = Date.now()
    this.#log(`restarted in ${((this.#crash.readyAt - at) / 1000).toFixed(1)} s; ${this.#crash.inFlight.length} jobs were running, ${jobs.length} due`)
    return restarted
  }

  async #mintTokens(): Promise<void> {
    const key = await readSigningKeyFile(this.#options.engine.dataDir)
    const issuer = `http://127.0.0.1:${this.#port}/oidc`
    const mint = (email: string, admin = false) =>
      mintAccessToken({ privateSigningKey: key, issuer, audience: 'pactum-api', clientId: 'pactum-app', email, admin, ttlSeconds: 3600 })
    this.#tokens.set('admin', await mint('admin@crash.pactum.test', true))
    for (let index = 0; index < this.#options.sales; index++) {
      this.#tokens.set(`seller-${index}`, await mint(`seller-${index}@crash.pactum.test`))
      this.#tokens.set(`buyer-${index}`, await mint(`buyer-${index}@crash.pactum.test`))
    }
  }

  /**
   * One client request, sent again (with the same Idempotency-Key) when the
   * crash cuts it off, and again after `Retry-After` while the server says
   * the key's first request is still in progress.
   */
  async #call(
    who: string | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body: object | undefined,
    options: { label: string; key?: string; alsoFine?: string[] },
  ): Promise<Answer> {
    let interrupted = false
    let inProgressSince: number | undefined
    for (let attempt = 0; ; attempt++) {
      const server = await this.#current
      let response: Response
      try {
        response = await fetch(`${server.baseUrl}${url}`, {
          method,
          headers: {
            ...(who ? { authorization: `Bearer ${this.#tokens.get(who)}` } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(options.key ? { 'idempotency-key': options.key } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(30_000),
        })
      } catch (error) {
        // Cut off: by the crash if the process is gone (or goes within a few seconds).
        const died = await Promise.race([server.exited.then(() => true), sleep(5000).then(() => false)])
        if (!died || attempt > 5) throw error
        interrupted = true
        continue
      }
      const text = await response.text()
      const json = text ? JSON.parse(text) : undefined
      const code = typeof json?.code === 'string' ? (json.code as string) : null
      if (response.status === 409 && code === 'idempotency_request_in_progress') {
        inProgressSince ??= Date.now()
        if (Date.now() - inProgressSince < (this.#options.inProgressRetrySeconds ?? 90) * 1000) {
          await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000)
          continue
        }
      }
      const stuck = response.status === 409 && code === 'idempotency_request_in_progress'
      if (interrupted || inProgressSince !== undefined) {
        this.#retried.push({
          label: options.label,
          key: options.key ?? null,
          status: response.status,
          code,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          stuck,
          refusedByLaterState: response.status === 409 && code !== null && (options.alsoFine ?? []).includes(code) && timerRefusals.includes(code),
        })
      }
      return { status: response.status, body: json, interrupted: interrupted || inProgressSince !== undefined, stuck }
    }
  }

  // ── the client ────────────────────────────────────────────────────────

  async #drive(sale: Sale): Promise<void> {
    const seller = `seller-${sale.index}`
    const buyer = `buyer-${sale.index}`
    const key = (step: string) => `crash-${this.#runId}-${sale.index}-${step}`
    const label = (step: string) => `sale ${sale.index} ${step}`
    const price = 1000 + 137 * sale.index

    const quote = await this.#must(null, 'GET', `/api/v1/charge?price=${price}&currency=eur&payment_method=card`, undefined, { label: label('quote') })
    const created = await this.#must(
      seller,
      'POST',
      '/api/v1/me/transactions',
      { role: 'seller', price, currency: 'eur', description: `Crash-harness sale ${sale.index}`, payment_method: 'card', charge: quote.charge, charge_calculator_version: quote.charge_calculator_version },
      { label: label('create'), key: key('create') },
    )
    sale.id = created.id as string
    const id = sale.id
    // Joining takes no Idempotency-Key: a join the crash cut off is checked by reading the transaction.
    await this.#step(buyer, 'PUT', `/api/v1/transactions?join_code=${created.join_code}`, undefined, { label: label('join') }, async () => {
      const view = await this.#call(buyer, 'GET', `/api/v1/transactions/${id}`, undefined, { label: label('read') })
      return view.status === 200 && view.body.role === 'buyer'
    })
    if (sale.plan === 'buyer-cancel') {
      await this.#keyed(buyer, `/api/v1/transactions/${id}/cancel`, undefined, key('cancel'), label('cancel'))
      sale.expected = 'cancelled'
      return
    }
    const payment = await this.#keyed(buyer, `/api/v1/transactions/${id}/pay`, undefined, key('pay'), label('pay'))
    await this.#step(
      null,
      'POST',
      `/sandbox/v1/payment_intents/${payment.payment_intent_id}/confirm`,
      { client_secret: payment.client_secret, card_number: '4242424242424242' },
      { label: label('card') },
      // The browser's confirmation takes no key either; a second one is refused by a succeeded intent.
      async () => true,
    )
    await this.#keyed(buyer, `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: payment.payment_intent_id }, key('confirm-payment'), label('confirm_payment'), [
      'already_paid',
    ])
    if (sale.plan === 'seller-refund') {
      await this.#keyed(seller, `/api/v1/transactions/${id}/cancel`, undefined, key('cancel'), label('cancel'))
      sale.expected = 'payment_refunded'
      return
    }
    const code = sale.plan === 'carrier-release' ? `CRASH${sale.index}X` : `CRASH${sale.index}LOST`
    await this.#keyed(seller, `/api/v1/transactions/${id}/track`, { carrier: 'dhl', tracking_code: code }, key('track'), label('track'))
    sale.expected = 'funds_released'
    if (sale.plan === 'carrier-release') return
    await this.#keyed(buyer, `/api/v1/transactions/${id}/confirm_delivery`, undefined, key('confirm-delivery'), label('confirm_delivery'))
    if (sale.plan === 'buyer-release') {
      // A restart longer than the complaint window lets the timer release first: the same end.
      await this.#keyed(buyer, `/api/v1/transactions/${id}/end_complaint_period`, undefined, key('end'), label('end_complaint_period'), [
        'complaint_period_expired',
        'funds_already_released',
      ])
    }
    if (sale.plan === 'complaint-refund') {
      const complaint = await this.#keyed(
        buyer,
        `/api/v1/transactions/${id}/complain_with_description`,
        { description: 'It arrived broken' },
        key('complain'),
        label('complain'),
        ['complaint_period_expired', 'funds_already_released'],
      )
      if (complaint.status !== 'complained') return
      await this.#keyed(seller, `/api/v1/transactions/${id}/accept_complaint`, undefined, key('accept'), label('accept_complaint'))
      sale.expected = 'payment_refunded'
    }
  }

  /** A request that must succeed. */
  async #must(who: Party | string, method: 'GET' | 'POST' | 'PUT', url: string, body: object | undefined, options: { label: string; key?: string }) {
    const answer = await this.#call(who, method, url, body, options)
    if (answer.status >= 300) throw new StepFailed(`${options.label} answered ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }

  /** A request without an Idempotency-Key: when the crash cut it off, `done()` tells whether it had taken effect. */
  async #step(who: string | null, method: 'POST' | 'PUT', url: string, body: object | undefined, options: { label: string }, done: () => Promise<boolean>) {
    const answer = await this.#call(who, method, url, body, options)
    if (answer.status < 300) return answer.body
    if (answer.interrupted && (await done())) return undefined
    throw new StepFailed(`${options.label} answered ${answer.status} ${JSON.stringify(answer.body)}`)
  }

  /**
   * A money-moving POST with its Idempotency-Key. `alsoFine` lists refusals
   * that only mean the sale went the same way by another path (a timer came
   * first). A key left in progress for good is recorded (the check fails)
   * and the client carries on with a fresh key, so the rest of the burst
   * still runs.
   */
  async #keyed(who: string, url: string, body: object | undefined, key: string, label: string, alsoFine: string[] = []) {
    let answer = await this.#call(who, 'POST', url, body, { label, key, alsoFine })
    if (answer.stuck) answer = await this.#call(who, 'POST', url, body, { label: `${label} (fresh key)`, key: `${key}-fresh`, alsoFine })
    if (answer.status < 300) return answer.body
    if (answer.status === 409 && alsoFine.includes(answer.body?.code)) return { status: answer.body?.code }
    throw new StepFailed(`${label} answered ${answer.status} ${JSON.stringify(answer.body)}`)
  }

  // ── settling ──────────────────────────────────────────────────────────

  /** Until every sale shows its expected status to the admin (up to 3 minutes). */
  async #waitForStates(sales: Sale[]): Promise<boolean> {
    const deadline = Date.now() + 180_000
    while (Date.now() < deadline) {
      const answer = await this.#call('admin', 'GET', '/api/v1/admin/transactions?limit=1000', undefined, { label: 'admin list' })
      if (answer.status === 200) {
        const status = new Map((answer.body as { id: string; status: string }[]).map((row) => [row.id, row.status]))
        if (sales.every((sale) => !sale.id || !sale.expected || status.get(sale.id) === sale.expected)) return true
      }
      await sleep(500)
    }
    return false
  }

  /**
   * Stops the server gracefully once nothing due is left. On PGlite the
   * queue can be read only with the server down, so: stop, look, and if
   * work is still due, start again and look later.
   */
  async #stopWhenQuiet(): Promise<number> {
    const crash = this.#crash
    const firstLook = (this.#options.firstLookSeconds ?? 40) * 1000
    if (crash?.readyAt && crash.inFlight.length > 0) await sleep(Math.max(0, crash.readyAt + firstLook - Date.now()))
    await this.#quietMail()
    for (let inspection = 1; ; inspection++) {
      this.#stopping = true
      await this.#server?.stop()
      this.#server = undefined
      const database = await this.#options.engine.open()
      let pending: JobRow[]
      try {
        pending = await unfinishedJobs(database)
      } finally {
        await database.close()
      }
      if (pending.length === 0 || inspection >= 8) return inspection
      this.#log(`still due: ${pending.map((job) => `${job.name}/${job.state}`).join(', ')}; running on`)
      this.#stopping = false
      this.#current = this.#startServer()
      await this.#current
      await sleep(5000)
    }
  }

  /** Until no new e-mail has been written for 2 s. */
  async #quietMail(): Promise<void> {
    let last = -1
    for (let round = 0; round < 60; round++) {
      const count = (await mailFiles(this.#options.engine.dataDir)).length
      if (count === last) return
      last = count
      await sleep(2000)
    }
  }

  // ── the books ─────────────────────────────────────────────────────────

  async #report(database: Database, sales: Sale[], settled: boolean, ledger: Answer, inspections: number): Promise<CrashRunReport> {
    const { db } = database
    const crash = this.#crash
    const checks: Check[] = []
    const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail })
    const point = this.#options.crashPoint.split(':')[0]
    check('crashed at the point', crash?.point === point, crash ? `died at ${crash.point}` : 'the point was never reached')
    check('client burst ran', this.#failures.length === 0, this.#failures.join('; ') || `${sales.length} sales driven`)

    const rows = await db.selectFrom('transactions').select(['id', 'status', 'price', 'charge', 'amount_released', 'amount_refunded']).execute()
    const byId = new Map(rows.map((row) => [row.id, row]))
    const wrongState = sales.filter((sale) => !sale.id || byId.get(sale.id)?.status !== sale.expected)
    check(
      'every sale in its expected state',
      settled && wrongState.length === 0,
      wrongState.map((sale) => `sale ${sale.index} (${sale.plan}) is ${sale.id ? byId.get(sale.id)?.status : 'not created'}, expected ${sale.expected}`).join('; ') ||
        `${sales.length} sales settled`,
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
      .select(['i.id', 'i.amount', sql<number>`sum(r.amount)`.as('refunded'), sql<number>`sum(case when r.status = 'pending' then 1 else 0 end)`.as('pending')])
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
      if (net !== expectedNet) moneyProblems.push(`sale ${sale.index} (${row.status}): the buyer is out ${net} at the provider, expected ${expectedNet}`)
    }
    for (const refund of refunds) {
      if (Number(refund.refunded) > refund.amount) moneyProblems.push(`intent ${refund.id}: refunded ${refund.refunded} of ${refund.amount}`)
      if (Number(refund.pending) > 0) moneyProblems.push(`intent ${refund.id}: a refund still pending`)
    }
    check('no transfer or refund doubled or lost at the provider', moneyProblems.length === 0, moneyProblems.join('; ') || `${transfers.length} transfers, ${refunds.length} refunded payments`)

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
    check('every outbox row sent, every webhook delivered and applied', outboxLeft + eventsLeft + deliveriesLeft === 0, `${outboxLeft} outbox rows unsent, ${deliveriesLeft} webhooks undelivered, ${eventsLeft} unprocessed`)

    const unsent = await countOf(db, sql`select count(*)::int as n from notifications where status <> 'sent'`)
    const sentIds = new Set((await db.selectFrom('notifications').select('mail_id').execute()).map((row) => row.mail_id))
    const files = await mailFiles(this.#options.engine.dataDir)
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

    const failedJobs = await sql<{ name: string; n: number }>`
      select name, count(*)::int as n from pgboss.job where state = 'failed' and name = any(${workQueues}) group by name`.execute(db)
    check('no job given up', failedJobs.rows.length === 0, failedJobs.rows.map((row) => `${row.name} ×${row.n}`).join(', ') || 'none failed for good')

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
      crash ? `${inFlight.count} running (longest ${fmt(inFlight.maxSeconds)} s after the restart), ${due.count} due (longest ${fmt(due.maxSeconds)} s)` : 'no crash',
    )

    const keyed = this.#retried.filter((request) => request.key)
    const badRetries = keyed.filter((request) => request.stuck || (request.status >= 300 && !request.refusedByLaterState))
    const openClaims = await countOf(db, sql`select count(*)::int as n from idempotency_keys where status_code is null`)
    check(
      'a retried Idempotency-Key gets the stored result or the work done once',
      badRetries.length === 0 && openClaims === 0,
      `${keyed.length} keyed requests retried: ${keyed.filter((request) => request.replayed).length} replayed, ${keyed.filter((request) => !request.replayed && request.status < 300).length} done on retry, ${keyed.filter((request) => request.refusedByLaterState).length} refused as a timer had moved on` +
        (badRetries.length ? `; ${badRetries.map((request) => `${request.label} ${request.stuck ? 'stuck in progress' : `${request.status} ${request.code}`}`).join(', ')}` : '') +
        (openClaims ? `; ${openClaims} keys left in progress` : ''),
    )

    const settleSeconds = crash?.readyAt ? await lastWorkSeconds(database, crash.readyAt) : null
    if (inspections > 1) this.#log(`looked at the queue ${inspections} times before it was quiet`)
    return {
      point: this.#options.crashPoint,
      sales: sales.length,
      crashedAt: crash?.point,
      restartSeconds: crash?.readyAt ? (crash.readyAt - crash.at) / 1000 : null,
      settleSeconds,
      inFlightJobs: inFlight,
      dueJobs: due,
      retriedRequests: this.#retried,
      checks,
    }
  }
}

interface JobRow {
  id: string
  name: string
  state: string
}

/** Jobs of the burst's queues running, or due and not yet done (a job due in an hour or a day is not the burst's). */
async function unfinishedJobs(database: Database): Promise<JobRow[]> {
  const { rows } = await sql<JobRow>`
    select id::text as id, name, state::text as state from pgboss.job
    where name = any(${workQueues})
      and (state = 'active' or (state in ('created', 'retry') and start_after < now() + interval '10 minutes'))`.execute(database.db)
  return rows
}

/** Seconds from the restart until each job completed (null if it has not). */
async function resumeTimes(database: Database, jobs: JobRow[], readyAt: number): Promise<Map<string, number | null>> {
  if (jobs.length === 0) return new Map()
  const { rows } = await sql<{ id: string; completed_on: Date | null }>`
    select id::text as id, completed_on from pgboss.job where id = any(${jobs.map((job) => job.id)}::uuid[])`.execute(database.db)
  return new Map(rows.map((row) => [row.id, row.completed_on ? Math.max(0, (new Date(row.completed_on).getTime() - readyAt) / 1000) : null]))
}

/** From the restart until the burst's last job completed. */
async function lastWorkSeconds(database: Database, readyAt: number): Promise<number | null> {
  const { rows } = await sql<{ last: Date | null }>`
    select max(completed_on) as last from pgboss.job
    where name = any(${workQueues}) and start_after < now() + interval '10 minutes'`.execute(database.db)
  const last = rows[0]?.last
  return last ? Math.max(0, (new Date(last).getTime() - readyAt) / 1000) : null
}

async function countOf(db: Database['db'], query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  const { rows } = await query.execute(db)
  return Number(rows[0]?.n ?? 0)
}

async function mailFiles(dataDir: string): Promise<string[]> {
  return (await readdir(path.join(dataDir, 'mail')).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'))
}

function fmt(value: number | null): string {
  return value === null ? 'never' : value.toFixed(1)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
