import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { AccessTokenClaims } from './access-token-verifier.ts'
import type { Database } from '../../db/schema.ts'
import { type AdminList, type CurrentUser, findOrCreateUser } from './users.ts'

export type UserFinder = (claims: AccessTokenClaims, interfaceLocale?: Locale) => Promise<CurrentUser>

/**
 * `findOrCreateUser` with a short memory: the same person asking again
 * with the same claims and language within `maxSeconds` is answered without
 * a database read (the read was a third of a GET's queries, issue 13).
 *
 * The key holds everything `findOrCreateUser` takes from the request (issuer,
 * subject, e-mail, names, roles, verification, sign-in methods, language), so a token with
 * new claims is looked up and written through at once. What may be stale,
 * for at most `maxSeconds` and only in this process, is what the database
 * alone holds: roles granted in the `users` row directly (no route changes
 * them). The id, which every authorisation check uses, never changes.
 */
export function rememberUsers(
  db: Kysely<Database>,
  admins: AdminList,
  options: { maxEntries?: number; maxSeconds?: number } = {},
): UserFinder {
  const users = new LRUCache<string, CurrentUser>({ max: options.maxEntries ?? 10_000, ttl: (options.maxSeconds ?? 5) * 1000 })
  return async (claims, interfaceLocale) => {
    const key = JSON.stringify([
      claims.iss,
      claims.sub,
      claims.email ?? '',
      claims.given_name ?? '',
      claims.family_name ?? '',
      Array.isArray(claims.roles) ? claims.roles : [],
      claims.email_verified === true,
      Array.isArray(claims.amr) ? claims.amr : [],
      interfaceLocale ?? '',
    ])
    const remembered = users.get(key)
    if (remembered) return remembered
    const user = Object.freeze(await findOrCreateUser(db, claims, admins, interfaceLocale))
    users.set(key, user)
    return user
  }
}
