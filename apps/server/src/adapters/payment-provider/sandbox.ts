import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { DocumentStore } from '../document-store/port.ts'
import { SandboxConnectedAccounts } from './sandbox-connected-accounts.ts'
import { SandboxDisputes } from './sandbox-disputes.ts'
import { SandboxDocuments } from './sandbox-documents.ts'
import { SandboxIdentity } from './sandbox-identity.ts'
import { SandboxKernel, type WebhookDeliverer } from './sandbox-kernel.ts'
import { SandboxPayments } from './sandbox-payments.ts'
import { SandboxPayouts } from './sandbox-payouts.ts'

/**
 * A stateful simulated payment processor with Stripe's semantics, behind
 * the three ports (payments, connected accounts, identity) on one kernel:
 * one database, one clock, one set of idempotency keys and one stream of
 * signed webhooks, delivered asynchronously with retries. Its state lives
 * in its own `sandbox_*` tables, which nothing else reads.
 */
export interface SandboxOptions {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  publishableKey: string
  sepaDelaySeconds: number
  refundDelaySeconds: number
  disputeDelaySeconds: number
  /** Where received identity files are kept: local files or S3, never served. */
  documents: DocumentStore
  /** How long a document is kept once its check has a result (0: deleted at once). */
  documentRetentionSeconds: number
  documentCheckSeconds: number
  payoutDelaySeconds: number
  payoutArrivalSeconds: number
  /** Payment and money writes a second beyond which the sandbox answers rate_limit, as Stripe does (100 in live mode). */
  maxRequestsPerSecond?: number
  /** The same on any one endpoint (`POST /v1/transfers`): Stripe's default is 25. */
  maxEndpointRequestsPerSecond?: number
}

export class SandboxProvider {
  readonly payments: SandboxPayments
  readonly connectedAccounts: SandboxConnectedAccounts
  /** Stripe Identity's twin; its hosted page is in sandbox-identity-routes.ts. */
  readonly identity: SandboxIdentity
  /** Card disputes, which an admin opens and decides from the console in the sandbox (sandbox-disputes.ts). */
  readonly disputes: SandboxDisputes
  readonly #kernel: SandboxKernel
  readonly #payouts: SandboxPayouts
  readonly #documents: SandboxDocuments

  constructor(options: SandboxOptions) {
    this.#kernel = new SandboxKernel(options)
    this.#payouts = new SandboxPayouts(this.#kernel, options)
    this.#documents = new SandboxDocuments(this.#kernel, this.#payouts, options)
    this.disputes = new SandboxDisputes(this.#kernel, options)
    this.payments = new SandboxPayments(this.#kernel, { ...options, payouts: this.#payouts, disputes: this.disputes })
    this.connectedAccounts = new SandboxConnectedAccounts(this.#kernel, { payouts: this.#payouts, documents: this.#documents }, options)
    this.identity = new SandboxIdentity(this.#kernel, this.#documents, { checkSeconds: options.documentCheckSeconds })
  }

  /** Creates the sandbox's queues; call once at start-up, before anything is sent. */
  async createQueues(): Promise<void> {
    await this.#kernel.createQueues()
    await this.payments.createQueues()
    await this.disputes.createQueues()
    await this.#documents.createQueues()
    await this.connectedAccounts.createQueues()
    await this.#payouts.createQueues()
    await this.identity.createQueues()
  }

  /** Starts the sandbox's workers; `deliver` posts an event to the webhook endpoint. */
  async startWorkers(deliver: WebhookDeliverer): Promise<void> {
    await this.#kernel.startWorkers(deliver)
    await this.payments.startWorkers()
    await this.disputes.startWorkers()
    await this.#documents.startWorkers()
    await this.connectedAccounts.startWorkers()
    await this.#payouts.startWorkers()
    await this.identity.startWorkers()
  }
}
