import { createHash, randomBytes } from 'node:crypto'
import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { Database } from '../../../db/schema.ts'
import { changeAccountEmail, findAccountIdWithEmail, markEmailVerified } from './accounts-repository.ts'
import {
  findVerificationToken,
  insertVerificationToken,
  markVerificationTokenUsed,
  type VerificationTokenRow,
} from './email-verification-tokens-repository.ts'
import { renderAccountMail } from './account-mail.ts'
import { translator } from './translations.ts'

/**
 * E-mail address confirmation for the embedded sign-in: what an external
 * issuer does before its tokens say `email_verified: true`. The link carries
 * 256 random bits; the database keeps only their SHA-256, so a copy of the
 * database cannot confirm anyone. A link works once and for a week, and only
 * for the address it was sent to.
 */

export const confirmationLinkDays = 7
/** A link to change the address is good for a day: the person asked for it just now. */
export const changeLinkHours = 24

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export interface ConfirmationMailDeps {
  db: Kysely<Database>
  mailer: Mailer
  now: Date
  /** The issuer's public address (`PUBLIC_URL/oidc`). */
  issuer: string
  /** The address for questions, in the e-mail's footer. */
  supportEmail: string
}

/**
 * Keeps the hash of a fresh token for `email` and returns the link that
 * carries it. The page the link opens speaks the e-mail's language.
 */
async function issueLink(
  deps: ConfirmationMailDeps,
  link: { accountId: string; email: string; purpose: 'confirm' | 'change'; validMs: number; locale: Locale },
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await insertVerificationToken(deps.db, {
    token_hash: hashOf(token),
    account_id: link.accountId,
    email: link.email,
    purpose: link.purpose,
    created_at: deps.now,
    expires_at: new Date(deps.now.getTime() + link.validMs),
  })
  return `${deps.issuer.replace(/\/+$/, '')}/verify-email/${token}?lang=${link.locale}`
}

/** Issues a fresh link for the account's current address and e-mails it, in `locale`. */
export async function sendConfirmationLink(
  deps: ConfirmationMailDeps,
  account: { id: string; email: string; firstName: string },
  locale: Locale,
): Promise<void> {
  const link = await issueLink(deps, {
    accountId: account.id,
    email: account.email,
    purpose: 'confirm',
    validMs: confirmationLinkDays * 86_400_000,
    locale,
  })
  const t = translator(locale)
  await deps.mailer.send({
    to: account.email,
    ...renderAccountMail(
      locale,
      {
        subject: t('confirmEmail.mail.subject'),
        greeting: t('confirmEmail.mail.greeting', { name: account.firstName }),
        paragraphs: [t('confirmEmail.mail.body', { days: confirmationLinkDays })],
        action: { label: t('confirmEmail.submit'), url: link },
        afterword: [t('confirmEmail.mail.ignore')],
      },
      deps.supportEmail,
    ),
  })
}

/**
 * A change of address (the Account page): a link to the new address, which
 * changes the account's address when it is opened; and a word to the
 * current address, so that someone who took over a session cannot move the
 * account away unnoticed.
 */
export async function sendEmailChangeLink(
  deps: ConfirmationMailDeps,
  account: { id: string; email: string; firstName: string },
  newEmail: string,
  locale: Locale,
): Promise<void> {
  const link = await issueLink(deps, {
    accountId: account.id,
    email: newEmail,
    purpose: 'change',
    validMs: changeLinkHours * 3_600_000,
    locale,
  })
  const t = translator(locale)
  const greeting = t('confirmEmail.mail.greeting', { name: account.firstName })
  await deps.mailer.send({
    to: newEmail,
    ...renderAccountMail(
      locale,
      {
        subject: t('changeEmail.mail.subject'),
        greeting,
        paragraphs: [t('changeEmail.mail.body', { hours: changeLinkHours })],
        action: { label: t('confirmEmail.submit'), url: link },
        afterword: [t('confirmEmail.mail.ignore')],
      },
      deps.supportEmail,
    ),
  })
  await deps.mailer.send({
    to: account.email,
    ...renderAccountMail(
      locale,
      {
        subject: t('changeEmail.notice.subject'),
        greeting,
        paragraphs: [t('changeEmail.notice.body', { email: newEmail }), t('changeEmail.notice.notYou')],
      },
      deps.supportEmail,
    ),
  })
}

export type LinkState = 'valid' | 'confirmed' | 'expired' | 'invalid' | 'taken'

/** What a link would do, without using it (the page a person sees before confirming). */
export async function linkState(db: Kysely<Database>, token: string, now: Date): Promise<LinkState> {
  const row = await findLink(db, token)
  return stateOf(row, now)
}

/**
 * Uses the link: marks it used and the account's address confirmed, in one
 * database transaction under a row lock, so two clicks confirm once.
 */
export async function confirmEmail(db: Kysely<Database>, token: string, now: Date): Promise<Exclude<LinkState, 'valid'>> {
  return db.transaction().execute(async (trx) => {
    const row = await findLink(trx, token, { lock: true })
    const state = stateOf(row, now)
    if (state !== 'valid') return state
    if (!row) return 'invalid'
    if (row.purpose === 'change') {
      // Another account may have taken the address since the link went out.
      const owner = await findAccountIdWithEmail(trx, row.email)
      if (owner && owner.id !== row.account_id) return 'taken'
      await markVerificationTokenUsed(trx, row.token_hash, now)
      await changeAccountEmail(trx, row.account_id, row.email.toLowerCase(), now)
      return 'confirmed'
    }
    await markVerificationTokenUsed(trx, row.token_hash, now)
    await markEmailVerified(trx, row.account_id, now)
    return 'confirmed'
  })
}

async function findLink(db: Kysely<Database>, token: string, options: { lock?: boolean } = {}): Promise<VerificationTokenRow | undefined> {
  // Anything but a token we could have issued is looked up as nothing.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  return findVerificationToken(db, hashOf(token), options)
}

function stateOf(row: VerificationTokenRow | undefined, now: Date): LinkState {
  if (!row) return 'invalid'
  // A confirmation link confirms the address it was sent to, and only while it is the account's.
  if (row.purpose === 'confirm' && row.email.toLowerCase() !== row.account_email.toLowerCase()) return 'invalid'
  if (row.used_at) return 'confirmed'
  if (row.expires_at.getTime() <= now.getTime()) return 'expired'
  return 'valid'
}
