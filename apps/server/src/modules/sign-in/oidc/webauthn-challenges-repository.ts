import type { Insertable, Kysely } from 'kysely'
import type { Database, WebauthnChallengesTable } from '../../../db/schema.ts'

/** The challenges of passkey ceremonies, each used once (passkeys.ts). */

export async function deleteChallengesExpiredBefore(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', before).execute()
}

export async function insertChallenge(db: Kysely<Database>, values: Insertable<WebauthnChallengesTable>): Promise<void> {
  await db.insertInto('webauthn_challenges').values(values).execute()
}

/** The owner's unused, unexpired challenges for `purpose`, under row locks until the transaction ends. */
export async function lockOpenChallenges(
  db: Kysely<Database>,
  purpose: 'register' | 'authenticate',
  owner: { accountId: string } | { interactionUid: string },
  now: Date,
): Promise<{ id: string; challenge: string }[]> {
  let query = db
    .selectFrom('webauthn_challenges')
    .select(['id', 'challenge'])
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
  query = 'accountId' in owner ? query.where('account_id', '=', owner.accountId) : query.where('interaction_uid', '=', owner.interactionUid)
  return query.forUpdate().execute()
}

export async function markChallengesUsed(db: Kysely<Database>, ids: string[], now: Date): Promise<void> {
  await db.updateTable('webauthn_challenges').set({ used_at: now }).where('id', 'in', ids).execute()
}
