import { createHash, randomBytes } from 'node:crypto'
import type { Locale } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { Database } from '../../../db/schema.ts'
import { accountIdForEmail } from './account-id.ts'
import { findAccountIdByAddress, findContactByAddress, insertAccount } from './accounts-repository.ts'
import { normaliseEmail } from './email-address.ts'
import { hashPassword, type PasswordCost } from './passwords.ts'
import {
  countRegistrationEmailsSince,
  deletePendingRegistration,
  deletePendingRegistrationsExpiredBefore,
  deleteRegistrationEmailsSentBy,
  findPendingRegistration,
  insertRegistrationEmail,
  lockRegistrationsOfAddress,
  type PendingRegistrationRow,
  upsertPendingRegistration,
} from './registrations-repository.ts'
import { renderAccountMail } from './account-mail.ts'
import { translator } from './translations.ts'

/**
 * Registration in the embedded sign-in proves the address before an account
 * exists (issue 30). The form keeps a pending registration and e-mails a
 * link; the account is made only when the link is opened. An address that
 * has an account already gets a word to its owner instead, and the form
 * answers the same either way, with the same work done (the password is
 * hashed in both cases, one e-mail goes out in both), so that neither the
 * page nor its timing tells who has an account.
 *
 * The link carries 256 random bits; the database keeps only their SHA-256.
 * A link works once and for a day; a second registration of the same address
 * replaces the first (the latest password wins) and kills its link.
 */
export const registrationLinkHours = 24
/** Expired rows stay this long, so that their link says "expired" rather than "not valid". */
const keepExpiredDays = 7

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export interface RegistrationDeps {
  db: Kysely<Database>
  mailer: Mailer
  now: Date
  /** The issuer's public address (`PUBLIC_URL/oidc`): where the e-mailed links point. */
  issuer: string
  /** Where "sign in" leads in the owner's notice: the app, which starts a sign-in. */
  home: string
  /** The address for questions, in the e-mails' footer. */
  supportEmail: string
  /** What the password's hash costs (the configuration's `signIn.passwordCost`). */
  passwordCost: PasswordCost
  /** E-mails per address in an hour (links and owner notices alike); more registrations send nothing. */
  perAddressPerHour: number
}

export interface RegistrationInput {
  email: string
  password: string
  firstName: string
  lastName: string
}

/**
 * `link_sent` and `owner_told` must never reach the person who registered:
 * the caller shows one page for all three outcomes. `mail` is what the mailer
 * returned (the file mailer's id), for the file mailer's "open the message" link.
 */
export type RegistrationOutcome = { outcome: 'link_sent' | 'owner_told'; mail: { id: string; file?: string } } | { outcome: 'limited' }

export async function requestRegistration(
  deps: RegistrationDeps,
  input: RegistrationInput,
  context: { locale: Locale; interactionUid: string },
): Promise<RegistrationOutcome> {
  const email = normaliseEmail(input.email)
  // Before anything else and whatever follows: the slow step, done alike for every address.
  const passwordHash = await hashPassword(input.password, deps.passwordCost)
  const token = randomBytes(32).toString('base64url')
  const { now } = deps
  const addressHash = sha256(email)

  const decided = await deps.db.transaction().execute(async (trx) => {
    // Concurrent registrations of one address queue here, so that they cannot all see room for one more e-mail.
    await lockRegistrationsOfAddress(trx, addressHash)
    const hourAgo = new Date(now.getTime() - 3_600_000)
    await deleteRegistrationEmailsSentBy(trx, hourAgo)
    await deletePendingRegistrationsExpiredBefore(trx, new Date(now.getTime() - keepExpiredDays * 86_400_000))
    const recent = await countRegistrationEmailsSince(trx, addressHash, hourAgo)
    if (recent >= deps.perAddressPerHour) return { outcome: 'limited' } as const
    await insertRegistrationEmail(trx, addressHash, now)

    const owner = await findContactByAddress(trx, normaliseEmail(email))
    if (owner) return { outcome: 'owner_told', owner } as const
    const pending = {
      token_hash: sha256(token),
      first_name: input.firstName,
      last_name: input.lastName,
      password_hash: passwordHash,
      locale: context.locale,
      interaction_uid: context.interactionUid,
      created_at: now,
      expires_at: new Date(now.getTime() + registrationLinkHours * 3_600_000),
    }
    await upsertPendingRegistration(trx, email, pending)
    return { outcome: 'link_sent' } as const
  })

  if (decided.outcome === 'limited') return decided
  const issuer = deps.issuer.replace(/\/+$/, '')
  if (decided.outcome === 'owner_told') {
    // In the language the form was filled in: the person who typed the address may well be the owner.
    const t = translator(context.locale)
    const mail = await deps.mailer.send({
      to: decided.owner.email,
      ...renderAccountMail(
        context.locale,
        {
          subject: t('registration.owner.subject'),
          greeting: t('confirmEmail.mail.greeting', { name: decided.owner.first_name }),
          paragraphs: [t('registration.owner.body')],
          action: { label: t('signIn.submit'), url: deps.home },
          afterword: [
            { text: t('registration.owner.reset'), url: `${issuer}/forgot-password?lang=${context.locale}` },
            t('registration.owner.notYou'),
          ],
        },
        deps.supportEmail,
      ),
    })
    return { outcome: 'owner_told', mail }
  }
  const t = translator(context.locale)
  const mail = await deps.mailer.send({
    to: email,
    ...renderAccountMail(
      context.locale,
      {
        subject: t('registration.mail.subject'),
        greeting: t('confirmEmail.mail.greeting', { name: input.firstName }),
        paragraphs: [t('registration.mail.body', { hours: registrationLinkHours })],
        action: { label: t('registration.complete.submit'), url: `${issuer}/complete-registration/${token}?lang=${context.locale}` },
        afterword: [t('registration.mail.ignore')],
        reason: 'registration',
      },
      deps.supportEmail,
    ),
  })
  return { outcome: 'link_sent', mail }
}

export type PendingLinkState = { state: 'valid'; email: string; interactionUid: string } | { state: 'expired' | 'invalid' }

/** What a link would do, without using it (the page with the button). */
export async function pendingLinkState(db: Kysely<Database>, token: string, now: Date): Promise<PendingLinkState> {
  const row = await findPending(db, token)
  if (!row) return { state: 'invalid' }
  if (row.expires_at.getTime() <= now.getTime()) return { state: 'expired' }
  return { state: 'valid', email: row.email, interactionUid: row.interaction_uid }
}

export type CompletionOutcome =
  { outcome: 'created'; accountId: string; interactionUid: string } | { outcome: 'taken' | 'expired' | 'invalid' }

/**
 * Uses the link, in one database transaction under the pending row's lock
 * (two clicks create once): the account, its address confirmed by this very
 * link, unless an account with the address appeared meanwhile; the pending
 * row goes either way. A used link is gone, so it reads as not valid.
 */
export async function completeRegistration(db: Kysely<Database>, token: string, now: Date): Promise<CompletionOutcome> {
  return db.transaction().execute(async (trx) => {
    const row = await findPending(trx, token, { lock: true })
    if (!row) return { outcome: 'invalid' } as const
    if (row.expires_at.getTime() <= now.getTime()) return { outcome: 'expired' } as const
    await deletePendingRegistration(trx, row.token_hash)
    const existing = await findAccountIdByAddress(trx, normaliseEmail(row.email))
    if (existing) return { outcome: 'taken' } as const
    // The id is derived from the address; an account that moved away from this address keeps it, so it may be taken too.
    const created = await insertAccount(trx, {
      id: accountIdForEmail(row.email),
      email: row.email,
      password_hash: row.password_hash,
      first_name: row.first_name,
      last_name: row.last_name,
      locale: row.locale,
      email_verified_at: now,
    })
    if (!created) return { outcome: 'taken' } as const
    return { outcome: 'created', accountId: created.id, interactionUid: row.interaction_uid } as const
  })
}

async function findPending(
  db: Kysely<Database>,
  token: string,
  options: { lock?: boolean } = {},
): Promise<PendingRegistrationRow | undefined> {
  // Anything but a token we could have issued is looked up as nothing.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  return findPendingRegistration(db, sha256(token), options)
}
