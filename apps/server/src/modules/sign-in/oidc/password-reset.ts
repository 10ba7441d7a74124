import { createHash, randomBytes } from 'node:crypto'
import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { Database } from '../../../db/schema.ts'
import { lockAccountByAddress, markEmailVerified, updatePasswordHash } from './accounts-repository.ts'
import { endSessionsOfAccount } from './account-sessions.ts'
import { normaliseEmail } from './email-address.ts'
import { hashPassword, type PasswordCost } from './passwords.ts'
import {
  countResetTokensSince,
  findResetToken,
  insertResetToken,
  markResetTokensUsed,
  type ResetTokenRow,
} from './password-reset-tokens-repository.ts'
import { clearSignInFailures } from './sign-in-throttle.ts'
import { renderAccountMail } from './account-mail.ts'
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
  /** The address for questions, in the e-mail's footer. */
  supportEmail: string
}

/** The link to reset the password of `email`, e-mailed if the address has an account; nothing otherwise. */
export async function requestPasswordReset(
  deps: ResetMailDeps,
  email: string,
  pageLocale: Locale,
): Promise<'sent' | 'no_account' | 'limited'> {
  const token = randomBytes(32).toString('base64url')
  // Counted and issued under the account's row lock: concurrent requests cannot all see room for one more.
  const issued = await deps.db.transaction().execute(async (trx) => {
    const account = await lockAccountByAddress(trx, normaliseEmail(email))
    if (!account) return 'no_account' as const
    const recent = await countResetTokensSince(trx, account.id, new Date(deps.now.getTime() - 3_600_000))
    if (recent >= deps.perAddressPerHour) return 'limited' as const
    await insertResetToken(trx, {
      token_hash: hashOf(token),
      account_id: account.id,
      email: account.email,
      created_at: deps.now,
      expires_at: new Date(deps.now.getTime() + resetLinkMinutes * 60_000),
    })
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
    ...renderAccountMail(
      locale,
      {
        subject: t('resetPassword.mail.subject'),
        greeting: t('confirmEmail.mail.greeting', { name: account.first_name }),
        paragraphs: [t('resetPassword.mail.body', { minutes: resetLinkMinutes })],
        action: { label: t('resetPassword.mail.button'), url: link },
        afterword: [t('resetPassword.mail.ignore')],
      },
      deps.supportEmail,
    ),
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
  cost: PasswordCost,
): Promise<{ outcome: 'reset'; accountId: string } | { outcome: Exclude<ResetLinkState, 'valid'> }> {
  const passwordHash = await hashPassword(newPassword, cost)
  const result = await db.transaction().execute(async (trx) => {
    const row = await findLink(trx, token, { lock: true })
    const state = stateOf(row, now)
    if (state !== 'valid' || !row) return { outcome: state === 'valid' ? 'invalid' : state } as const
    await markResetTokensUsed(trx, row.account_id, now)
    await updatePasswordHash(trx, row.account_id, passwordHash)
    await markEmailVerified(trx, row.account_id, now)
    return { outcome: 'reset', accountId: row.account_id } as const
  })
  if (result.outcome === 'reset') {
    await endSessionsOfAccount(db, result.accountId)
    await clearSignInFailures(db, result.accountId)
  }
  return result
}

async function findLink(db: Kysely<Database>, token: string, options: { lock?: boolean } = {}): Promise<ResetTokenRow | undefined> {
  // Anything but a token we could have issued is looked up as nothing.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  return findResetToken(db, hashOf(token), options)
}

function stateOf(row: ResetTokenRow | undefined, now: Date): ResetLinkState {
  if (!row || row.email.toLowerCase() !== row.account_email.toLowerCase()) return 'invalid'
  if (row.used_at) return 'used'
  if (row.expires_at.getTime() <= now.getTime()) return 'expired'
  return 'valid'
}
