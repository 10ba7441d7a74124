import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Database, GuestInvitationsTable } from '../../db/schema.ts'
import type { UnclaimedInvitation } from '../transactions/transactions-repository.ts'

/**
 * The guest invitations as stored (guest-invitations.ts decides when one is
 * made, claimed or sent again). A claim link's secret is never stored, only
 * its SHA-256, which the callers compute.
 */

export type GuestInvitationRow = Selectable<GuestInvitationsTable>

export async function insertGuestInvitation(trx: Kysely<Database>, invitation: Insertable<GuestInvitationsTable>): Promise<void> {
  await trx.insertInto('guest_invitations').values(invitation).execute()
}

/** The invitation whose link carries the secret of this hash; with `lock`, locked for the rest of the database transaction. */
export async function findInvitationBySecretHash(
  db: Kysely<Database>,
  secretHash: string,
  options: { lock: boolean },
): Promise<GuestInvitationRow | undefined> {
  let query = db.selectFrom('guest_invitations').selectAll().where('secret_hash', '=', secretHash)
  if (options.lock) query = query.forUpdate()
  return query.executeTakeFirst()
}

/** A transaction's invitation, locked for the rest of the database transaction. */
export async function lockInvitationOfTransaction(trx: Kysely<Database>, transactionId: string): Promise<GuestInvitationRow | undefined> {
  return trx.selectFrom('guest_invitations').selectAll().where('transaction_id', '=', transactionId).forUpdate().executeTakeFirst()
}

/** A transaction's invitation while nobody has claimed it. */
export async function findUnclaimedInvitationOf(db: Kysely<Database>, transactionId: string): Promise<UnclaimedInvitation | undefined> {
  return db
    .selectFrom('guest_invitations')
    .select(['email', 'role', 'sent_at'])
    .where('transaction_id', '=', transactionId)
    .where('claimed_at', 'is', null)
    .executeTakeFirst()
}

export async function markInvitationClaimed(trx: Kysely<Database>, id: string, claimedBy: string, claimedAt: Date): Promise<void> {
  await trx.updateTable('guest_invitations').set({ claimed_by: claimedBy, claimed_at: claimedAt }).where('id', '=', id).execute()
}

/** A re-send: the new secret's hash replaces the old one, and the validity restarts at `sentAt`. */
export async function replaceInvitationSecret(
  trx: Kysely<Database>,
  id: string,
  change: { secretHash: string; sentAt: Date; sendCount: number },
): Promise<void> {
  await trx
    .updateTable('guest_invitations')
    .set({ secret_hash: change.secretHash, sent_at: change.sentAt, send_count: change.sendCount })
    .where('id', '=', id)
    .execute()
}

/** The languages of the user with this address, if one uses Pactum already (their invitation is written in theirs). */
export async function findLanguagesByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<{ notification_language: string | null; locale: string | null } | undefined> {
  return db.selectFrom('users').select(['notification_language', 'locale']).where('email', '=', email).executeTakeFirst()
}
