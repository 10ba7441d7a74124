import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { ClaimPreview, InvitationLanding } from '@pactum/contracts/guest-transactions'
import { claimSecretSchema } from '@pactum/contracts/guest-transactions'
import type { CurrencyCode } from '@pactum/domain/currencies'
import { checkResend, invitationExpiresAt, isInvitationExpired } from '@pactum/domain/guest-invitation-timing'
import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { Party } from '@pactum/domain/transactions/kernel'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { renderGuestInvitation } from '../notifications/guest-invitation-message.ts'
import { applyEvent, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { findFirstName } from '../transactions/parties-repository.ts'
import { getNamedTransaction, lockForParty, type UnclaimedInvitation } from '../transactions/transactions-repository.ts'
import { notificationLanguage } from '../profile/profile.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import {
  findInvitationBySecretHash,
  findLanguagesByEmail,
  findUnclaimedInvitationOf,
  insertGuestInvitation,
  lockInvitationOfTransaction,
  markInvitationClaimed,
  replaceInvitationSecret,
} from './guest-invitations-repository.ts'
import { countInvitations, type InvitationLimits, type InvitationSender } from './invitation-limits.ts'
import { invitationsStopped, stopLink, stopLinkKey, stopToken } from './invitation-stops.ts'

/**
 * Guest transactions (issue 12 #2): the other party is invited by e-mail and
 * takes their role through a claim link. The link carries 256 random bits;
 * only their SHA-256 is stored (as email-verification.ts does), so neither
 * the database nor the job queue ever holds a usable secret. That is also
 * why the invitation is sent inside the creating database transaction
 * rather than from a job: a job would have to keep the secret. If the mailer
 * refuses, nothing is created and the creator may try again; if the commit
 * fails after the mail went out, its link leads to "unknown invitation".
 * Every invitation carries a link that stops all invitations to its
 * address (invitation-stops.ts), and invitations are counted per sender
 * and per address (invitation-limits.ts).
 */

export interface InvitationDeps {
  mailer: Mailer
  /** The web app's address, for the claim link. */
  publicUrl: string
  /** The address for questions, in the e-mail's footer. */
  supportEmail: string
  /** The stop link's secret (`stopLinkKey`), read before the creating transaction opens. */
  stopKey: Buffer
  limits: InvitationLimits
}

/** What sending invitations needs, from the server's configuration; the stop link's key is read before any transaction opens. */
export async function invitationDepsOf(deps: {
  db: Kysely<Database>
  mailer: Mailer
  config: { publicUrl: string; supportEmail: string; limits: { invitations: InvitationLimits } }
}): Promise<InvitationDeps> {
  return {
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    supportEmail: deps.config.supportEmail,
    limits: deps.config.limits.invitations,
    stopKey: await stopLinkKey(deps.db),
  }
}

export interface Invitation {
  role: Party
  email: string
  /** The sender's choice; else the invitee's own language when they use Pactum already; else `fallbackLanguage`. */
  language: Locale | undefined
  fallbackLanguage: Locale
  inviterFirstName: string | null
  clientName: string | null
  /** The input that named the address, for the refusal when its owner stopped invitations. */
  field: string
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** The web routes that open a claim link; the transaction's kind is part of the path, as the issue pins. */
export function claimLink(publicUrl: string, role: Party, kind: TransactionKind, secret: string): string {
  const page = role === 'buyer' ? 'join-guest-transaction' : 'join-guest-transaction-as-seller'
  return `${publicUrl.replace(/\/+$/, '')}/${page}/${secret}/${kind}`
}

async function invitationLanguage(db: Kysely<Database>, invitation: Invitation): Promise<Locale> {
  if (invitation.language) return invitation.language
  const known = await findLanguagesByEmail(db, invitation.email)
  if (known && (isSupportedLocale(known.notification_language) || isSupportedLocale(known.locale))) return notificationLanguage(known)
  return invitation.fallbackLanguage
}

/**
 * Records each invitation (its secret's hash) in `trx` and e-mails its link,
 * unless an address asked for no more invitations (409) or the sender or an
 * address is past its invitation limits (429, invitation-limits.ts): then
 * nothing is recorded and nothing sent.
 */
export async function inviteGuests(
  deps: InvitationDeps,
  trx: Kysely<Database>,
  row: TransactionRow,
  sender: InvitationSender,
  invitations: readonly Invitation[],
): Promise<void> {
  const key = deps.stopKey
  for (const invitation of invitations) await refuseIfStopped(trx, key, invitation.email, invitation.field)
  await countInvitations(
    trx,
    deps.limits,
    row.created,
    sender,
    invitations.map((invitation) => invitation.email),
  )
  for (const invitation of invitations) {
    const secret = newSecret()
    const language = await invitationLanguage(trx, invitation)
    await insertGuestInvitation(trx, {
      id: randomUUID(),
      transaction_id: row.id,
      role: invitation.role,
      email: invitation.email,
      language,
      secret_hash: hashOf(secret),
      created_at: row.created,
      sent_at: row.created,
    })
    await mailInvitation(deps, key, row, { ...invitation, language }, secret)
  }
}

async function refuseIfStopped(db: Kysely<Database>, key: Buffer, email: string, field: string): Promise<void> {
  if (!(await invitationsStopped(db, key, email))) return
  throw new AppError(
    'invitations_stopped_by_recipient',
    `${field}: the owner of this address has asked Pactum to send them no invitations; share a join code with them instead`,
    {
      details: { field },
    },
  )
}

function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

async function mailInvitation(
  deps: InvitationDeps,
  key: Buffer,
  row: TransactionRow,
  invitation: Pick<Invitation, 'role' | 'email' | 'inviterFirstName' | 'clientName'> & { language: Locale },
  secret: string,
) {
  const kind = row.type as TransactionKind
  const stop = stopLink(deps.publicUrl, stopToken(key, invitation.email), invitation.language)
  await deps.mailer.send({
    to: invitation.email,
    listUnsubscribe: stop,
    ...renderGuestInvitation(
      invitation.language,
      {
        role: invitation.role,
        kind,
        description: row.description,
        price: { amount: row.price, currency: row.currency as CurrencyCode },
        inviterFirstName: invitation.inviterFirstName,
        clientName: invitation.clientName,
        link: claimLink(deps.publicUrl, invitation.role, kind, secret),
        stopLink: stop,
      },
      { supportEmail: deps.supportEmail },
    ),
  })
}

function unknownInvitation(): AppError {
  return new AppError('claim_secret_not_found', 'This invitation link is unknown; ask the sender for a new one')
}

async function findInvitation(db: Kysely<Database>, secret: string, options: { lock: boolean }) {
  if (!claimSecretSchema.safeParse(secret).success) throw unknownInvitation()
  const invitation = await findInvitationBySecretHash(db, hashOf(secret), options)
  if (!invitation) throw unknownInvitation()
  return invitation
}

function expiredInvitation(expiresAt: Date): AppError {
  return new AppError('claim_link_expired', 'This invitation link has expired; ask the sender to send it again', {
    details: { expires_at: expiresAt.toISOString() },
  })
}

function ownTransaction(): AppError {
  return new AppError('cannot_join_own_transaction', 'You created this transaction; the invitation is for the other party')
}

/** What the invitee is about to accept (the page shows it before the claim). */
export async function previewClaim(db: Kysely<Database>, user: CurrentUser, secret: string, now: Date): Promise<ClaimPreview> {
  const invitation = await findInvitation(db, secret, { lock: false })
  const row = await getNamedTransaction(db, invitation.transaction_id, { lock: false })
  if (row.creator_id === user.id) throw ownTransaction()
  if (!invitation.claimed_at && isInvitationExpired(invitation.sent_at, now))
    throw expiredInvitation(invitationExpiresAt(invitation.sent_at))
  const creator = row.creator_id ? await findFirstName(db, row.creator_id) : undefined
  return {
    id: row.id,
    type: row.type as TransactionKind,
    role: invitation.role,
    status: row.status,
    claimed: invitation.claimed_at !== null,
    description: row.description,
    currency: row.currency as ClaimPreview['currency'],
    price: row.price,
    charge: row.charge,
    invited_email: invitation.email,
    inviter_first_name: creator?.first_name ?? null,
    client_id: row.client_id,
  }
}

/**
 * What an invitation link shows before anyone signs in (issue 33 item 8):
 * who invited its holder to what. The secret is the only authority, so the
 * answer holds only what the invitation e-mail itself said: the creator's
 * first name, the item, the price, the role and kind, and the address the
 * mail went to (which its holder has read in their inbox). Nothing about
 * the transaction's progress, and once claimed or expired, nothing at all:
 * a used link is no longer a key to the sale.
 */
export async function invitationLanding(db: Kysely<Database>, secret: string, now: Date): Promise<InvitationLanding> {
  const invitation = await findInvitation(db, secret, { lock: false })
  if (invitation.claimed_at) throw new AppError('already_claimed', 'This invitation has already been accepted; sign in to see it')
  if (isInvitationExpired(invitation.sent_at, now)) throw expiredInvitation(invitationExpiresAt(invitation.sent_at))
  const row = await getNamedTransaction(db, invitation.transaction_id, { lock: false })
  // Called off before the invitee came (by its creator, or the partner it was made under): nothing is on offer.
  if (row.status === 'cancelled' || row.status === 'rejected') {
    throw new AppError('already_cancelled', 'This sale was called off before the invitation was accepted')
  }
  const creator = row.creator_id ? await findFirstName(db, row.creator_id) : undefined
  return {
    type: row.type as TransactionKind,
    role: invitation.role,
    description: row.description,
    currency: row.currency as InvitationLanding['currency'],
    price: row.price,
    inviter_first_name: creator?.first_name ?? null,
    invited_email: invitation.email,
  }
}

/**
 * The invitee takes the role the invitation names, through the engine (the
 * domain's `claim` event, like a join). Any signed-in user holding the secret
 * may claim: the secret, sent only to the invited address, is the proof
 * (docs/decisions/049-guest-transactions.md). The invitation is marked used in the same database
 * transaction, under a row lock, so two claims racing get one success.
 */
export async function claimGuestTransaction(
  deps: TransactionDeps,
  user: CurrentUser,
  secret: string,
  role: Party,
  kind: TransactionKind,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const invitation = await findInvitation(trx, secret, { lock: true })
    const row = await getNamedTransaction(trx, invitation.transaction_id, { lock: true })
    if (row.creator_id === user.id) throw ownTransaction()
    if (invitation.claimed_at) throw new AppError('already_claimed', 'This invitation has already been accepted')
    if (isInvitationExpired(invitation.sent_at, deps.clock.now())) throw expiredInvitation(invitationExpiresAt(invitation.sent_at))
    if (invitation.role !== role || row.type !== kind) {
      throw new AppError(
        'claim_link_mismatch',
        `This invitation is for the ${invitation.role} of a ${row.type === 'f2f' ? 'face-to-face' : 'online'} transaction`,
        {
          details: { role: invitation.role, type: row.type },
        },
      )
    }
    const claimed = await applyEvent(
      deps,
      trx,
      row,
      { type: 'claim', role, userId: user.id },
      { actor: { kind: 'counterparty' }, actorUserId: user.id },
    )
    await markInvitationClaimed(trx, invitation.id, user.id, deps.clock.now())
    return claimed
  })
}

/** What the creator's status page shows while the invitee has not claimed: to whom, when, and until when the link works. */
export interface PendingInvitation {
  email: string
  role: Party
  sent_at: string
  expires_at: string
}

/** The creator's view of their unclaimed invitation; null for anyone else and once it is claimed. */
export async function pendingInvitationFor(db: Kysely<Database>, row: TransactionRow, viewerId: string): Promise<PendingInvitation | null> {
  if (!maySeeInvitation(row, viewerId)) return null
  const invitation = await findUnclaimedInvitationOf(db, row.id)
  return pendingInvitationOf(row, viewerId, invitation ?? null)
}

/** The same, from an invitation read together with the transaction (`TransactionReads.findForParty`). */
export function pendingInvitationOf(
  row: TransactionRow,
  viewerId: string,
  invitation: UnclaimedInvitation | null,
): PendingInvitation | null {
  if (!invitation || !maySeeInvitation(row, viewerId)) return null
  return {
    email: invitation.email,
    role: invitation.role,
    sent_at: invitation.sent_at.toISOString(),
    expires_at: invitationExpiresAt(invitation.sent_at).toISOString(),
  }
}

function maySeeInvitation(row: TransactionRow, viewerId: string): boolean {
  return row.creator_id === viewerId && row.status === 'created'
}

/**
 * The creator sends their unclaimed invitation again: a new secret replaces
 * the old (whose link then answers "unknown invitation"), the validity
 * restarts, and the mail goes out as the first one did, inside the database
 * transaction (see the top of this file). At most once a minute and
 * `guestInvitationMaxSends` times in all: the button must not become a way
 * to flood someone's inbox. A partner's invitations have no creator user
 * and are not re-sent here.
 */
export async function resendInvitation(
  deps: TransactionDeps & Omit<InvitationDeps, 'stopKey'>,
  user: CurrentUser,
  id: string,
  kind: TransactionKind,
): Promise<TransactionRow> {
  const key = await stopLinkKey(deps.db)
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id, kind)
    if (row.creator_id !== user.id) throw new AppError('forbidden', 'Only the creator of the transaction can send its invitation again')
    const invitation = await lockInvitationOfTransaction(trx, row.id)
    if (!invitation) throw new AppError('invalid_state', 'This transaction was not created with an invitation by e-mail')
    if (invitation.claimed_at) throw new AppError('already_claimed', 'The invitation has already been accepted')
    if (row.status !== 'created') throw new AppError('invalid_state', 'The transaction can no longer be joined')
    const now = deps.clock.now()
    const check = checkResend(invitation.sent_at, invitation.send_count, now)
    if (!check.allowed) {
      throw check.reason === 'too_soon'
        ? new AppError('rate_limited', `The invitation was just sent; try again in ${check.retryAfterSeconds} s`, {
            details: { reason: 'too_soon', retry_after: check.retryAfterSeconds },
            headers: { 'retry-after': String(check.retryAfterSeconds) },
          })
        : new AppError('rate_limited', 'The invitation has been sent as often as it can be; cancel the transaction and create a new one', {
            details: { reason: 'too_many' },
          })
    }
    await refuseIfStopped(trx, key, invitation.email, 'email')
    await countInvitations(trx, deps.limits, now, { kind: 'user', id: user.id }, [invitation.email])
    const secret = newSecret()
    await replaceInvitationSecret(trx, invitation.id, { secretHash: hashOf(secret), sentAt: now, sendCount: invitation.send_count + 1 })
    const language = isSupportedLocale(invitation.language) ? invitation.language : 'en_gb'
    await mailInvitation(
      { ...deps, stopKey: key },
      key,
      row,
      { role: invitation.role, email: invitation.email, language, inviterFirstName: user.firstName, clientName: null },
      secret,
    )
    return row
  })
}
