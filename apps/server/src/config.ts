import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TransactionPolicy } from '@pactum/domain/transactions/kernel'
import { z } from 'zod'
import { type BankLinkConfig, loadBankLinkConfig } from './bank-link-config.ts'
import { type CrashPointSetting, crashPointNames } from './crash-points.ts'
import { type DocumentsConfig, loadDocumentsConfig } from './document-storage-config.ts'
import { loadMailConfig, type MailConfig } from './mail-config.ts'
import { loadTrackingConfig, type TrackingConfig } from './tracking-config.ts'
import { type PasswordCost, passwordCost } from './modules/sign-in/oidc/passwords.ts'
import { parseTrustProxy, type TrustProxy } from './trust-proxy.ts'

/** How PostgreSQL statements are sent: DATABASE_PREPARED_STATEMENTS (README, docs/deployment.md). */
export type PreparedStatementsMode = 'on' | 'pooled' | 'off'

/**
 * Every setting comes from the environment through this one module, checked
 * once at start-up; a bad configuration fails listing every problem at once.
 * Nothing else reads process.env.
 */
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value)
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional())
const commaList = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    ),
)

function seconds(fallback: number) {
  return z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(31_536_000).default(fallback))
}

/** A limit: how many in its window (at least one; a limit of nothing would lock everyone out). */
function limit(fallback: number) {
  return z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(fallback))
}

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** A streaming replica of DATABASE_URL for lists, the admin console's lists and the verification page (db/replica-reads.ts). */
  DATABASE_READ_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATABASE_PREPARED_STATEMENTS: z.preprocess(emptyAsUndefined, z.enum(['on', 'pooled', 'off']).default('on')),
  BACKGROUND_JOBS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('on')),
  JOB_QUEUE_CONNECTIONS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).optional()),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().default('false')).transform((value, context) => {
    const parsed = parseTrustProxy(value)
    if ('problem' in parsed) {
      context.addIssue({ code: 'custom', message: parsed.problem })
      return z.NEVER
    }
    return parsed.setting
  }),
  OIDC_ISSUER: z.preprocess(emptyAsUndefined, z.url().optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_AUDIENCE: optionalString,
  ADMIN_EMAILS: commaList,
  // On unless said otherwise: the admin role moves money, so it asks for a second factor.
  ADMIN_REQUIRE_MFA: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('true')).transform((value) => value === 'true'),
  SUPPORT_EMAIL: z.preprocess(emptyAsUndefined, z.email().default('support@pactum.example')),
  // Off unless said: a partner's webhook URL may not reach this server's own network (SSRF).
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')).transform((value) => value === 'true'),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalString,
  /** Prometheus metrics at GET /metrics on this port (off unless set; 0: any free port), never the public one. */
  METRICS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65_535).optional()),
  METRICS_HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
  /** Traces over OTLP/HTTP to this collector (off unless set; the SDK is loaded only then: tracing/start-tracing.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  OTEL_SERVICE_NAME: z.preprocess(emptyAsUndefined, z.string().default('pactum')),
  /** Scheduled backups of the embedded database into this directory (off unless set; docs/operations.md). */
  BACKUP_DIR: optionalString,
  BACKUP_EVERY_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(720).default(24)),
  BACKUP_KEEP: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(7)),
  /** The outbox's calls to the payment provider, a second, across every process (Stripe live allows 100 requests a second). */
  PROVIDER_MAX_REQUESTS_PER_SECOND: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(90)),
  /** The outbox's calls to any one of the provider's endpoints (`POST /v1/transfers`), a second, across every process (Stripe: 25 unless raised). */
  PROVIDER_MAX_ENDPOINT_REQUESTS_PER_SECOND: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(22)),
  /** The sandbox answers rate_limit (429) beyond this many writes a second, as Stripe does beyond its limit. */
  SANDBOX_MAX_REQUESTS_PER_SECOND: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(100)),
  /** The same for any one endpoint (Stripe's default: 25 a second on each endpoint unless noted). */
  SANDBOX_MAX_ENDPOINT_REQUESTS_PER_SECOND: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(25)),
  SANDBOX_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16).optional()),
  SANDBOX_SEPA_DELAY_SECONDS: seconds(10),
  SANDBOX_REFUND_DELAY_SECONDS: seconds(5),
  SANDBOX_DISPUTE_DELAY_SECONDS: seconds(10),
  SANDBOX_DOCUMENT_CHECK_SECONDS: seconds(10),
  SANDBOX_PAYOUT_DELAY_SECONDS: seconds(86_400),
  SANDBOX_PAYOUT_ARRIVAL_SECONDS: seconds(86_400),
  IDENTITY_VERIFICATION_METHOD: z.preprocess(emptyAsUndefined, z.enum(['legacy', 'stripe_identity']).default('legacy')),
  SANDBOX_TRACKING_IN_TRANSIT_SECONDS: seconds(30),
  SANDBOX_TRACKING_DELIVERED_SECONDS: seconds(120),
  COMPLAINT_PERIOD_SECONDS: seconds(86_400),
  /** The seller's response window once a complaint opens a case (issue 32). */
  CASE_RESPONSE_SECONDS: seconds(259_200),
  /** Money held longer than this many days is listed for admins (issue 34): a sale that should have ended by then. */
  HOLD_ALERT_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(60)),
  SIGN_IN_WINDOW_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(60).max(86_400).default(900)),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: limit(5),
  SIGN_IN_MAX_FAILURES_PER_CLIENT: limit(30),
  SIGN_IN_MAX_FAILURES_PER_DEVICE: limit(10),
  SIGN_IN_ALERT_AFTER_FAILURES: limit(10),
  PASSWORD_RESETS_PER_ADDRESS_PER_HOUR: limit(3),
  PASSWORD_RESETS_PER_CLIENT_PER_HOUR: limit(10),
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: limit(3),
  REGISTRATIONS_PER_CLIENT_PER_HOUR: limit(20),
  TRACKING_DEADLINE_SECONDS: seconds(345_600),
  COMPANY_EMAIL_DOMAIN: z.preprocess(emptyAsUndefined, z.string().toLowerCase().optional()),
  PARTNER_EMAIL_DOMAINS: commaList,
  CLIENTS_FILE: optionalString,
  INVITATIONS_PER_SENDER_PER_HOUR: limit(20),
  INVITATIONS_PER_SENDER_PER_DAY: limit(60),
  INVITATIONS_PER_CLIENT_PER_HOUR: limit(600),
  INVITATIONS_PER_CLIENT_PER_DAY: limit(5000),
  INVITATIONS_PER_RECIPIENT_PER_DAY: limit(10),
  TRANSACTION_CREATES_PER_HOUR: limit(300),
  LISTING_CREATES_PER_HOUR: limit(300),
  LIST_READS_PER_MINUTE: limit(300),
  PARTNER_REQUESTS_PER_MINUTE: limit(300),
  CRASH_POINT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        new RegExp(`^(${crashPointNames.map((name) => name.replace('.', '\\.')).join('|')})(:[1-9][0-9]{0,5})?$`),
        `one of ${crashPointNames.join(', ')}, optionally followed by :n (crash the n-th time)`,
      )
      .optional(),
  ),
})

export interface SignInConfig {
  /** How long a failed sign-in counts. */
  windowSeconds: number
  /** Failures per (address, client address) within the window, from a browser not known to the account. */
  maxFailuresPerAddress: number
  /** Failures per client address within the window, over every address tried. */
  maxFailuresPerClient: number
  /** Failures per known browser (signed device cookie) within the window, wherever it is. */
  maxFailuresPerDevice: number
  /** Failures against one account within the window after which its owner is e-mailed (once per burst). */
  alertAfterFailures: number
  /** Reset links e-mailed per address, and reset requests per client address, in an hour. */
  resetsPerAddressPerHour: number
  resetsPerClientPerHour: number
  /**
   * E-mails a registration sends to one address in an hour (the link, or the
   * owner's notice when the address has an account), and registrations per
   * client address in an hour: each one makes Pactum e-mail an address someone typed.
   */
  registrationsPerAddressPerHour: number
  registrationsPerClientPerHour: number
  /**
   * What a new password's hash costs: `passwordCost` always, read from no
   * variable, so that no setting can weaken it. The test app alone gives its
   * accounts a cheaper one (testing/test-app.ts).
   */
  passwordCost: PasswordCost
}

export type OidcConfig =
  | { mode: 'embedded'; issuer: string; clientId: string; audience: string }
  | { mode: 'external'; issuer: string; clientId: string; audience: string }

export interface Config {
  port: number
  host: string
  publicUrl: string
  dataDir: string
  databaseUrl: string | undefined
  /**
   * A streaming replica of `databaseUrl` (DATABASE_READ_URL): lists, the admin console's lists and the
   * verification page read there once it has replayed what the primary had committed (db/replica-reads.ts).
   */
  databaseReadUrl: string | undefined
  /**
   * Whether this process runs the background work (timers, the outbox's provider calls, e-mails, the
   * sandbox's and the carrier's jobs): BACKGROUND_JOBS=off makes a process that only answers requests,
   * beside another that runs them on the same PostgreSQL (decision 125). It still enqueues jobs.
   */
  backgroundJobs: boolean
  /**
   * PostgreSQL only: the most connections the job queue's own pool opens (JOB_QUEUE_CONNECTIONS; unset,
   * the queue's default), beside the requests' pool of 10. Its workers poll side by side, so soon after
   * start-up it has them all open.
   */
  jobQueueConnections: number | undefined
  /**
   * PostgreSQL only (db/prepared-statements.ts): `on` names the frequent statements so each connection
   * prepares them once and has their answers described once; `pooled` still names them but has every
   * answer described (behind a transaction-mode pooler that keeps prepared statements); `off` names none.
   */
  preparedStatements: PreparedStatementsMode
  logLevel: string
  /** Who may say who the client is (trust-proxy.ts): true, false, or the proxies' addresses. */
  trustProxy: TrustProxy
  /** The embedded sign-in's throttles and recovery limits (modules/sign-in/oidc/sign-in-throttle.ts, modules/sign-in/oidc/password-reset.ts). */
  signIn: SignInConfig
  oidc: OidcConfig
  adminEmails: string[]
  /**
   * Whether ADMIN_EMAILS gives the admin role only to a sign-in with a second
   * factor (the token's `amr` holds `mfa`, modules/sign-in/oidc/authentication-methods.ts).
   */
  adminRequireMfa: boolean
  supportEmail: string
  /** Whether partner webhooks may go to private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE; development and tests). */
  webhookAllowPrivate: boolean
  /** Outgoing e-mail: the file mailer (DATA_DIR/mail) unless SMTP_URL is set (mail-config.ts). */
  mail: MailConfig
  /** Identity documents: local files (DATA_DIR/sandbox-files) unless S3_BUCKET is set, and their retention (document-storage-config.ts). */
  documents: DocumentsConfig
  /** Online transaction timers (DESIGN §3). */
  onlinePolicy: TransactionPolicy
  /** Days after which money still held is listed for admins (HOLD_ALERT_DAYS, issue 34). */
  holdAlertDays: number
  /** Who gets every currency and method (company) or also MYR (partners), DESIGN §2. */
  emailDomains: { company: string | undefined; partners: string[] }
  payments: PaymentsConfig
  /** The outbox's provider calls a second, every process together (adapters/payment-provider/provider-pace.ts). */
  providerMaxRequestsPerSecond: number
  /** PROVIDER_MAX_ENDPOINT_REQUESTS_PER_SECOND: the same on any one endpoint of the provider's. */
  providerMaxEndpointRequestsPerSecond: number
  /** Where GET /metrics is served (metrics/metrics-server.ts); undefined: nowhere. */
  metrics: { port: number; host: string } | undefined
  /** Where spans are sent (tracing/start-tracing.ts); undefined: no traces, and no OpenTelemetry module loaded. */
  tracing: TracingConfig | undefined
  /** Scheduled backups of the embedded database (backup/scheduled-backups.ts); undefined: none. */
  backups: { dir: string; everyHours: number; keep: number } | undefined
  /** How users prove who they are (spec §3 Verification): document upload, or the provider's Identity session. */
  verificationMethod: 'legacy' | 'stripe_identity'
  /** Parcel tracking: the sandbox tracker unless TRACKING_API_KEY is set (tracking-config.ts). */
  tracking: TrackingConfig
  /** Bank linking for US sellers: the sandbox link screen unless PLAID_CLIENT_ID / PLAID_SECRET are set (bank-link-config.ts). */
  bankLink: BankLinkConfig
  /** Limits on abuse (README, Configuration): what makes Pactum e-mail someone, and each user's and partner's pace. */
  limits: LimitsConfig
  /** The partner clients' configuration file, seeded into the database at start-up (spec §1). */
  clientsFile: string
  /** For the crash harness only (crash-points.ts); never set in production. */
  crashPoint: CrashPointSetting | undefined
}

export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_ENDPOINT with the signal's path, `/v1/traces`, appended (as the OTLP specification says). */
  tracesUrl: string
  /** The spans' `service.name` (OTEL_SERVICE_NAME, default `pactum`). */
  serviceName: string
}

export interface LimitsConfig {
  /**
   * Invitation e-mails: per signed-in sender and per partner client (hour
   * and day), and per recipient address across all senders (day).
   */
  invitations: { perSenderHour: number; perSenderDay: number; perClientHour: number; perClientDay: number; perRecipientDay: number }
  /** Per user: transaction creates (online, face-to-face, purchases from listings), listing creates, reads of their lists. */
  transactionCreatesPerHour: number
  listingCreatesPerHour: number
  listReadsPerMinute: number
  /** Per partner client (its API key), every call. */
  partnerRequestsPerMinute: number
}

/** The repository's own clients file (with the demo client), wherever the server is started from. */
export const defaultClientsFile = fileURLToPath(new URL('../../../config/clients.json', import.meta.url))

/**
 * The payment provider: the sandbox unless Stripe's secret key is set.
 * The sandbox's webhook secret, when not given, is generated once and kept
 * in the database (server_secrets), never in the repository.
 */
export type PaymentsConfig =
  | {
      provider: 'sandbox'
      publishableKey: string
      webhookSecret: string | undefined
      sepaDelaySeconds: number
      refundDelaySeconds: number
      /** How long after a payment with the dispute test card its dispute (or fraud warning) comes. */
      disputeDelaySeconds: number
      /** How long the simulated identity checks take (documents and Identity sessions). */
      documentCheckSeconds: number
      /** The payout schedule: a run this long after money lands; arrival this long after the run. */
      payoutDelaySeconds: number
      payoutArrivalSeconds: number
      /** Beyond this many payment and money writes a second the sandbox answers rate_limit, as Stripe does. */
      maxRequestsPerSecond: number
      /** The same on any one endpoint. */
      maxEndpointRequestsPerSecond: number
    }
  | {
      provider: 'stripe'
      secretKey: string
      publishableKey: string
      webhookSecret: string
      /** Stripe's API unless STRIPE_API_URL points elsewhere (a proxy, the tests' fake). */
      api: { host: string; port: number; protocol: 'http' | 'https' } | undefined
    }

export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

/** The embedded sign-in's web client and API audience. */
export const embeddedClientId = 'pactum-app'
export const embeddedAudience = 'pactum-api'

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env)
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`)
  problems.push(...externalOidcProblems(env), ...stripeProblems(env), ...readReplicaProblems(env), ...backgroundJobsProblems(env))
  const mail = loadMailConfig(env, parsed.success ? parsed.data.SUPPORT_EMAIL : '')
  problems.push(...mail.problems)
  const documents = loadDocumentsConfig(env)
  problems.push(...documents.problems)
  const tracking = loadTrackingConfig(env, {
    inTransitSeconds: parsed.success ? parsed.data.SANDBOX_TRACKING_IN_TRANSIT_SECONDS : 0,
    deliveredSeconds: parsed.success ? parsed.data.SANDBOX_TRACKING_DELIVERED_SECONDS : 0,
  })
  problems.push(...tracking.problems)
  const bankLink = loadBankLinkConfig(env)
  problems.push(...bankLink.problems)
  if (!parsed.success || problems.length > 0 || !mail.mail || !documents.documents || !tracking.tracking || !bankLink.bankLink) {
    throw new ConfigError(problems)
  }
  const values = parsed.data
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '')
  const oidc: OidcConfig =
    values.OIDC_ISSUER && values.OIDC_CLIENT_ID && values.OIDC_AUDIENCE
      ? {
          mode: 'external',
          issuer: values.OIDC_ISSUER,
          clientId: values.OIDC_CLIENT_ID,
          audience: values.OIDC_AUDIENCE,
        }
      : { mode: 'embedded', issuer: `${publicUrl}/oidc`, clientId: embeddedClientId, audience: embeddedAudience }
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    databaseReadUrl: values.DATABASE_READ_URL,
    backgroundJobs: values.BACKGROUND_JOBS === 'on',
    jobQueueConnections: values.JOB_QUEUE_CONNECTIONS,
    preparedStatements: values.DATABASE_PREPARED_STATEMENTS,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    signIn: {
      windowSeconds: values.SIGN_IN_WINDOW_SECONDS,
      maxFailuresPerAddress: values.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
      maxFailuresPerClient: values.SIGN_IN_MAX_FAILURES_PER_CLIENT,
      maxFailuresPerDevice: values.SIGN_IN_MAX_FAILURES_PER_DEVICE,
      alertAfterFailures: values.SIGN_IN_ALERT_AFTER_FAILURES,
      resetsPerAddressPerHour: values.PASSWORD_RESETS_PER_ADDRESS_PER_HOUR,
      resetsPerClientPerHour: values.PASSWORD_RESETS_PER_CLIENT_PER_HOUR,
      registrationsPerAddressPerHour: values.REGISTRATIONS_PER_ADDRESS_PER_HOUR,
      registrationsPerClientPerHour: values.REGISTRATIONS_PER_CLIENT_PER_HOUR,
      passwordCost,
    },
    oidc,
    adminEmails: values.ADMIN_EMAILS,
    adminRequireMfa: values.ADMIN_REQUIRE_MFA,
    webhookAllowPrivate: values.WEBHOOK_ALLOW_PRIVATE,
    supportEmail: values.SUPPORT_EMAIL,
    mail: mail.mail,
    documents: documents.documents,
    onlinePolicy: {
      complaintPeriodSeconds: values.COMPLAINT_PERIOD_SECONDS,
      trackingDeadlineSeconds: values.TRACKING_DEADLINE_SECONDS,
      caseResponseSeconds: values.CASE_RESPONSE_SECONDS,
    },
    holdAlertDays: values.HOLD_ALERT_DAYS,
    emailDomains: { company: values.COMPANY_EMAIL_DOMAIN, partners: values.PARTNER_EMAIL_DOMAINS },
    payments: values.STRIPE_SECRET_KEY
      ? {
          provider: 'stripe',
          secretKey: values.STRIPE_SECRET_KEY,
          publishableKey: values.STRIPE_PUBLISHABLE_KEY ?? '',
          webhookSecret: values.STRIPE_WEBHOOK_SECRET ?? '',
          api: values.STRIPE_API_URL ? stripeApi(values.STRIPE_API_URL) : undefined,
        }
      : {
          provider: 'sandbox',
          publishableKey: values.STRIPE_PUBLISHABLE_KEY ?? 'pk_sandbox_pactum',
          webhookSecret: values.SANDBOX_WEBHOOK_SECRET,
          sepaDelaySeconds: values.SANDBOX_SEPA_DELAY_SECONDS,
          refundDelaySeconds: values.SANDBOX_REFUND_DELAY_SECONDS,
          disputeDelaySeconds: values.SANDBOX_DISPUTE_DELAY_SECONDS,
          documentCheckSeconds: values.SANDBOX_DOCUMENT_CHECK_SECONDS,
          payoutDelaySeconds: values.SANDBOX_PAYOUT_DELAY_SECONDS,
          payoutArrivalSeconds: values.SANDBOX_PAYOUT_ARRIVAL_SECONDS,
          maxRequestsPerSecond: values.SANDBOX_MAX_REQUESTS_PER_SECOND,
          maxEndpointRequestsPerSecond: values.SANDBOX_MAX_ENDPOINT_REQUESTS_PER_SECOND,
        },
    providerMaxRequestsPerSecond: values.PROVIDER_MAX_REQUESTS_PER_SECOND,
    providerMaxEndpointRequestsPerSecond: values.PROVIDER_MAX_ENDPOINT_REQUESTS_PER_SECOND,
    metrics: values.METRICS_PORT === undefined ? undefined : { port: values.METRICS_PORT, host: values.METRICS_HOST },
    tracing: values.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { tracesUrl: `${values.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`, serviceName: values.OTEL_SERVICE_NAME }
      : undefined,
    backups: values.BACKUP_DIR
      ? { dir: path.resolve(values.BACKUP_DIR), everyHours: values.BACKUP_EVERY_HOURS, keep: values.BACKUP_KEEP }
      : undefined,
    verificationMethod: values.IDENTITY_VERIFICATION_METHOD,
    tracking: tracking.tracking,
    bankLink: bankLink.bankLink,
    limits: {
      invitations: {
        perSenderHour: values.INVITATIONS_PER_SENDER_PER_HOUR,
        perSenderDay: values.INVITATIONS_PER_SENDER_PER_DAY,
        perClientHour: values.INVITATIONS_PER_CLIENT_PER_HOUR,
        perClientDay: values.INVITATIONS_PER_CLIENT_PER_DAY,
        perRecipientDay: values.INVITATIONS_PER_RECIPIENT_PER_DAY,
      },
      transactionCreatesPerHour: values.TRANSACTION_CREATES_PER_HOUR,
      listingCreatesPerHour: values.LISTING_CREATES_PER_HOUR,
      listReadsPerMinute: values.LIST_READS_PER_MINUTE,
      partnerRequestsPerMinute: values.PARTNER_REQUESTS_PER_MINUTE,
    },
    clientsFile: values.CLIENTS_FILE ? path.resolve(values.CLIENTS_FILE) : defaultClientsFile,
    crashPoint: values.CRASH_POINT ? parseCrashPoint(values.CRASH_POINT) : undefined,
  }
}

/** `name` or `name:n`, already checked against the known names by the schema. */
function parseCrashPoint(value: string): CrashPointSetting {
  const [name, nth] = value.split(':')
  return { name: name as CrashPointSetting['name'], nth: nth ? Number(nth) : 1 }
}

/** Stripe needs its three keys together (the secret key selects it); STRIPE_API_URL only with them. */
function stripeProblems(env: Record<string, string | undefined>): string[] {
  if (!env.STRIPE_SECRET_KEY) return env.STRIPE_API_URL ? ['STRIPE_API_URL: only used with STRIPE_SECRET_KEY, which is not set'] : []
  const missing = (['STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter((name) => !env[name])
  const problems = missing.map((name) => `${name}: required when STRIPE_SECRET_KEY is set`)
  // The keys' form and mode are the doctor's to report (doctor/checks/payments.ts): start-up only needs them present.
  if (env.STRIPE_API_URL && !stripeApi(env.STRIPE_API_URL)) {
    problems.push('STRIPE_API_URL: expected https://host[:port] (plain http only for localhost), without a path, query or credentials')
  }
  return problems
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Where the Stripe SDK sends its requests (`new Stripe(key, { host, port, protocol })`); undefined when the URL will not do. */
function stripeApi(value: string): { host: string; port: number; protocol: 'http' | 'https' } | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined
  const secure = url.protocol === 'https:'
  if (!secure && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) return undefined
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    protocol: secure ? 'https' : 'http',
  }
}

/** A replica is a copy of the PostgreSQL primary: without DATABASE_URL (the embedded PGlite) there is nothing to copy. */
function readReplicaProblems(env: Record<string, string | undefined>): string[] {
  if (!env.DATABASE_READ_URL || env.DATABASE_URL) return []
  return ['DATABASE_READ_URL: a replica of DATABASE_URL, which is not set (the embedded database has no replica)']
}

/** On the embedded database no other process can run the jobs: one that does not would leave them waiting forever. */
function backgroundJobsProblems(env: Record<string, string | undefined>): string[] {
  if (env.BACKGROUND_JOBS !== 'off' || env.DATABASE_URL) return []
  return [
    'BACKGROUND_JOBS: off needs DATABASE_URL (another process on the same PostgreSQL runs the jobs; the embedded database has no other)',
  ]
}

/** The external sign-in needs all three of its variables, or none. */
function externalOidcProblems(env: Record<string, string | undefined>): string[] {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_AUDIENCE'] as const
  const missing = names.filter((name) => !env[name])
  if (missing.length === 0 || missing.length === names.length) return []
  return missing.map((name) => `${name}: required when any of ${names.join(', ')} is set`)
}
