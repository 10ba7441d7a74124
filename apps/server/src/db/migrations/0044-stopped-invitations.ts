import type { Kysely } from 'kysely'

/**
 * Addresses whose owner asked for no more invitations (issue 30 #3): the
 * one-click link in every invitation e-mail. Only a keyed hash of the
 * address is kept (modules/guests/invitation-stops.ts), never the
 * address: the table says nothing about who asked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stopped_invitation_addresses')
    .addColumn('address_hash', 'text', (col) => col.primaryKey())
    .addColumn('stopped_at', 'timestamptz', (col) => col.notNull())
    .execute()
}
