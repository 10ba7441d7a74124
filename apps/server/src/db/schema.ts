import type { ColumnType, Generated } from 'kysely'

/** Table types for Kysely. Migrations in ./migrations are the source of truth. */
export interface UsersTable {
  id: Generated<string>
  issuer: string
  subject: string
  email: string
  first_name: ColumnType<string, string | undefined, string>
  last_name: ColumnType<string, string | undefined, string>
  roles: ColumnType<string[], string[] | undefined, string[]>
  locale: string | null
  created_at: ColumnType<Date, Date | undefined, never>
  updated_at: ColumnType<Date, Date | undefined, Date>
}

/** Accounts of the embedded sign-in provider (credentials live only here). */
export interface AccountsTable {
  id: string
  email: string
  password_hash: string
  first_name: string
  last_name: string
  locale: string | null
  created_at: ColumnType<Date, Date | undefined, never>
}

/** oidc-provider's storage: sessions, grants, codes, tokens, interactions. */
export interface OidcPayloadsTable {
  model: string
  id: string
  payload: ColumnType<Record<string, unknown>, string, string>
  grant_id: string | null
  user_code: string | null
  uid: string | null
  expires_at: Date | null
  consumed_at: Date | null
}

/** Long-lived secrets generated on first start (signing keys, cookie keys). */
export interface ServerSecretsTable {
  name: string
  value: ColumnType<unknown, string, string>
  created_at: ColumnType<Date, Date | undefined, never>
}

/** Recent sign-in attempts of the embedded provider (throttle per account). */
export interface SignInAttemptsTable {
  id: Generated<string>
  account_key: string
  attempted_at: Date
}

export interface Database {
  users: UsersTable
  accounts: AccountsTable
  oidc_payloads: OidcPayloadsTable
  server_secrets: ServerSecretsTable
  sign_in_attempts: SignInAttemptsTable
}
