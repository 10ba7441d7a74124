import type { Kysely } from 'kysely'

/**
 * Identity documents are deleted from their store (local files or S3)
 * once the provider's check has a result, after DOCUMENT_RETENTION_DAYS
 * (issue 14 #5). The file's row stays, for the upload's history; this says
 * when its bytes went.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sandbox_files').addColumn('deleted_at', 'timestamptz').execute()
}
