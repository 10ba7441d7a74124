import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { AccessTokenClaims } from './access-token-verifier.ts'
import { showsSecondFactor } from './oidc/authentication-methods.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { findUserBySubject, insertUser, updateUser } from './users-repository.ts'

export interface CurrentUser {
  id: string
  issuer: string
  subject: string
  email: string
  firstName: string
  lastName: string
  roles: string[]
  /**
   * Roles the address would bring once its owner proves it (ADMIN_EMAILS
   * for an unconfirmed address): the admin console says "confirm your
   * address first" instead of "not allowed".
   */
  pendingRoles: string[]
  /** What the person still has to do for the pending roles: prove the address, sign in with a second factor. */
  pendingRoleNeeds: PendingRoleNeed[]
  /** Only a provider-verified address earns company or partner privileges, and the ADMIN_EMAILS role. */
  emailVerified: boolean
  createdAt: Date
}

export type PendingRoleNeed = 'email_confirmation' | 'second_factor'

/** Who ADMIN_EMAILS makes admin, and whether only with a second factor (ADMIN_REQUIRE_MFA). */
export interface AdminList {
  emails: readonly string[]
  requireMfa: boolean
}

/**
 * Finds the user a verified token speaks for, creating the row on first use
 * (users are keyed by issuer + subject, so a token minted by the command line
 * or an external provider needs no prior registration here). Name and e-mail
 * follow the sign-in provider; roles combine the token's and ADMIN_EMAILS,
 * the latter only for an address the token says was proved and, unless
 * ADMIN_REQUIRE_MFA is off, a sign-in the token says took a second factor.
 * `interfaceLocale` is the language the request asks for (Accept-Language,
 * which the web app sets to its interface language): it is kept as the
 * user's locale, the language of their e-mails until they choose one.
 *
 * A row whose address was proved once belongs to whoever proved it: a later
 * token that does not prove the address is someone else who typed it (the
 * embedded sign-in derives the subject from the address, so registering an
 * address that a command-line token or a confirmed account used lands on
 * its row). Such a token is refused until that person confirms the address.
 * Tokens issued before the proof stay good until they expire: they are the
 * ones the owner held while confirming.
 */
export async function findOrCreateUser(
  db: Kysely<Database>,
  claims: AccessTokenClaims,
  admins: AdminList,
  interfaceLocale?: Locale,
  now: Date = new Date(),
): Promise<CurrentUser> {
  const emailVerified = claims.email_verified === true
  const fromToken: ProfileClaims = {
    email: claims.email ?? '',
    first_name: claims.given_name ?? '',
    last_name: claims.family_name ?? '',
    locale: interfaceLocale ?? '',
  }
  let row = await findUserBySubject(db, claims.iss, claims.sub)
  if (!row) {
    row = await insertUser(
      db,
      {
        issuer: claims.iss,
        subject: claims.sub,
        ...fromToken,
        locale: interfaceLocale ?? null,
        email_verified_at: emailVerified ? now : null,
      },
      now,
    )
  }
  if (!emailVerified && issuedAfterProof(claims, row.email_verified_at)) {
    throw new AppError('email_not_confirmed', 'Confirm your e-mail address first: open the link we e-mailed to you')
  }
  const proofChanges = emailVerified && !row.email_verified_at ? { email_verified_at: now } : {}
  if (claimsChanged(row, fromToken) || Object.keys(proofChanges).length > 0) {
    row = await updateUser(db, row.id, { ...changedClaims(row, fromToken), ...proofChanges, updated_at: now })
  }
  const tokenRoles = Array.isArray(claims.roles) ? claims.roles.filter((role) => typeof role === 'string') : []
  const roles = new Set([...row.roles, ...tokenRoles])
  const listedAsAdmin = row.email !== '' && admins.emails.includes(row.email.toLowerCase())
  const needs: PendingRoleNeed[] = []
  if (!emailVerified) needs.push('email_confirmation')
  if (admins.requireMfa && !showsSecondFactor(claims.amr)) needs.push('second_factor')
  if (listedAsAdmin && needs.length === 0) roles.add('admin')
  const adminPending = listedAsAdmin && !roles.has('admin')
  return {
    id: row.id,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    roles: [...roles].sort(),
    pendingRoles: adminPending ? ['admin'] : [],
    pendingRoleNeeds: adminPending ? needs : [],
    emailVerified,
    createdAt: row.created_at,
  }
}

/**
 * Whether the token was issued at or after the moment the row's address was
 * proved. `iat` has whole seconds: a token from the same second as the
 * proof counts as after it (the owner's tokens from before are older).
 * A token without `iat` cannot show it is older.
 */
function issuedAfterProof(claims: AccessTokenClaims, provedAt: Date | null): boolean {
  if (!provedAt) return false
  if (typeof claims.iat !== 'number') return true
  return claims.iat * 1000 >= Math.floor(provedAt.getTime() / 1000) * 1000
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
