import { type Kysely, sql } from 'kysely'
import { AppError } from '../errors.ts'
import type { Database as Tables } from './schema.ts'

/**
 * Which server answers a read that may be served by the replica
 * (DATABASE_READ_URL): the lists, the admin console's lists and the public
 * verification page. Every other statement uses the primary directly.
 *
 * The rule (docs/decisions/123-reads-from-a-replica.md): the replica serves
 * a read only when it has replayed the primary's WAL up to where it was
 * when the read began (`pg_current_wal_lsn()` on the primary, then
 * `pg_last_wal_replay_lsn()` on the replica); otherwise the primary
 * serves it. A user's action committed before their next request began,
 * so that read sees it, whichever process took either request. Nothing is
 * remembered per user or per process: no table, no cookie, no clock.
 */

export type ServedBy = 'replica' | 'primary'

export interface ReplicaReadsOptions {
  primary: Kysely<Tables>
  /** The primary itself when no replica is configured: then every read goes there without a probe. */
  replica: Kysely<Tables>
  /**
   * How far the replica has replayed the primary's WAL, or null when it replays nothing (not a standby,
   * or one promoted since): by default asked of the replica. The routing tests hand in a stand-in.
   */
  replayedLsn?: () => Promise<string | null>
  /** Told where each read went (the metrics count them). */
  onRead?: (servedBy: ServedBy) => void
  /** Told when a probe or a read on the replica failed: the read then goes to the primary. */
  onProblem?: (error: unknown) => void
}

export class ReplicaReads {
  readonly #primary: Kysely<Tables>
  readonly #replica: Kysely<Tables>
  readonly #replayedLsn: () => Promise<string | null>
  readonly #onRead: (servedBy: ServedBy) => void
  readonly #onProblem: (error: unknown) => void

  constructor(options: ReplicaReadsOptions) {
    this.#primary = options.primary
    this.#replica = options.replica
    this.#replayedLsn = options.replayedLsn ?? (() => replayedLsnOf(options.replica))
    this.#onRead = options.onRead ?? (() => undefined)
    this.#onProblem = options.onProblem ?? (() => undefined)
  }

  /** Whether a replica is configured at all. */
  get configured(): boolean {
    return this.#replica !== this.#primary
  }

  /**
   * Runs one read (statements only, no transaction) on `db()`'s choice. If the replica fails it (it went
   * away after the probe, or cancelled the query for a conflict with its replay), the read runs again on
   * the primary; an answer of the app's own (AppError, e.g. not found) is the read's answer and stands.
   */
  async read<T>(work: (db: Kysely<Tables>) => Promise<T>): Promise<T> {
    const db = await this.db()
    if (db === this.#primary) return work(db)
    try {
      return await work(db)
    } catch (error) {
      if (error instanceof AppError) throw error
      this.#onProblem(error)
      return work(this.#primary)
    }
  }

  /**
   * The database for one read that must show at least everything committed before it was asked for.
   * The two probes run in this order on purpose: replay only moves forward, so a replica that has
   * reached the primary's position keeps every commit before it for the read that follows.
   */
  async db(): Promise<Kysely<Tables>> {
    if (!this.configured) return this.#primary
    try {
      const target = await currentLsnOf(this.#primary)
      const replayed = await this.#replayedLsn()
      if (replayed !== null && lsnValue(replayed) >= lsnValue(target)) {
        this.#onRead('replica')
        return this.#replica
      }
    } catch (error) {
      // A replica that is down or unreachable costs the read nothing but the probe: the primary answers.
      this.#onProblem(error)
    }
    this.#onRead('primary')
    return this.#primary
  }
}

/**
 * Where the primary's WAL has been written to. With `synchronous_commit` on
 * (PostgreSQL's default, which Pactum's money needs anyway) a commit is
 * flushed, hence written, before anyone can see it or be answered, so
 * every commit already visible ends at or before this position.
 */
async function currentLsnOf(primary: Kysely<Tables>): Promise<string> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary)
  const lsn = rows[0]?.lsn
  if (!lsn) throw new Error('the primary did not say its WAL position')
  return lsn
}

/** Null on a server that is not replaying WAL: it cannot be shown to hold the primary's commits. */
async function replayedLsnOf(replica: Kysely<Tables>): Promise<string | null> {
  const { rows } = await sql<{ lsn: string | null }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(replica)
  return rows[0]?.lsn ?? null
}

/**
 * For the doctor: whether the read server is a standby replaying WAL, and
 * how far behind what the primary has written it has replayed (bytes).
 */
export async function replicaState(primary: Kysely<Tables>, replica: Kysely<Tables>): Promise<{ standby: boolean; behindBytes: number }> {
  const written = await currentLsnOf(primary)
  const replayed = await replayedLsnOf(replica)
  if (replayed === null) return { standby: false, behindBytes: 0 }
  const behind = lsnValue(written) - lsnValue(replayed)
  return { standby: true, behindBytes: behind > 0n ? Number(behind) : 0 }
}

/** `16/B374D848` → a number that orders as the WAL does (two 32-bit halves in hexadecimal). */
export function lsnValue(lsn: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn)
  if (!match) throw new Error(`not a WAL position: ${lsn}`)
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`)
}
