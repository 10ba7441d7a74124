import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/database.ts'
import { migrateToLatest } from './db/migrations.ts'
import { mintAccessToken, readSigningKeyFile } from './oidc/token-minter.ts'

const usage = `Usage: npm run cli -- <command>

Commands:
  token <email> [--admin] [--first-name NAME] [--last-name NAME]
        Prints an access token for that user (embedded sign-in only). The API
        creates the user from the token on first use. Works while the server runs.
  migrate
        Runs the database migrations (the server also runs them at start-up).
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
    default:
      process.stderr.write(usage)
      return command === undefined || command === 'help' ? 0 : 2
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error)
    process.exit(1)
  },
)
