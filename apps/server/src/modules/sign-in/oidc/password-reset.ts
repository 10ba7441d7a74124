import { createHash, randomBytes } from 'node:crypto'
import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { Database } from '../../../db/schema.ts'
import { byAddress } from './accounts.ts'
import { endSessionsOfAccount } from './account-sessions.ts'
import { hashPassword } from './passwords.ts'
import { clearSignInFailures } from './sign-in-throttle.ts'
import { translator } from './translations.ts'

/**
 * Forgotten passwords in the embedded sign-in. The e-mailed link carries 256
 * random bits; the database keeps only their SHA-256, so a copy of the
 * database resets nobody's password. A link works once, for 30 minutes, and
 * only while the account has the address it was sent to. Whether the address
 * has an account is never told: the page answers the same either way.
 */
export const resetLinkMinutes = 30

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export interface ResetMailDeps {
  db: Kysely<Database>
  mailer: Mailer
  now: Date
  /** The issuer's public address (`PUBLIC_URL/oidc`). */
  issuer: string
  /** Links e-mailed per address in an hour; more requests send nothing. */
  perAddressPerHour: number
}

/** The link to reset the password of `email`, e-mailed if the address has an account; nothing otherwise. */
export async function requestPasswordReset(deps: ResetMailDeps, email: string, pageLocale: Locale): Promise<'sent' | 'no_account' | 'limited'> {
  const token = randomBytes(32).toString('base64url')
  // Counted and issued under the account's row lock: concurrent requests cannot all see room for one more.
  const issued = await deps.db.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom('accounts')
      .select(['id', 'email', 'first_name'])
      .where(byAddress(email))
      .forUpdate()
      .executeTakeFirst()
    if (!account) return 'no_account' as const
    const recent = await trx
      .selectFrom('password_reset_tokens')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', account.id)
      .where('created_at', '>', new Date(deps.now.getTime() - 3_600_000))
      .executeTakeFirstOrThrow()
    if (Number(recent.count) >= deps.perAddressPerHour) return 'limited' as const
    await trx
      .insertInto('password_reset_tokens')
      .values({
        token_hash: hashOf(token),
        account_id: account.id,
        email: account.email,
        created_at: deps.now,
        expires_at: new Date(deps.now.getTime() + resetLinkMinutes * 60_000),
      })
      .execute()
    return account
  })
  if (typeof issued === 'string') return issued
  const account = issued
  // The language the person asked in: the page the link opens speaks it too.
  const locale = pageLocale
  const t = translator(locale)
  const link = `${deps.issuer.replace(/\/+$/, '')}/reset-password/${token}?lang=${locale}`
  await deps.mailer.send({
    to: account.email,
    subject: t('resetPassword.mail.subject'),
    text: [
      t('confirmEmail.mail.greeting', { name: account.first_name }),
      '',
      t('resetPassword.mail.body', { minutes: resetLinkMinutes }),
      '',
      link,
      '',
      t('resetPassword.mail.ignore'),
    ].join('\n'),
  })
  return 'sent'
}

export type ResetLinkState = 'valid' | 'used' | 'expired' | 'invalid'

/** What a link would do, without using it (the page that asks for the new password). */
export async function resetLinkState(db: Kysely<Database>, token: string, now: Date): Promise<ResetLinkState> {
  return stateOf(await findLink(db, token), now)
}

/**
 * Uses the link: the new password, the link and every other unused link of
 * the account spent, the address proven (the link reached it), in one
 * transaction under a row lock, so two submissions reset once. Then every
 * session, grant and refresh token of the account ends, and the failed
 * sign-ins counted against it are forgotten.
 */
export async function resetPassword(
  db: Kysely<Database>,
  token: string,
  newPassword: string,
  now: Date,
): Promise<{ outcome: 'reset'; accountId: string } | { outcome: Exclude<ResetLinkState, 'valid'> }> {
  const passwordHash = await hashPassword(newPassword)
  const result = await db.transaction().execute(async (trx) => {
    const row = await findLink(trx, token, { lock: true })
    const state = stateOf(row, now)
    if (state !== 'valid' || !row) return { outcome: state === 'valid' ? 'invalid' : state } as const
    await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('account_id', '=', row.account_id)
      .where('used_at', 'is', null)
      .execute()
    await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', row.account_id).execute()
    await trx.updateTable('accounts').set({ email_verified_at: now }).where('id', '=', row.account_id).where('email_verified_at', 'is', null).execute()
    return { outcome: 'reset', accountId: row.account_id } as const
  })
  if (result.outcome === 'reset') {
    await endSessionsOfAccount(db, result.accountId)
    await clearSignInFailures(db, result.accountId)
  }
  return result
}

type LinkRow = { token_hash: string; account_id: string; expires_at: Date; used_at: Date | null; email: string; account_email: string }

async function findLink(db: Kysely<Database>, token: string, options: { lock?: boolean } = {}): Promise<LinkRow | undefined> {
  // Anything but a token we could have issued is looked up as nothing.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  let query = db
    .selectFrom('password_reset_tokens')
    .innerJoin('accounts', 'accounts.id', 'password_reset_tokens.account_id')
    .select([
      'password_reset_tokens.token_hash',
      'password_reset_tokens.account_id',
      'password_reset_tokens.expires_at',
      'password_reset_tokens.used_at',
      'password_reset_tokens.email',
      'accounts.email as account_email',
    ])
    .where('password_reset_tokens.token_hash', '=', hashOf(token))
  if (options.lock) query = query.forUpdate()
  return query.executeTakeFirst()
}

function stateOf(row: LinkRow | undefined, now: Date): ResetLinkState {
  if (!row || row.email.toLowerCase() !== row.account_email.toLowerCase()) return 'invalid'
  if (row.used_at) return 'used'
  if (row.expires_at.getTime() <= now.getTime()) return 'expired'
  return 'valid'
}
