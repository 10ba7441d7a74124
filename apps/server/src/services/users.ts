import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { AccessTokenClaims } from '../auth/access-token-verifier.ts'
import type { Database } from '../db/schema.ts'

export interface CurrentUser {
  id: string
  issuer: string
  subject: string
  email: string
  firstName: string
  lastName: string
  roles: string[]
  /** Only a provider-verified address earns company or partner privileges. */
  emailVerified: boolean
  createdAt: Date
}

/**
 * Finds the user a verified token speaks for, creating the row on first use
 * (users are keyed by issuer + subject, so a token minted by the command line
 * or an external provider needs no prior registration here). Name and e-mail
 * follow the sign-in provider; roles combine the token's and ADMIN_EMAILS.
 * `interfaceLocale` is the language the request asks for (Accept-Language,
 * which the web app sets to its interface language): it is kept as the
 * user's locale, the language of their e-mails until they choose one.
 */
export async function findOrCreateUser(
  db: Kysely<Database>,
  claims: AccessTokenClaims,
  adminEmails: readonly string[],
  interfaceLocale?: Locale,
): Promise<CurrentUser> {
  const fromToken: ProfileClaims = {
    email: claims.email ?? '',
    first_name: claims.given_name ?? '',
    last_name: claims.family_name ?? '',
    locale: interfaceLocale ?? '',
  }
  let row = await db
    .selectFrom('users')
    .selectAll()
    .where('issuer', '=', claims.iss)
    .where('subject', '=', claims.sub)
    .executeTakeFirst()
  if (!row) {
    row = await db
      .insertInto('users')
      .values({ issuer: claims.iss, subject: claims.sub, ...fromToken, locale: interfaceLocale ?? null })
      .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doUpdateSet({ updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow()
  } else if (claimsChanged(row, fromToken)) {
    row = await db
      .updateTable('users')
      .set({ ...changedClaims(row, fromToken), updated_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }
  const tokenRoles = Array.isArray(claims.roles) ? claims.roles.filter((role) => typeof role === 'string') : []
  const roles = new Set([...row.roles, ...tokenRoles])
  if (row.email && adminEmails.includes(row.email.toLowerCase())) roles.add('admin')
  return {
    id: row.id,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    roles: [...roles].sort(),
    emailVerified: claims.email_verified === true,
    createdAt: row.created_at,
  }
}

type ProfileClaims = { email: string; first_name: string; last_name: string; locale: string | null }

/** An empty claim never overwrites what we know (some tokens carry no profile, some requests no language). */
function changedClaims(row: ProfileClaims, fromToken: ProfileClaims): Partial<ProfileClaims> {
  const changes: Partial<ProfileClaims> = {}
  for (const key of ['email', 'first_name', 'last_name', 'locale'] as const) {
    if (fromToken[key] && fromToken[key] !== row[key]) changes[key] = fromToken[key]
  }
  return changes
}

function claimsChanged(row: ProfileClaims, fromToken: ProfileClaims): boolean {
  return Object.keys(changedClaims(row, fromToken)).length > 0
}
