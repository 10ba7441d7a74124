import type { Kysely } from 'kysely'

/**
 * Stripe needs, with the date a seller accepted the terms, the address and
 * browser they accepted them from (`tos_acceptance.ip`, `user_agent`): kept
 * with the acceptance and forwarded with the profile. The sandbox keeps the
 * profile it was given, as Stripe keeps an account's `individual`, to ask
 * for what is missing the way Stripe does. A linked bank account keeps a
 * hash of the link that stored it, so that a retried link finds it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('tos_accepted_ip', 'text').addColumn('tos_accepted_user_agent', 'text').execute()
  await db.schema.alterTable('sandbox_accounts').addColumn('profile', 'jsonb').execute()
  await db.schema.alterTable('bank_accounts').addColumn('link_fingerprint', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bank_accounts').dropColumn('link_fingerprint').execute()
  await db.schema.alterTable('sandbox_accounts').dropColumn('profile').execute()
  await db.schema.alterTable('users').dropColumn('tos_accepted_user_agent').dropColumn('tos_accepted_ip').execute()
}
