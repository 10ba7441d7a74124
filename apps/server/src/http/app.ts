import { fileURLToPath } from 'node:url'
import formbody from '@fastify/formbody'
import middie from '@fastify/middie'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { JWK } from 'jose'
import { supportedCarriersRoutes } from '../adapters/carrier-tracker/carrier-routes.ts'
import { registerProviderRoutes, startProviders } from '../adapters/providers.ts'
import { createNotificationQueue, startNotificationWorker } from '../modules/notifications/send-notification.ts'
import { createContactQueue, startContactWorker } from '../modules/support/contact-support.ts'
import { createStaffAlertQueue, startStaffAlertWorker } from '../modules/notifications/staff-alerts.ts'
import { createOrphanAttachmentQueue, startOrphanAttachmentWorker } from '../modules/conversation/orphan-attachments.ts'
import { startPayoutFollowing } from '../modules/payouts/payout-following.ts'
import { createBankLinkItemRemovalQueue, startBankLinkItemRemovalWorker } from '../modules/profile/bank-link-item-removal.ts'
import { createTransactionQueues, jobEffectScheduler, startTransactionWorkers } from '../modules/transactions/transaction-jobs.ts'
import { adminTransactionRoutes } from '../modules/admin/admin-transaction-routes.ts'
import { actionRoutes } from '../modules/transactions/routes/action-routes.ts'
import { caseRoutes } from '../modules/disputes/case-routes.ts'
import { caseFileRoutes } from '../modules/disputes/case-file-routes.ts'
import { messageRoutes } from '../modules/conversation/message-routes.ts'
import { detailsRoutes } from '../modules/transactions/routes/details-routes.ts'
import { kindRoutesPlugin } from '../modules/transactions/routes/kind-routes.ts'
import { guestRoutes } from '../modules/guests/guest-routes.ts'
import { partnerTransactionRoutes } from '../modules/partner-api/partner-transaction-routes.ts'
import { listingRoutes } from '../modules/listings/listing-routes.ts'
import { paymentRoutes } from '../modules/transactions/routes/payment-routes.ts'
import { joinRoutes } from '../modules/transactions/routes/join-routes.ts'
import { quoteRoutes } from '../modules/transactions/routes/quote-routes.ts'
import { rememberVerifiedTokens } from '../modules/sign-in/remembered-tokens.ts'
import { type AccessTokenVerifier, createAccessTokenVerifier, discoverJwksUri } from '../modules/sign-in/access-token-verifier.ts'
import { type Clock, systemClock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import { ReplicaReads, type ReplicaReadsOptions } from '../db/replica-reads.ts'
import { mountEmbeddedOidc } from '../modules/sign-in/oidc/embedded-provider-routes.ts'
import type { Services } from '../services.ts'
import { coalescedTransactionReads } from '../modules/transactions/transaction-reads-repository.ts'
import { OneLinePerRequest } from './request-log.ts'
import { registerAuthentication } from './plugins/authentication.ts'
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts'
import { registerIdempotency } from './plugins/idempotency.ts'
import { registerJsonBodyParser } from './plugins/json-body.ts'
import { registerOpenApi } from './plugins/openapi.ts'
import { registerRequestId, requestIdFrom } from './plugins/request-id.ts'
import { registerCanonicalHost } from './plugins/canonical-host.ts'
import { inputValidatorCompiler, registerContentEncodingRule } from './plugins/input-rules.ts'
import { purgeRateLimits } from '../db/rate-limit-counts.ts'
import { databaseRateLimitStore } from './plugins/rate-limit-store.ts'
import { registerSecurityHeaders } from './plugins/security-headers.ts'
import { registerWebApp } from './plugins/web-app.ts'
import { adminAuditRoutes } from '../modules/admin/admin-audit-routes.ts'
import { adminClientRoutes } from '../modules/admin/admin-client-routes.ts'
import { webhookRoutes } from '../modules/partner-webhooks/webhook-routes.ts'
import { devMailboxRoutes } from '../modules/admin/dev-mailbox-routes.ts'
import { adminLedgerRoutes } from '../modules/admin/ledger-routes.ts'
import { adminBackupRoutes } from '../modules/admin/backup-routes.ts'
import { adminOutboxRetryRoutes } from '../modules/admin/outbox-retry-routes.ts'
import { reconciliationRoutes } from '../modules/reconciliation/reconciliation-routes.ts'
import { chargebackRoutes } from '../modules/chargebacks/chargeback-routes.ts'
import { createReconciliationQueue, startReconciliationWorker } from '../modules/reconciliation/reconciliation-job.ts'
import { startWebhookWorker } from '../modules/partner-webhooks/webhook-delivery.ts'
import { ProviderPace } from '../adapters/payment-provider/provider-pace.ts'
import { PactumMetrics } from '../metrics/metrics.ts'
import { startMetricsServer } from '../metrics/metrics-server.ts'
import { registerRequestMetrics } from '../metrics/request-metrics.ts'
import { startLedgerWatch } from '../metrics/ledger-watch.ts'
import { registerRequestSpans } from '../tracing/request-spans.ts'
import { startTracing } from '../tracing/start-tracing.ts'
import { startScheduledBackups } from '../backup/scheduled-backups.ts'
import { purgeExpiredPartnerEvents } from '../modules/partner-webhooks/webhook-endpoints.ts'
import { createEndpointDisabledMailQueue, startEndpointDisabledMailWorker } from '../modules/partner-webhooks/endpoint-disabled-mail.ts'
import { clientConfigRoutes } from './routes/client-config.ts'
import { partnerClientRoutes } from '../modules/partner-clients/partner-client-routes.ts'
import { batchRoutes } from './routes/batch-routes.ts'
import { guidedTourRoutes } from '../modules/profile/guided-tour-routes.ts'
import { passkeyRoutes } from '../modules/sign-in/passkey-routes.ts'
import { totpRoutes } from '../modules/sign-in/totp-routes.ts'
import { faviconRoute } from './routes/favicon.ts'
import { healthRoutes } from './routes/health.ts'
import { meRoutes } from '../modules/sign-in/me-routes.ts'
import { profileRoutes } from '../modules/profile/profile-routes.ts'
import { bankAccountRoutes } from '../modules/profile/bank-account-routes.ts'
import { receiptRoutes } from '../modules/receipts/receipt-routes.ts'
import { contactRoutes } from '../modules/support/contact-routes.ts'
import { stopInvitationsRoutes } from '../modules/guests/stop-invitations-routes.ts'
import { optOutRoutes } from '../modules/notifications/opt-out-routes.ts'
import { balanceRoutes } from '../modules/profile/balance-routes.ts'
import { verificationRoutes } from '../modules/verification/verification-routes.ts'
import { isIdentityVerified } from '../modules/verification/verification.ts'
import { seedPartnerClients } from '../modules/partner-clients/partner-clients.ts'
import { verifyRoutes } from '../modules/verify/verify-routes.ts'
import { named } from './named-plugin.ts'

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    /** Embedded sign-in only: the key that signs access tokens (tests and the CLI mint with it). */
    embeddedSigningKey: JWK | null
  }
}

export interface AppOptions {
  config: Config
  database: Database
  clock?: Clock
  /** Where the built web app lives; defaults to apps/web/dist. */
  webDistDir?: string
  /** Replaces token verification (tests of an external issuer). */
  verifyAccessToken?: AccessTokenVerifier
  /** Told of every route as it is registered, plugins' included (the authorization matrix lists them). */
  onRoute?: (route: RouteOptions) => void
  /** Replaces asking the read replica how far it has replayed (the routing tests' stand-in replica). */
  replayedLsn?: ReplicaReadsOptions['replayedLsn']
}

const defaultWebDist = fileURLToPath(new URL('../../../web/dist', import.meta.url))

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options
  // First, so that a bad clients file stops start-up before anything runs.
  await seedPartnerClients(database.db, config.clientsFile, (options.clock ?? systemClock).now())
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    trustProxy: config.trustProxy,
    logController: new OneLinePerRequest({ requestIdLogLabel: 'request_id' }),
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    bodyLimit: 1_048_576,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>()
  if (options.onRoute) app.addHook('onRoute', options.onRoute)
  app.setValidatorCompiler(inputValidatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  const clock = options.clock ?? systemClock
  const tracing = await startTracing(config.tracing, app.log)
  // Registered before the job queue's: onClose hooks run last-first, so the last spans (running jobs) are sent too.
  app.addHook('onClose', async () => tracing.shutdown())
  registerRequestSpans(app, tracing)
  const providers = await startProviders(app, { config, database, clock, tracing })
  const transactionDeps = {
    db: database.db,
    clock,
    policy: config.onlinePolicy,
    effects: jobEffectScheduler(providers.jobs),
    publicUrl: config.publicUrl,
  }
  await createTransactionQueues(providers.jobs)
  await createNotificationQueue(providers.jobs)
  await startNotificationWorker(providers.jobs, {
    db: database.db,
    mailer: providers.mailer,
    clock,
    publicUrl: config.publicUrl,
    supportEmail: config.supportEmail,
  })
  await createContactQueue(providers.jobs)
  await createOrphanAttachmentQueue(providers.jobs)
  await createBankLinkItemRemovalQueue(providers.jobs)
  await startBankLinkItemRemovalWorker(providers.jobs, { db: database.db, bankLink: providers.bankLink, clock })
  await startOrphanAttachmentWorker(providers.jobs, { db: database.db, documents: providers.documents })
  await startContactWorker(providers.jobs, { db: database.db, mailer: providers.mailer, clock, supportEmail: config.supportEmail })
  await createStaffAlertQueue(providers.jobs)
  await startStaffAlertWorker(providers.jobs, { mailer: providers.mailer, supportEmail: config.supportEmail, publicUrl: config.publicUrl })
  const metrics = new PactumMetrics({ db: database.db, clock })
  await startTransactionWorkers({
    deps: transactionDeps,
    jobs: providers.jobs,
    events: providers.events,
    payments: providers.payments,
    connectedAccounts: providers.connectedAccounts,
    pace: new ProviderPace({
      db: database.db,
      perSecond: config.providerMaxRequestsPerSecond,
      perEndpointPerSecond: config.providerMaxEndpointRequestsPerSecond,
    }),
    outboxFailed: (kind) => metrics.outboxFailed.inc({ kind }),
    tracing,
    log: app.log,
  })
  await startPayoutFollowing(providers.jobs, providers.events, {
    db: database.db,
    mailer: providers.mailer,
    clock,
    connectedAccounts: providers.connectedAccounts,
    publicUrl: config.publicUrl,
    supportEmail: config.supportEmail,
  })
  await createReconciliationQueue(providers.jobs)
  await startWebhookWorker({ db: database.db, jobs: providers.jobs, clock, log: app.log, allowPrivate: config.webhookAllowPrivate })
  await createEndpointDisabledMailQueue(providers.jobs)
  await startEndpointDisabledMailWorker(providers.jobs, {
    db: database.db,
    mailer: providers.mailer,
    supportEmail: config.supportEmail,
    publicUrl: config.publicUrl,
  })
  await startReconciliationWorker({ db: database.db, jobs: providers.jobs, clock, payments: providers.payments, log: app.log })
  const replicaReads = new ReplicaReads({
    primary: database.db,
    replica: database.read,
    ...(options.replayedLsn ? { replayedLsn: options.replayedLsn } : {}),
    onRead: (servedBy) => metrics.replicaReads.inc({ served_by: servedBy }),
    onProblem: (error) => app.log.warn({ err: error }, 'the read replica failed a probe or a read: the primary answers it'),
  })
  app.decorate('services', {
    config,
    db: database.db,
    databaseKind: database.kind,
    replicaReads,
    clock,
    jobs: providers.jobs,
    events: providers.events,
    payments: providers.payments,
    connectedAccounts: providers.connectedAccounts,
    identity: providers.identity,
    carrierTracker: providers.carrierTracker,
    bankLink: providers.bankLink,
    mailer: providers.mailer,
    documents: providers.documents,
    transactionReads: coalescedTransactionReads(database.db),
    metrics,
  } satisfies Services)
  registerRequestMetrics(app, metrics)
  if (config.backups && database.kind === 'pglite') {
    const backups = startScheduledBackups(database, config.backups, { now: () => new Date(), log: app.log })
    app.addHook('onClose', async () => backups.stop())
  }
  if (config.metrics) {
    const server = await startMetricsServer({
      registry: metrics.registry,
      ...config.metrics,
      onError: (error) => app.log.error({ err: error }, 'the metrics could not be read'),
    })
    app.log.info({ port: server.port, host: config.metrics.host }, 'metrics served at /metrics')
    const ledgerWatch = startLedgerWatch({ db: database.db, gauge: metrics.ledgerVerified, log: app.log })
    app.addHook('onClose', async () => {
      ledgerWatch.stop()
      await server.close()
    })
  }

  registerRequestId(app)
  registerCanonicalHost(app, { publicUrl: config.publicUrl })
  registerErrorHandler(app)
  registerContentEncodingRule(app)
  registerJsonBodyParser(app)
  registerSecurityHeaders(app, {
    trustProxy: config.trustProxy,
    ...(config.oidc.mode === 'external' ? { externalIssuer: config.oidc.issuer } : {}),
    stripe: config.payments.provider === 'stripe',
    ...(config.bankLink.provider === 'plaid' ? { plaid: config.bankLink.environment } : {}),
  })
  await app.register(formbody)
  await app.register(middie)
  await registerOpenApi(app, { publicUrl: config.publicUrl })

  let verify = options.verifyAccessToken
  app.decorate('embeddedSigningKey', null)
  if (config.oidc.mode === 'embedded') {
    const embedded = await mountEmbeddedOidc(app, { config, db: database.db, mailer: providers.mailer, sentMail: providers.devMailbox })
    app.embeddedSigningKey = embedded.privateSigningKey
    verify ??= createAccessTokenVerifier({
      issuer: embedded.issuer,
      audience: config.oidc.audience,
      keys: { jwks: embedded.jwks },
    })
  }
  verify ??= createAccessTokenVerifier({
    issuer: config.oidc.issuer,
    audience: config.oidc.audience,
    keys: { jwksUri: await discoverJwksUri(config.oidc.issuer) },
  })
  registerAuthentication(app, {
    verify: rememberVerifiedTokens(verify),
    admins: { emails: config.adminEmails, requireMfa: config.adminRequireMfa },
  })
  registerIdempotency(app, { policy: config.onlinePolicy, publicUrl: config.publicUrl })
  // Per-route limits (join codes and sign-in are guessable secrets); off unless a route asks.
  // Counted in the database, so several server processes share every limit.
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(database.db, clock) })
  const purge = setInterval(() => {
    purgeRateLimits(database.db, clock.now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge old rate-limit counters'),
    )
    purgeExpiredPartnerEvents(database.db, clock.now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge partner events older than the feed keeps'),
    )
  }, 3_600_000)
  purge.unref()
  app.addHook('onClose', async () => clearInterval(purge))

  // Each route plugin under a name of its own (named-plugin.ts says why).
  const transactionDepsOf = () => transactionDeps
  await app.register(
    named('api-v1', async (api) => {
      await api.register(named('health-routes', healthRoutes))
      await api.register(named('client-config-routes', clientConfigRoutes))
      await api.register(named('partner-client-routes', partnerClientRoutes))
      await api.register(named('guided-tour-routes', guidedTourRoutes))
      await api.register(named('me-routes', meRoutes))
      await api.register(named('passkey-routes', passkeyRoutes))
      await api.register(named('totp-routes', totpRoutes))
      await api.register(named('batch-routes', batchRoutes))
      await api.register(named('profile-routes', profileRoutes))
      await api.register(named('bank-account-routes', bankAccountRoutes))
      await api.register(named('verification-routes', verificationRoutes))
      await api.register(named('admin-ledger-routes', adminLedgerRoutes))
      await api.register(named('admin-backup-routes', adminBackupRoutes(database)))
      await api.register(named('admin-outbox-retry-routes', adminOutboxRetryRoutes))
      await api.register(named('reconciliation-routes', reconciliationRoutes))
      const sandboxDisputes = providers.paymentSide.provider === 'sandbox' ? providers.paymentSide.sandbox.disputes : null
      await api.register(named('chargeback-routes', chargebackRoutes(transactionDepsOf, sandboxDisputes)))
      await api.register(named('admin-audit-routes', adminAuditRoutes))
      await api.register(named('admin-client-routes', adminClientRoutes))
      await api.register(named('webhook-routes', webhookRoutes))
      await api.register(named('dev-mailbox-routes', devMailboxRoutes(providers.devMailbox)))
      await api.register(named('supported-carriers-routes', supportedCarriersRoutes))
      await api.register(named('kind-routes', kindRoutesPlugin(transactionDepsOf)))
      await api.register(named('quote-routes', quoteRoutes()))
      await api.register(named('join-routes', joinRoutes(transactionDepsOf)))
      await api.register(named('details-routes', detailsRoutes(transactionDepsOf)))
      await api.register(named('guest-routes', guestRoutes(transactionDepsOf)))
      await api.register(named('partner-transaction-routes', partnerTransactionRoutes(transactionDepsOf)))
      const verificationDeps = {
        db: database.db,
        clock,
        connectedAccounts: providers.connectedAccounts,
        identity: providers.identity,
        method: config.verificationMethod,
      }
      const paymentDeps = () => ({
        ...transactionDeps,
        config,
        payments: providers.payments,
        isIdentityVerified: (userId: string) => isIdentityVerified(verificationDeps, userId),
      })
      await api.register(named('payment-routes', paymentRoutes(paymentDeps)))
      await api.register(named('action-routes', actionRoutes(paymentDeps)))
      await api.register(named('case-routes', caseRoutes()))
      await api.register(named('case-file-routes', caseFileRoutes()))
      await api.register(named('receipt-routes', receiptRoutes()))
      await api.register(named('message-routes', messageRoutes(transactionDepsOf, providers.documents, providers.jobs)))
      await api.register(named('listing-routes', listingRoutes(paymentDeps)))
      await api.register(named('admin-transaction-routes', adminTransactionRoutes(transactionDepsOf)))
      await api.register(named('verify-routes', verifyRoutes))
    }),
    { prefix: '/api/v1' },
  )
  await app.register(named('contact-routes', contactRoutes))
  await stopInvitationsRoutes(app)
  await optOutRoutes(app)
  await app.register(named('balance-routes', balanceRoutes))
  await registerProviderRoutes(app, providers, clock)
  await faviconRoute(app)
  await registerWebApp(app, { distDir: options.webDistDir ?? defaultWebDist })
  return app
}
