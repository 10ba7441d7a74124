import type { ClientChange } from '@pactum/contracts/admin'
import type { PartnerClientBody } from '@pactum/contracts/partner-clients'
import type { Kysely } from 'kysely'
import type { ClientChangesTable, Database } from '../../db/schema.ts'

/**
 * The audit trail of partner clients: every creation, edit, key issue and
 * revocation, and every time the clients file replaced a client's settings,
 * with who did it. Written in the same database transaction as the change.
 */

/** Who changed a client: an admin in the console, the operator's CLI, or the clients file at start-up. */
export type ClientChangeActor = { kind: 'admin'; userId: string } | { kind: 'operator' } | { kind: 'configuration' }

export async function recordClientChange(
  db: Kysely<Database>,
  change: { clientId: string; action: ClientChangesTable['action']; actor: ClientChangeActor; settings?: PartnerClientBody; at: Date },
): Promise<void> {
  await db
    .insertInto('client_changes')
    .values({
      client_id: change.clientId,
      action: change.action,
      actor_kind: change.actor.kind,
      actor_user_id: change.actor.kind === 'admin' ? change.actor.userId : null,
      settings: change.settings ? JSON.stringify(change.settings) : null,
      created_at: change.at,
    })
    .execute()
}

/** Changes to every client, newest first, keyset-paginated on the change's id. */
export async function clientChanges(
  db: Kysely<Database>,
  page: { limit: number; afterId?: number | undefined; clientId?: string | undefined },
): Promise<ClientChange[]> {
  let query = db
    .selectFrom('client_changes as c')
    .leftJoin('users as u', 'u.id', 'c.actor_user_id')
    .select(['c.id', 'c.client_id', 'c.action', 'c.actor_kind', 'u.email as actor_email', 'c.settings', 'c.created_at'])
  if (page.afterId !== undefined) query = query.where('c.id', '<', page.afterId)
  if (page.clientId !== undefined) query = query.where('c.client_id', '=', page.clientId)
  const rows = await query.orderBy('c.id', 'desc').limit(page.limit).execute()
  return rows.map((row) => ({ ...row, id: String(row.id), created_at: row.created_at.toISOString() }))
}
