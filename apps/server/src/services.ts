import type { Kysely } from 'kysely'
import type { Providers } from './adapters/providers.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { DatabaseKind } from './db/database.ts'
import type { ReplicaReads } from './db/replica-reads.ts'
import type { Database } from './db/schema.ts'
import type { PactumMetrics } from './metrics/metrics.ts'
import type { TransactionReads } from './modules/transactions/transaction-reads-repository.ts'

/**
 * What every use case may reach: handed to routes as `app.services`. The
 * providers' parts are described where they are chosen (adapters/providers.ts):
 * the job queue, the event handlers, the payment provider's three ports, the
 * carrier tracker, the bank link and the one outgoing e-mail transport.
 */
export interface Services extends Pick<
  Providers,
  'jobs' | 'events' | 'payments' | 'connectedAccounts' | 'identity' | 'carrierTracker' | 'bankLink' | 'mailer' | 'documents'
> {
  config: Config
  db: Kysely<Database>
  databaseKind: DatabaseKind
  /**
   * For the lists, the admin console's lists and the verification page only: the replica once it has
   * caught up with the primary, else the primary (db/replica-reads.ts). Everything else uses `db`.
   */
  replicaReads: ReplicaReads
  clock: Clock
  /** The status pages' reads of one transaction, coalesced into one statement per batch. */
  transactionReads: TransactionReads
  /** Prometheus metrics (metrics/metrics.ts), served on METRICS_PORT when it is set. */
  metrics: PactumMetrics
}
