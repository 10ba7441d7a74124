import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { type BackupKind, backupDatabase, backupKindOf, restorePglite, restorePostgres } from './backup/backup.ts'
import { issueApiKey } from './modules/partner-clients/partner-api-key.ts'
import { recordClientChange } from './modules/partner-clients/client-changes-repository.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/database.ts'
import { migrateToLatest } from './db/migrations.ts'
import { runDoctor } from './doctor/doctor.ts'
import { formatReport, hasFailures } from './doctor/report.ts'
import { type LedgerBreach, verifyLedger } from './ledger/verify-ledger.ts'
import { mintAccessToken, readSigningKeyFile } from './modules/sign-in/oidc/token-minter.ts'
import { type ReconciliationDay, type ReconciliationDifference, reconciliationDateSchema } from '@pactum/contracts/reconciliation'
import { sandboxBalanceMovements } from './adapters/payment-provider/sandbox-balance.ts'
import { createStripeClient } from './adapters/payment-provider/stripe-client.ts'
import { StripePayments } from './adapters/payment-provider/stripe-payments.ts'
import { reconcileDay, yesterdayOf } from './modules/reconciliation/reconcile-day.ts'
import { findDay } from './modules/reconciliation/reconciliation-repository.ts'
import { toDayView } from './modules/reconciliation/reconciliation-view.ts'

const usage = `Usage: npm run cli -- <command>

Commands:
  token <email> [--admin] [--first-name NAME] [--last-name NAME]
        Prints an access token for that user (embedded sign-in only). The API
        creates the user from the token on first use. Works while the server runs.
        The operator vouches for the address: the token says it is confirmed,
        and a later sign-up with that address must confirm it before it can
        reach this user's data.
  migrate
        Runs the database migrations (the server also runs them at start-up).
  client api-key <client_id> [--name NAME]
        Issues a new API key for a partner client (creating a bare client
        with that id if there is none) and prints it once; only its hash is
        kept, and the previous key stops working. The partner sends it in the
        X-Pactum-Api-Key header (docs/decisions/049-guest-transactions.md, guest transactions).
        Opens the database: with the embedded one, stop the server first.
  doctor
        Checks the configured providers (payments, bank accounts, tracking,
        e-mail, documents, database, sign-in): which are sandbox and which
        are real, the keys' form and mode, secrets present, and each real
        service answering (nothing is sent or charged). Exits 1 if a check
        fails. docs/providers.md says what to set for each.
  ledger verify
        Checks the ledger invariants; exits 1 listing every breach. With the
        embedded database and a running server, asks that server (a PGlite
        directory can be opened by one process at a time).
  backup <file>
        A consistent copy of the database while the server runs: with the
        embedded one, its data directory as a gzipped tar, asked of the
        running server (or taken directly when it is stopped); with
        PostgreSQL, pg_dump's custom format. docs/operations.md.
  restore <file> (--data-dir <dir> | --database-url <url>)
        Builds a new place from a backup, never over an existing one: a new
        data directory (PGlite backups) or an empty PostgreSQL database
        (pg_dump backups). Start the server on it to check it.
  outbox retry <id>
        Sends a pending outbox call (a transfer, refund or reversal whose job
        gave up) to the payment provider again, with its idempotency key.
        Asks the running server. docs/operations.md, "Outbox failing".
  reconcile [--date YYYY-MM-DD]
        Compares a UTC day (yesterday unless given) of the ledger with the
        payment provider's balance, records the result for the admin
        console, and prints every difference; exits 1 if there is one.
        With the embedded database and a running server, asks that server.
        docs/decisions/107-daily-reconciliation.md.
`

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  const config = loadConfig(process.env)
  switch (command) {
    case 'token': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          admin: { type: 'boolean', default: false },
          'first-name': { type: 'string' },
          'last-name': { type: 'string' },
        },
      })
      const email = positionals[0]?.trim().toLowerCase()
      if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        console.error('token: give the e-mail address of the user, e.g. `npm run cli -- token anna@example.com`')
        return 2
      }
      if (config.oidc.mode !== 'embedded') {
        console.error('token: only with the embedded sign-in; ask your identity provider for a token instead')
        return 2
      }
      // The signing key is read from DATA_DIR, not the database, so that this
      // works while a running server holds the embedded database open.
      const privateSigningKey = await readSigningKeyFile(config.dataDir).catch(() => undefined)
      if (!privateSigningKey) {
        console.error(`token: no signing key in ${config.dataDir}; start the server once (npm start) to create it`)
        return 1
      }
      const token = await mintAccessToken({
        privateSigningKey,
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        clientId: config.oidc.clientId,
        email,
        // Whoever holds the signing key vouches for the address (issue 30, users.ts).
        emailVerified: true,
        ...(values['first-name'] ? { firstName: values['first-name'] } : {}),
        ...(values['last-name'] ? { lastName: values['last-name'] } : {}),
        admin: values.admin,
      })
      process.stdout.write(`${token}\n`)
      return 0
    }
    case 'migrate': {
      const database = await openDatabase(config)
      try {
        const applied = await migrateToLatest(database.db)
        console.warn(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'already up to date')
      } finally {
        await database.close()
      }
      return 0
    }
    case 'client': {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { name: { type: 'string' } } })
      const [action, clientId] = positionals
      if (action !== 'api-key' || !clientId || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(clientId)) {
        console.error('client: `npm run cli -- client api-key <client_id>`, the id in lower-case letters, digits and dashes')
        return 2
      }
      const database = await openDatabase(config)
      try {
        await migrateToLatest(database.db)
        const created = await database.db
          .insertInto('clients')
          .values({ id: clientId, name: values.name ?? clientId })
          .onConflict((conflict) => conflict.column('id').doNothing())
          .returning('id')
          .executeTakeFirst()
        if (created) await recordClientChange(database.db, { clientId, action: 'created', actor: { kind: 'operator' }, at: new Date() })
        process.stdout.write(`${await issueApiKey(database.db, clientId, { kind: 'operator' }, new Date())}\n`)
      } finally {
        await database.close()
      }
      return 0
    }
    case 'doctor': {
      const reports = await runDoctor(config)
      process.stdout.write(formatReport(reports))
      return hasFailures(reports) ? 1 : 0
    }
    case 'ledger': {
      if (rest[0] !== 'verify') {
        process.stderr.write(usage)
        return 2
      }
      const breaches = await ledgerBreaches(config)
      if (breaches.length === 0) {
        console.warn('ledger verified: every invariant holds')
        return 0
      }
      console.error(`ledger verification failed: ${breaches.length} breach(es)`)
      for (const breach of breaches) console.error(`- ${breach.rule} ${breach.transaction_id ?? ''}: ${breach.detail}`)
      return 1
    }
    case 'backup': {
      const file = rest[0]
      if (!file || rest.length > 1) {
        console.error('backup: `npm run cli -- backup <file>`')
        return 2
      }
      const kind = await backup(config, file)
      console.warn(`backed up the ${kind === 'pglite' ? 'embedded database' : 'PostgreSQL database'} to ${file}`)
      return 0
    }
    case 'restore': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' } },
      })
      const [file] = positionals
      if (!file || positionals.length > 1) {
        console.error('restore: `npm run cli -- restore <file> --data-dir <dir>` (or `--database-url <url>` for a pg_dump backup)')
        return 2
      }
      const kind = await backupKindOf(file)
      if (kind === 'pglite') {
        if (!values['data-dir']) {
          console.error('restore: a PGlite backup is restored into a new data directory: --data-dir <dir>')
          return 2
        }
        await restorePglite(file, values['data-dir'])
        console.warn(`restored into ${values['data-dir']}: start the server with DATA_DIR=${values['data-dir']}`)
      } else {
        if (!values['database-url']) {
          console.error('restore: a pg_dump backup is restored into an empty PostgreSQL database: --database-url <url>')
          return 2
        }
        await restorePostgres(file, values['database-url'])
        console.warn('restored: start the server with DATABASE_URL set to that database')
      }
      return 0
    }
    case 'outbox': {
      const [action, id] = rest
      if (action !== 'retry' || !id || rest.length > 2) {
        console.error('outbox: `npm run cli -- outbox retry <id>`')
        return 2
      }
      const response = await askRunningServer(config, 'outbox@cli.pactum.invalid', `/api/v1/admin/outbox/${encodeURIComponent(id)}/retry`, {
        method: 'POST',
      })
      if (!response) {
        console.error(
          'outbox retry: no server answered on PUBLIC_URL with the embedded sign-in (its key in DATA_DIR); start it, or call POST /api/v1/admin/outbox/{id}/retry with an admin token',
        )
        return 1
      }
      if (!response.ok) {
        console.error(`outbox retry: the server answered ${response.status} ${await response.text()}`)
        return 1
      }
      const answer = (await response.json()) as { status: string; requeued: boolean }
      console.warn(answer.requeued ? `outbox call ${id} queued to be sent again` : `outbox call ${id} was sent already: nothing to do`)
      return 0
    }
    case 'reconcile': {
      const { values } = parseArgs({ args: rest, options: { date: { type: 'string' } } })
      const day = values.date ?? yesterdayOf(new Date())
      if (!reconciliationDateSchema.safeParse(day).success) {
        console.error(`reconcile: --date takes a day as YYYY-MM-DD, not ${day}`)
        return 2
      }
      const result = await reconcile(config, day)
      const differences = result.differences.filter((difference) => difference.status === 'open')
      if (differences.length === 0) {
        console.warn(`reconciled ${day} with ${result.provider ?? 'the provider'}: no open difference`)
        return 0
      }
      console.error(`reconciliation of ${day} found ${differences.length} open difference(s):`)
      for (const difference of differences) console.error(`- ${describeDifference(difference)}`)
      return 1
    }
    default:
      process.stderr.write(usage)
      return command === undefined || command === 'help' ? 0 : 2
  }
}

async function ledgerBreaches(config: Config): Promise<LedgerBreach[]> {
  if (!config.databaseUrl && config.oidc.mode === 'embedded') {
    const fromServer = await ledgerBreachesFromRunningServer(config)
    if (fromServer) return fromServer
  }
  const database = await openDatabase(config)
  try {
    return await verifyLedger(database.db)
  } finally {
    await database.close()
  }
}

/** Asked of the running server when there is one (it holds the embedded directory, and runs pg_dump for PostgreSQL); otherwise made here. */
async function backup(config: Config, file: string): Promise<BackupKind> {
  if (config.oidc.mode === 'embedded') {
    const response = await askRunningServer(config, 'backup@cli.pactum.invalid', '/api/v1/admin/backup')
    if (response) {
      if (!response.ok) throw new Error(`the running server answered ${response.status} to the backup`)
      await mkdir(path.dirname(path.resolve(file)), { recursive: true })
      await writeFile(`${file}.partial`, Buffer.from(await response.arrayBuffer()))
      await rename(`${file}.partial`, file)
      return backupKindOf(file)
    }
  }
  const database = await openDatabase(config)
  try {
    return await backupDatabase(database, file)
  } finally {
    await database.close()
  }
}

/** Undefined when no server answers on PUBLIC_URL (then the database is free to open). */
async function ledgerBreachesFromRunningServer(config: Config): Promise<LedgerBreach[] | undefined> {
  const response = await askRunningServer(config, 'ledger-verify@cli.pactum.invalid', '/api/v1/admin/ledger/verify')
  if (!response) return undefined
  if (!response.ok) throw new Error(`the running server answered ${response.status} to the ledger check`)
  return ((await response.json()) as { breaches: LedgerBreach[] }).breaches
}

const sideText = (side: { amount: number; currency: string } | null) => (side ? `${side.amount} ${side.currency}` : 'nothing')

function describeDifference(difference: ReconciliationDifference): string {
  const transaction = difference.transaction_id ? ` (transaction ${difference.transaction_id})` : ''
  return `${difference.kind} ${difference.movement} ${difference.provider_id}${transaction}: ledger ${sideText(difference.ledger)}, provider ${sideText(difference.provider)}`
}

async function reconcile(config: Config, day: string): Promise<ReconciliationDay> {
  if (!config.databaseUrl && config.oidc.mode === 'embedded') {
    const fromServer = await reconcileOnRunningServer(config, day)
    if (fromServer) return fromServer
  }
  const database = await openDatabase(config)
  try {
    const settings = config.payments
    const payments =
      settings.provider === 'stripe'
        ? new StripePayments({ stripe: createStripeClient(settings), publishableKey: settings.publishableKey })
        : {
            name: 'sandbox' as const,
            listBalanceMovements: (range: { from: Date; to: Date }) => sandboxBalanceMovements(database.db, range),
          }
    await reconcileDay({ db: database.db, payments, now: new Date() }, day)
    return toDayView(day, await findDay(database.db, day))
  } finally {
    await database.close()
  }
}

/** Undefined when no server answers on PUBLIC_URL (then the database is free to open). */
async function reconcileOnRunningServer(config: Config, day: string): Promise<ReconciliationDay | undefined> {
  const response = await askRunningServer(config, 'reconcile@cli.pactum.invalid', '/api/v1/admin/reconciliation/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ date: day }),
  })
  if (!response) return undefined
  if (!response.ok) throw new Error(`the running server answered ${response.status} to the reconciliation`)
  return (await response.json()) as ReconciliationDay
}

/** An admin's call to the server on PUBLIC_URL, with a token signed by the embedded key; undefined when none answers. */
async function askRunningServer(config: Config, email: string, path: string, init: RequestInit = {}): Promise<Response | undefined> {
  const privateSigningKey = await readSigningKeyFile(config.dataDir).catch(() => undefined)
  if (!privateSigningKey) return undefined
  const token = await mintAccessToken({
    privateSigningKey,
    issuer: config.oidc.issuer,
    audience: config.oidc.audience,
    clientId: config.oidc.clientId,
    email,
    admin: true,
    ttlSeconds: 60,
  })
  try {
    return await fetch(`${config.publicUrl}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } })
  } catch {
    return undefined
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error)
    process.exit(1)
  },
)
