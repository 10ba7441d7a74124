import type { Kysely } from 'kysely'
import type { BankLink } from './adapters/bank-link/port.ts'
import type { CarrierTracker } from './adapters/carrier-tracker/port.ts'
import type { Mailer } from './adapters/mailer/port.ts'
import type { ConnectedAccounts } from './adapters/payment-provider/connected-accounts-port.ts'
import type { IdentityVerification } from './adapters/payment-provider/identity-port.ts'
import type { Payments } from './adapters/payment-provider/payments-port.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { DatabaseKind } from './db/database.ts'
import type { Database } from './db/schema.ts'
import type { EventHandlers } from './events/event-handlers.ts'
import type { JobQueue } from './jobs/job-queue.ts'
import type { TransactionReads } from './modules/transactions/transaction-reads-repository.ts'

/** What every use case may reach: handed to routes as `app.services`. */
export interface Services {
  config: Config
  db: Kysely<Database>
  databaseKind: DatabaseKind
  clock: Clock
  /** Background jobs and timers (jobs/job-queue.ts). */
  jobs: JobQueue
  /** Where payment and carrier events are handed over (registerPaymentEventHandler, registerCarrierEventHandler). */
  events: EventHandlers
  /** The payment provider's three ports (adapters/providers.ts). */
  payments: Payments
  connectedAccounts: ConnectedAccounts
  identity: IdentityVerification
  carrierTracker: CarrierTracker
  /** How US sellers link their bank for payouts: the sandbox link screen, or Plaid. */
  bankLink: BankLink
  /** The one outgoing e-mail transport (support messages and notifications). */
  mailer: Mailer
  /** The status pages' reads of one transaction, coalesced into one statement per batch. */
  transactionReads: TransactionReads
}
