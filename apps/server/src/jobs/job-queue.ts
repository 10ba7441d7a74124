import { setImmediate, setTimeout } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import type pg from 'pg'
import { type Db, fromKysely, fromPglite, type Job, PgBoss } from 'pg-boss'
import type { Clock } from '../clock.ts'
import type { Database as DatabaseHandle } from '../db/database.ts'
import { namingPgClient } from '../db/naming-pg-client.ts'
import { answersFixedColumns } from '../db/prepared-statements.ts'
import type { Database } from '../db/schema.ts'
import { noTracing, type Tracing } from '../tracing/tracing.ts'

/**
 * Background jobs and timers (DESIGN §3 "Timers"): pg-boss on the
 * application's own database, so a job can be enqueued in the same
 * transaction as the state change that causes it (a rollback drops it), and
 * several processes share one queue (SKIP LOCKED).
 *
 * Delivery is at least once: a handler may run again after a crash or a
 * retry, and a timer may fire after the state it was meant for has moved on,
 * so every handler re-checks its row under `SELECT … FOR UPDATE` and does
 * nothing when there is nothing left to do.
 */

export interface QueueSettings {
  /** Attempts after the first; pg-boss's default is 2. */
  retryLimit?: number
  /** Seconds before the first retry (then doubled with `retryBackoff`). */
  retryDelay?: number
  retryBackoff?: boolean
  /** How long a handler may run before the job is retried, however alive its process is. */
  expireInSeconds?: number
  /**
   * How many of the queue's jobs this process runs at once (default 10):
   * fetched together in one query and run side by side, so that a thousand
   * timers due at the same moment do not wait for one another.
   */
  concurrency?: number
  /**
   * How many such fetches this process keeps going at once (pg-boss's
   * `localConcurrency`; default 1). A fetch's jobs run side by side and the
   * next fetch waits for the slowest of them, so work spaced out in time
   * (provider calls at the provider's pace) left the pace unused through
   * the tail of each fetch: another fetch's jobs fill it.
   */
  workers?: number
  /**
   * `short`: at most one job per `singletonKey` waits to run (pg-boss's
   * unique index on queued jobs); a send while one waits does nothing. Under
   * the default `standard` policy pg-boss stores the key and enforces
   * nothing. Fixed when the queue is created: pg-boss cannot change it later.
   */
  policy?: 'standard' | 'short'
  /**
   * Work that must not wait behind other work (timers that move money on a
   * deadline). While an urgent queue has a backlog in this process (its
   * latest fetch came back full), the other queues' fetched jobs wait for it
   * to clear, a limited time (giveWayLimitSeconds) so that none is starved.
   */
  urgent?: boolean
}

export interface SendOptions {
  /** When the job falls due: a date, or seconds from now on the app's clock. Due now when left out. */
  startAfter?: Date | number
  /**
   * On a `short` queue (QueueSettings.policy), a second job with the key is
   * not queued while one waits. On a `standard` queue pg-boss keeps the key
   * but refuses nothing: there it is a label, and handlers stay idempotent.
   */
  singletonKey?: string
  /**
   * The transaction to enqueue in. The job then exists only if that
   * transaction commits: this is the outbox for provider calls and timers.
   */
  db?: Transaction<Database> | Kysely<Database>
}

export interface JobContext {
  id: string
  name: string
  /** 0 on the first attempt. */
  retryCount: number
}

export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>

/** Jobs run `size` at a time by one call (see JobQueue.work). */
export interface JobGroups<T> {
  size: number
  run: (items: T[]) => Promise<void>
}

/** An urgent queue's backlog in this process: its full batches running, and when the last of them ended. */
interface UrgentBacklog {
  fetchedAt: number
  running: number
  endedAt: number | undefined
}

type JobResult = { id: string; status: 'completed' } | { id: string; status: 'failed'; output: { message: string } }

/**
 * pg-boss's adapter for the caller's database transaction, through which it
 * sends only its job insert: that text answers `select id` whatever pg-boss's
 * tables gain, so it may be named inside the transaction (prepared-statements.ts).
 */
function jobInsertsOn(db: Transaction<Database> | Kysely<Database>): Db {
  const adapter = fromKysely(db)
  return {
    executeSql(text, values) {
      answersFixedColumns(text)
      return adapter.executeSql(text, values)
    },
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}

/**
 * How a queue keeps up (issue: jobs drained about one a second). Workers are
 * woken by NOTIFY when a job is enqueued, poll every second as a floor
 * (timers fall due without a NOTIFY), and keep fetching without a pause while
 * a fetch comes back full. A running job beats every `heartbeatSeconds / 2`;
 * one whose process died stops beating and the supervisor, passing every
 * `superviseSeconds`, hands it back for a retry: a crash delays a job by
 * about heartbeat + supervise + retry delay, some 20 s, instead of the 15
 * minutes of the default expiry.
 */
const pollingIntervalSeconds = 1
const heartbeatSeconds = 10
const superviseSeconds = 5
const defaultConcurrency = 10
/**
 * The longest a non-urgent batch waits for an urgent backlog, at most a
 * third of the queue's own expiry (a job still waiting there has not started
 * its work). Ten seconds let 100,000 due releases drain first yet keep e-mails
 * and transfers moving a batch at a time (decision 125).
 */
const giveWayLimitSeconds = 10
/** A backlog not refreshed by a fetch for this long is taken as over (its worker stopped). */
const backlogStaleSeconds = 10
/**
 * How long after a full batch ends its queue's next fetch may take to come
 * back before the backlog counts as over. A worker fetches again at once
 * after a full batch, and pg-boss never calls a handler with an empty fetch:
 * a backlog that ended on a full batch (4,000 timers fetched 100 at a time)
 * would otherwise hold every other queue for backlogStaleSeconds.
 */
const nextFetchGraceMs = 1000
/** pg-boss's expiry for a queue that sets none. */
const defaultExpireInSeconds = 15 * 60
const noSuchJob = '00000000-0000-0000-0000-000000000000'

export class JobQueue {
  readonly #boss: PgBoss
  readonly #clock: Clock
  readonly #log: FastifyBaseLogger
  readonly #tracing: Tracing
  readonly #handlers = new Map<string, JobHandler<unknown>>()
  readonly #queues = new Map<string, QueueSettings>()
  readonly #groups = new Map<string, JobGroups<unknown>>()
  #working = false
  /** Batches this process's workers are running now (runDue waits for them). */
  readonly #busy = new Set<Promise<unknown>>()
  /** Each urgent queue whose latest fetch came back full, by name; removed by a fetch that came back short. */
  readonly #urgentBacklogs = new Map<string, UrgentBacklog>()

  /** True on PGlite, whose statements run on the server's own thread (queues size their batches by it). */
  readonly embedded: boolean

  private constructor(boss: PgBoss, clock: Clock, log: FastifyBaseLogger, tracing: Tracing, embedded: boolean) {
    this.embedded = embedded
    this.#boss = boss
    this.#clock = clock
    this.#log = log
    this.#tracing = tracing
  }

  /**
   * Installs or upgrades pg-boss's own schema (`pgboss`, managed by pg-boss,
   * not by our migrations) and starts maintenance. On PGlite pg-boss shares
   * the one in-process engine; on PostgreSQL it opens its own small pool,
   * plus one connection that LISTENs for new jobs.
   */
  static async start(options: {
    database: DatabaseHandle
    clock: Clock
    log: FastifyBaseLogger
    tracing?: Tracing
    /** On PostgreSQL, the most connections its pool opens (JOB_QUEUE_CONNECTIONS): 6 unless given. */
    connections?: number | undefined
    /** On PostgreSQL, the pg Client class of pg-boss's pool (naming-pg-client.ts); for tests. */
    namingClient?: typeof pg.Client
  }): Promise<JobQueue> {
    const { database, clock, log } = options
    const connection = database.pglite
      ? { db: fromPglite(database.pglite), backend: 'pglite' as const }
      : database.connectionString
        ? {
            connectionString: database.connectionString,
            max: options.connections ?? 6,
            // pg-boss passes its settings to pg's pool whole; not in its types.
            ...(database.preparedStatements === 'off' ? {} : { Client: options.namingClient ?? namingPgClient() }),
          }
        : undefined
    if (!connection) throw new Error('The job queue needs PGlite or a PostgreSQL connection string')
    const boss = new PgBoss({
      ...connection,
      application_name: 'pactum-jobs',
      superviseIntervalSeconds: superviseSeconds,
      monitorIntervalSeconds: superviseSeconds,
      // A test clock moves time by hand and runs due jobs itself (runDue):
      // a NOTIFY waking the workers behind its back would race it.
      useListenNotify: !clock.jobClock,
      ...(clock.jobClock ? { clock: clock.jobClock } : {}),
    })
    // pg-boss reports polling and maintenance failures as events; an
    // unhandled 'error' event would end the process.
    boss.on('error', (error) => log.error({ err: error }, 'job queue error'))
    boss.on('warning', (warning) => log.warn({ warning }, 'job queue warning'))
    await boss.start()
    return new JobQueue(boss, clock, log, options.tracing ?? noTracing, database.pglite !== undefined)
  }

  /**
   * Creates the queue if it is new, applies its retry settings and loads it
   * into pg-boss's cache. The cache load matters: the first `send` of an
   * uncached queue looks it up outside the caller's transaction, which on
   * PGlite (one connection, held by that transaction) waits forever.
   */
  async createQueue(name: string, settings: QueueSettings = {}): Promise<void> {
    const { concurrency: _concurrency, workers: _workers, urgent: _urgent, policy, ...retries } = settings
    const options = { ...retries, notify: true }
    await this.#boss.createQueue(name, { ...options, ...(policy ? { policy } : {}) })
    if (policy) {
      // createQueue leaves an existing queue as it is: one made under another policy would silently keep it.
      const [queue] = await this.#boss.getQueues([name])
      if (queue?.policy !== policy)
        throw new Error(`Job queue ${name} exists with policy ${queue?.policy}, not ${policy}: give it a new name`)
    }
    // Settings change with the code; the queue row may be an earlier version's.
    await this.#boss.updateQueue(name, options)
    await this.#boss.findJobs(name, { id: noSuchJob })
    this.#queues.set(name, settings)
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (!this.#queues.has(name)) throw new Error(`Job queue ${name} was not created at start-up`)
    // Always an absolute time from the app's clock, never the database's
    // now(): the two agree in production, and in tests only the app's clock moves.
    const startAfter =
      options.startAfter instanceof Date ? options.startAfter : new Date(this.#clock.now().getTime() + (options.startAfter ?? 0) * 1000)
    return this.#boss.send(name, data, {
      startAfter,
      // Per job rather than per queue: pg-boss fixes a queue's heartbeat when the queue is created.
      heartbeatSeconds,
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.db ? { db: jobInsertsOn(options.db) } : {}),
    })
  }

  /** Enqueues several jobs of one queue in one statement (each due at its `startAfter`, else now). */
  async sendMany<T extends object>(
    name: string,
    items: Array<{ data: T; startAfter?: Date }>,
    options: Pick<SendOptions, 'db'> = {},
  ): Promise<void> {
    if (!this.#queues.has(name)) throw new Error(`Job queue ${name} was not created at start-up`)
    if (items.length === 0) return
    const now = this.#clock.now()
    await this.#boss.insert(
      name,
      items.map(({ data, startAfter }) => ({ data, startAfter: startAfter ?? now, heartbeatSeconds })),
      options.db ? { db: jobInsertsOn(options.db), returnId: false } : { returnId: false },
    )
  }

  /**
   * Runs `handler` for the queue's jobs in this process, up to the queue's
   * concurrency at once, from `startWorkers()` on. Each job settles on its
   * own: a throw retries that job, not the others fetched with it.
   *
   * With `groups`, the jobs fetched together are run `size` at a time
   * through `groups.run` (in one database transaction, say: one commit for
   * many jobs); a group that throws is run again job by job through
   * `handler`, so that one bad job holds back nobody else.
   */
  async work<T>(name: string, handler: JobHandler<T>, options: { groups?: JobGroups<T> } = {}): Promise<void> {
    if (!this.#queues.has(name)) throw new Error(`Job queue ${name} was not created at start-up`)
    if (this.#handlers.has(name)) throw new Error(`Job queue ${name} already has a handler`)
    this.#handlers.set(name, handler as JobHandler<unknown>)
    if (options.groups) this.#groups.set(name, options.groups as JobGroups<unknown>)
    if (this.#working) await this.#startWorker(name, handler)
  }

  /**
   * Starts fetching. Called once the server is ready: a backlog waiting at a
   * restart would otherwise keep the server busy before it can answer.
   */
  async startWorkers(): Promise<void> {
    if (this.#working) return
    this.#working = true
    for (const [name, handler] of this.#handlers) await this.#startWorker(name, handler)
  }

  async #startWorker<T>(name: string, handler: JobHandler<T>): Promise<void> {
    const batchSize = this.#queues.get(name)?.concurrency ?? defaultConcurrency
    const groups = this.#groups.get(name) as JobGroups<T> | undefined
    await this.#boss.work<T>(
      name,
      {
        batchSize,
        pollingIntervalSeconds,
        notifyPollingIntervalSeconds: pollingIntervalSeconds,
        burstWhenBatchFull: batchSize > 1,
        localConcurrency: this.#queues.get(name)?.workers ?? 1,
        perJobResults: true,
      },
      async (jobs) => {
        // Busy from the moment its jobs are fetched, not only once they run: runDue must not
        // find them taken and return before they have run (seen in CI, on PostgreSQL).
        const batch = this.#runFetched(name, handler, jobs, batchSize, groups)
        this.#busy.add(batch)
        try {
          return await batch
        } finally {
          this.#busy.delete(batch)
        }
      },
    )
  }

  async #runFetched<T>(
    name: string,
    handler: JobHandler<T>,
    jobs: Job<T>[],
    batchSize: number,
    groups: JobGroups<T> | undefined,
  ): Promise<JobResult[]> {
    const backlog = this.#noteFetch(name, jobs.length, batchSize)
    try {
      await this.#giveWay(name)
      const slices = groups ? chunk(jobs, groups.size) : [jobs]
      const results = (await Promise.all(slices.map((slice) => this.#runSlice(name, handler, slice, groups)))).flat()
      // PGlite answers within the same turn of the event loop, and a
      // worker in burst mode fetches again at once: without this pause a
      // backlog would keep requests, other queues and timers waiting
      // until it is gone.
      await setImmediate()
      return results
    } finally {
      if (backlog) {
        backlog.running -= 1
        if (backlog.running === 0) backlog.endedAt = performance.now()
      }
    }
  }

  /** Notes an urgent queue's fetch; answers its backlog when the fetch came back full. */
  #noteFetch(name: string, fetched: number, batchSize: number): UrgentBacklog | undefined {
    if (!this.#queues.get(name)?.urgent) return undefined
    if (fetched < batchSize) {
      this.#urgentBacklogs.delete(name)
      return undefined
    }
    const backlog = this.#urgentBacklogs.get(name) ?? { fetchedAt: 0, running: 0, endedAt: undefined }
    backlog.fetchedAt = performance.now()
    backlog.running += 1
    backlog.endedAt = undefined
    this.#urgentBacklogs.set(name, backlog)
    return backlog
  }

  /**
   * True while an urgent queue of this process has a backlog (see
   * QueueSettings.urgent): a full batch of it is running, or one ended so
   * recently that the fetch after it may still come back.
   */
  urgentBacklog(): boolean {
    const now = performance.now()
    for (const [name, backlog] of this.#urgentBacklogs) {
      const stale = now - backlog.fetchedAt > backlogStaleSeconds * 1000
      const through = backlog.endedAt !== undefined && now - backlog.endedAt > nextFetchGraceMs
      if (!stale && !through) return true
      this.#urgentBacklogs.delete(name)
    }
    return false
  }

  /** Holds a non-urgent queue's batch while an urgent backlog drains, within the queue's limit. */
  async #giveWay(name: string): Promise<void> {
    const settings = this.#queues.get(name)
    if (settings?.urgent) return
    const limit = Math.min(giveWayLimitSeconds, (settings?.expireInSeconds ?? defaultExpireInSeconds) / 3) * 1000
    const started = performance.now()
    while (this.urgentBacklog() && performance.now() - started < limit) await setTimeout(50)
  }

  async #runSlice<T>(name: string, handler: JobHandler<T>, jobs: Job<T>[], groups: JobGroups<T> | undefined): Promise<JobResult[]> {
    // A retried job runs on its own: it failed before (or its process died), and its handler may need to know.
    const fresh = jobs.filter((job) => job.retryCount === 0)
    if (groups && fresh.length > 1) {
      try {
        await this.#tracing.span(`job ${name}`, { 'pactum.job.queue': name, 'pactum.job.count': fresh.length }, () =>
          groups.run(fresh.map((job) => job.data)),
        )
        const done = fresh.map((job) => ({ id: job.id, status: 'completed' as const }))
        return [
          ...done,
          ...(await this.#runEach(
            name,
            handler,
            jobs.filter((job) => job.retryCount > 0),
          )),
        ]
      } catch (error) {
        this.#log.info({ err: error, queue: name, jobs: fresh.length }, 'a group of jobs failed; running them one by one')
      }
    }
    return this.#runEach(name, handler, jobs)
  }

  async #runEach<T>(name: string, handler: JobHandler<T>, jobs: Job<T>[]): Promise<JobResult[]> {
    return Promise.all(
      jobs.map(async (job) => {
        try {
          await this.#run(name, handler, job)
          return { id: job.id, status: 'completed' as const }
        } catch (error) {
          return { id: job.id, status: 'failed' as const, output: { message: error instanceof Error ? error.message : String(error) } }
        }
      }),
    )
  }

  /**
   * Runs every job that is due now (by the clock the queue was started
   * with), in this process, until none is left, including jobs that those
   * jobs enqueue. For tests and the command line; in a running server the
   * workers pick jobs up by themselves. Returns how many ran.
   */
  async runDue(options: { maxJobs?: number } = {}): Promise<number> {
    const maxJobs = options.maxJobs ?? 1000
    let ran = 0
    for (;;) {
      // A job this process's workers took first is not due any more, but its
      // work is not done either: wait for it, so that "ran every due job" holds.
      await Promise.allSettled([...this.#busy])
      let fetched = 0
      for (const [name, handler] of this.#handlers) {
        const jobs = await this.#boss.fetch(name, { batchSize: 10 })
        for (const job of jobs) {
          fetched++
          ran++
          try {
            await this.#run(name, handler, job)
            await this.#boss.complete(name, job.id)
          } catch (error) {
            await this.#boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) })
          }
          if (ran >= maxJobs) throw new Error(`runDue ran ${ran} jobs and jobs keep coming: a job re-enqueues itself?`)
        }
      }
      // A worker's fetch may have come back while this round looked at the other queues.
      if (fetched === 0 && this.#busy.size === 0) return ran
    }
  }

  async #run<T>(name: string, handler: JobHandler<T>, job: Job<T>): Promise<void> {
    try {
      await this.#tracing.span(
        `job ${name}`,
        { 'pactum.job.queue': name, 'pactum.job.id': job.id, 'pactum.job.retry_count': job.retryCount },
        () => handler(job.data, { id: job.id, name, retryCount: job.retryCount }),
      )
    } catch (error) {
      this.#log.warn({ err: error, job: { id: job.id, name, retryCount: job.retryCount } }, 'job failed')
      throw error
    }
  }

  /** Lets running handlers finish (up to 10 s), then stops polling; the database stays open. */
  async stop(): Promise<void> {
    await this.#boss.stop({ graceful: true, timeout: 10_000, close: true })
  }
}
