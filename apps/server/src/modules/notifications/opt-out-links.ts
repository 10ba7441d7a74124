import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { type OptionalEmailCategory, optionalEmailCategories } from '@pactum/contracts/notification-preferences'
import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { loadOrCreateServerSecret } from '../../db/server-secrets.ts'

/**
 * The one-click link in every optional e-mail (decision 101) that turns its
 * category off without signing in, from the message or from the mail
 * client's own unsubscribe button (RFC 8058). The token names the person
 * and the category and carries an HMAC of both under a server secret:
 * nobody can make one for another person, and it needs nothing stored.
 * It only ever turns e-mails off; turning them on again needs a sign-in.
 */

export const optOutTokenPattern = new RegExp(`^([0-9a-f-]{36})\\.(${optionalEmailCategories.join('|')})\\.([A-Za-z0-9_-]{43})$`)

const keys = new WeakMap<object, Promise<Buffer>>()

/** The server secret, made on first use and kept in the database, so every process makes the same tokens. */
export function optOutLinkKey(db: Kysely<Database>): Promise<Buffer> {
  let key = keys.get(db)
  if (!key) {
    key = loadOrCreateServerSecret(db, 'email_opt_out_key', () => ({ key: randomBytes(32).toString('base64url') })).then((stored) =>
      Buffer.from(stored.key, 'base64url'),
    )
    key.catch(() => keys.delete(db))
    keys.set(db, key)
  }
  return key
}

function mac(key: Buffer, userId: string, category: OptionalEmailCategory): string {
  return createHmac('sha256', key).update(`email-opt-out:${userId}:${category}`).digest('base64url')
}

export function optOutToken(key: Buffer, userId: string, category: OptionalEmailCategory): string {
  return `${userId}.${category}.${mac(key, userId, category)}`
}

export function optOutLink(publicUrl: string, token: string, language: Locale): string {
  return `${publicUrl.replace(/\/+$/, '')}/email-opt-out/${token}?lang=${language}`
}

/** Whom and what a token turns off; null unless this server signed it. */
export function readOptOutToken(key: Buffer, token: string): { userId: string; category: OptionalEmailCategory } | null {
  const match = optOutTokenPattern.exec(token)
  if (!match) return null
  const [, userId, category, given] = match as unknown as [string, string, OptionalEmailCategory, string]
  const expected = Buffer.from(mac(key, userId, category))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? { userId, category } : null
}
