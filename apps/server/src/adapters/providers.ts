import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import { EventHandlers } from '../events/event-handlers.ts'
import { JobQueue } from '../jobs/job-queue.ts'
import { sandboxWebhookSecret } from '../modules/payments/webhook-secret.ts'
import { registerWebhookRoutes, type WebhookEndpoint } from '../modules/payments/webhook-routes.ts'
import { sandboxDelivery } from '../modules/payments/webhook-signature.ts'
import { PlaidBankLink } from './bank-link/plaid.ts'
import type { BankLink } from './bank-link/port.ts'
import { SandboxBankLink } from './bank-link/sandbox.ts'
import { sandboxBankLinkRoutes } from './bank-link/sandbox-routes.ts'
import { createLocalDocumentStore } from './document-store/local-files.ts'
import type { DocumentStore } from './document-store/port.ts'
import { createS3DocumentStore } from './document-store/s3.ts'
import { AftershipApi } from './carrier-tracker/aftership-api.ts'
import { findShippingDetails } from '../modules/transactions/shipping-repository.ts'
import { AftershipCarrierTracker } from './carrier-tracker/aftership.ts'
import { registerTrackingWebhookRoute } from './carrier-tracker/aftership-webhook-route.ts'
import type { CarrierTracker } from './carrier-tracker/port.ts'
import { SandboxCarrierTracker } from './carrier-tracker/sandbox.ts'
import { DevMailbox } from './mailer/dev-mailbox.ts'
import { createFileMailer } from './mailer/file-mailer.ts'
import type { Mailer } from './mailer/port.ts'
import { createSmtpMailer } from './mailer/smtp-mailer.ts'
import type { ConnectedAccounts } from './payment-provider/connected-accounts-port.ts'
import type { IdentityVerification } from './payment-provider/identity-port.ts'
import type { Payments } from './payment-provider/payments-port.ts'
import { SandboxProvider } from './payment-provider/sandbox.ts'
import { createStripeClient } from './payment-provider/stripe-client.ts'
import { StripeConnectedAccounts } from './payment-provider/stripe-connected-accounts.ts'
import { StripeIdentity } from './payment-provider/stripe-identity.ts'
import { StripePayments } from './payment-provider/stripe-payments.ts'
import { StripeConnectEventCatchUp } from './payment-provider/stripe-connect-event-catch-up.ts'
import { StripeEventCatchUp } from './payment-provider/stripe-event-catch-up.ts'
import { stripeSignatureVerifier, stripeWebhookPath } from './payment-provider/stripe-webhook.ts'
import { sandboxIdentityRoutes } from './payment-provider/sandbox-identity-routes.ts'
import { sandboxRoutes } from './payment-provider/sandbox-routes.ts'
import type { Tracing } from '../tracing/tracing.ts'

/**
 * The job queue and the outside services, chosen by configuration in this
 * one place (DESIGN §1): the sandbox payment provider unless
 * STRIPE_SECRET_KEY is set (then Stripe, stripe-*.ts), behind its three
 * ports (payments, connected accounts, identity), the sandbox carrier tracker unless
 * TRACKING_API_KEY is set (then an AfterShip-style tracking API), the file
 * mailer (one .eml per message in DATA_DIR/mail, read back by the dev
 * mailbox) unless SMTP_URL is set, identity documents in local files
 * (DATA_DIR/sandbox-files) unless S3_BUCKET is set, and the sandbox bank
 * link (US sellers) unless PLAID_CLIENT_ID / PLAID_SECRET are set.
 */
export interface Providers {
  jobs: JobQueue
  events: EventHandlers
  /** The payment provider's three ports: the buyer's payments, refunds and releases; the seller's account; Identity sessions. */
  payments: Payments
  connectedAccounts: ConnectedAccounts
  identity: IdentityVerification
  carrierTracker: CarrierTracker
  mailer: Mailer
  /** What the file mailer wrote; undefined when e-mail goes out over SMTP. */
  devMailbox: DevMailbox | undefined
  /** Where identity documents wait for the provider's check. */
  documents: DocumentStore
  /** How US sellers link their bank for payouts. */
  bankLink: BankLink
}

/** The payment provider's own pieces: the sandbox's workers and browser routes, or Stripe's webhook endpoint and catch-up job. */
type PaymentSide =
  | { provider: 'sandbox'; sandbox: SandboxProvider; webhookSecret: string }
  | { provider: 'stripe'; endpoint: WebhookEndpoint; catchUp: StripeEventCatchUp }

interface Started extends Providers {
  paymentSide: PaymentSide
  tracker: SandboxCarrierTracker | AftershipCarrierTracker
}

/** How often the Stripe catch-up job lists recent events. */
const stripeCatchUpMinutes = 5

export async function startProviders(
  app: FastifyInstance,
  options: { config: Config; database: Database; clock: Clock; tracing: Tracing },
): Promise<Started> {
  const { config, database, clock } = options
  const jobs = await JobQueue.start({ database, clock, log: app.log, tracing: options.tracing, connections: config.jobQueueConnections })
  // Workers start once every route is in place, and stop before the
  // database closes (the caller closes the database after app.close()).
  app.addHook('onReady', async () => {
    if (config.backgroundJobs) await jobs.startWorkers()
  })
  app.addHook('onClose', async () => {
    await jobs.stop()
  })
  const events = new EventHandlers()
  const documents = startDocumentStore(config)
  const tracker = startCarrierTracker(app, config, { db: database.db, jobs, clock, handlers: events })
  const { mailer, devMailbox } = startMailer(app, config, clock)
  const { ports, paymentSide } = await startPaymentProvider(app, config, { database, jobs, clock, events, documents })
  await tracker.createQueues()
  const bankLink = startBankLink(config, database)
  return { jobs, events, ...ports, carrierTracker: tracker, mailer, devMailbox, documents, bankLink, paymentSide, tracker }
}

function startBankLink(config: Config, database: Database): BankLink {
  const settings = config.bankLink
  return settings.provider === 'plaid'
    ? new PlaidBankLink({ clientId: settings.clientId, secret: settings.secret, apiUrl: settings.apiUrl })
    : new SandboxBankLink({ db: database.db })
}

async function startPaymentProvider(
  app: FastifyInstance,
  config: Config,
  deps: { database: Database; jobs: JobQueue; clock: Clock; events: EventHandlers; documents: DocumentStore },
): Promise<{ ports: Pick<Providers, 'payments' | 'connectedAccounts' | 'identity'>; paymentSide: PaymentSide }> {
  const { database, jobs, clock, events, documents } = deps
  const settings = config.payments
  if (settings.provider === 'stripe') {
    const stripe = createStripeClient(settings)
    const ports = {
      payments: new StripePayments({ stripe, publishableKey: settings.publishableKey }),
      connectedAccounts: new StripeConnectedAccounts({ stripe, db: database.db, publicUrl: config.publicUrl }),
      identity: new StripeIdentity({ stripe, publicUrl: config.publicUrl }),
    }
    const secrets = settings.webhookSecret
      .split(',')
      .map((secret) => secret.trim())
      .filter(Boolean)
    const endpoint: WebhookEndpoint = {
      provider: 'stripe',
      path: stripeWebhookPath,
      signatureHeader: 'Stripe-Signature',
      secret: secrets[0] ?? '',
      verify: stripeSignatureVerifier(stripe, secrets),
    }
    const catchUp = new StripeEventCatchUp({
      stripe,
      db: database.db,
      jobs,
      clock,
      handlers: events,
      log: app.log,
      intervalMinutes: stripeCatchUpMinutes,
      connect: new StripeConnectEventCatchUp({ stripe, db: database.db, clock, handlers: events, log: app.log }),
    })
    await catchUp.createQueues()
    return { ports, paymentSide: { provider: 'stripe', endpoint, catchUp } }
  }
  const sandbox = new SandboxProvider({
    db: database.db,
    jobs,
    clock,
    publishableKey: settings.publishableKey,
    sepaDelaySeconds: settings.sepaDelaySeconds,
    refundDelaySeconds: settings.refundDelaySeconds,
    disputeDelaySeconds: settings.disputeDelaySeconds,
    documents,
    documentRetentionSeconds: config.documents.retentionDays * 86_400,
    documentCheckSeconds: settings.documentCheckSeconds,
    payoutDelaySeconds: settings.payoutDelaySeconds,
    payoutArrivalSeconds: settings.payoutArrivalSeconds,
    maxRequestsPerSecond: settings.maxRequestsPerSecond,
    maxEndpointRequestsPerSecond: settings.maxEndpointRequestsPerSecond,
  })
  await sandbox.createQueues()
  const webhookSecret = await sandboxWebhookSecret(database.db, settings.webhookSecret)
  const { payments, connectedAccounts, identity } = sandbox
  return { ports: { payments, connectedAccounts, identity }, paymentSide: { provider: 'sandbox', sandbox, webhookSecret } }
}

function startCarrierTracker(
  app: FastifyInstance,
  config: Config,
  deps: { db: Database['db']; jobs: JobQueue; clock: Clock; handlers: EventHandlers },
): SandboxCarrierTracker | AftershipCarrierTracker {
  const { tracking } = config
  if (tracking.provider === 'sandbox') {
    return new SandboxCarrierTracker({ ...deps, inTransitSeconds: tracking.inTransitSeconds, deliveredSeconds: tracking.deliveredSeconds })
  }
  const tracker = new AftershipCarrierTracker({
    ...deps,
    api: new AftershipApi({ baseUrl: tracking.apiUrl, apiKey: tracking.apiKey }),
    log: app.log,
    pollMinutes: tracking.pollMinutes,
    destinationOf: async (transactionId) => {
      const address = await findShippingDetails(deps.db, transactionId)
      return address && { postalCode: address.postal_code, countryCode: address.country_code, state: address.state }
    },
  })
  app.addHook('onClose', async () => tracker.stop())
  return tracker
}

function startDocumentStore(config: Config): DocumentStore {
  const { storage } = config.documents
  // The local directory keeps the name it had before S3 support: documents already there stay readable.
  return storage.store === 's3' ? createS3DocumentStore(storage.s3) : createLocalDocumentStore(path.join(config.dataDir, 'sandbox-files'))
}

function startMailer(app: FastifyInstance, config: Config, clock: Clock): { mailer: Mailer; devMailbox: DevMailbox | undefined } {
  const { mail } = config
  if (mail.transport === 'smtp') {
    const mailer = createSmtpMailer({ smtp: mail.smtp, from: mail.from, now: () => clock.now() })
    app.addHook('onClose', async () => mailer.close())
    return { mailer, devMailbox: undefined }
  }
  const dir = path.join(config.dataDir, 'mail')
  return { mailer: createFileMailer({ dir, from: mail.from, now: () => clock.now() }), devMailbox: new DevMailbox(dir) }
}

/**
 * Webhook intake, the sandbox's browser API and the workers. The sandbox
 * delivers its webhooks in-process (`inject`) rather than over HTTP to
 * PUBLIC_URL: the request takes the same route, signature check and
 * de-duplication as one from outside, but does not depend on the public
 * address being reachable from the server (TLS proxies, containers, tests
 * with no open port). Any process may deliver, since all share the database.
 */
export async function registerProviderRoutes(app: FastifyInstance, started: Started, clock: Clock): Promise<void> {
  const { config } = app.services
  const payments = started.paymentSide
  await registerWebhookRoutes(app, {
    db: app.services.db,
    clock,
    handlers: started.events,
    counts: {
      received: (provider) => app.services.metrics.webhooksReceived.inc({ provider }),
      rejected: (provider) => app.services.metrics.webhooksRejected.inc({ provider }),
    },
    endpoints:
      payments.provider === 'sandbox'
        ? [{ provider: 'sandbox', path: '/webhooks/sandbox', signatureHeader: 'Pactum-Signature', secret: payments.webhookSecret }]
        : [payments.endpoint],
  })
  // The sandbox's browser pages stand in for Stripe.js and Stripe's hosted pages: with Stripe they do not exist.
  if (payments.provider === 'sandbox') {
    await sandboxRoutes(app, { provider: payments.sandbox.payments })
    await sandboxIdentityRoutes(app, { identity: payments.sandbox.identity })
  }
  // The sandbox's stand-in for Plaid Link exists only while the sandbox is the bank link.
  if (started.bankLink instanceof SandboxBankLink) await sandboxBankLinkRoutes(app, { bankLink: started.bankLink, clock })
  if (started.tracker instanceof AftershipCarrierTracker && config.tracking.provider === 'aftership') {
    await registerTrackingWebhookRoute(app, { tracker: started.tracker, secret: config.tracking.webhookSecret })
  }
  // Workers start once every route exists: a delivery calls the webhook route.
  app.addHook('onReady', async () => {
    // A process with BACKGROUND_JOBS=off only answers requests: another runs every queue.
    if (!config.backgroundJobs) return
    if (payments.provider === 'stripe') await payments.catchUp.startWorkers()
    else await startSandboxWorkers(app, payments.sandbox, payments.webhookSecret, clock)
    await started.tracker.startWorkers()
  })
}

async function startSandboxWorkers(app: FastifyInstance, sandbox: SandboxProvider, webhookSecret: string, clock: Clock): Promise<void> {
  await sandbox.startWorkers(async (event) => (await app.inject(sandboxDelivery(event, webhookSecret, clock.now()))).statusCode)
}
