import type { DocumentSide, IdentityDocumentKind } from '@pactum/contracts/verification'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/** The record kept of a file passed to the provider: never the file itself. */
export interface IdentityDocumentUpload {
  id: string
  userId: string
  document: IdentityDocumentKind
  side: DocumentSide
  providerFileId: string
  contentType: string
  sizeBytes: number
  sha256: string
  createdAt: Date
}

export async function insertIdentityDocumentUpload(db: Kysely<Database>, upload: IdentityDocumentUpload): Promise<void> {
  await db
    .insertInto('identity_document_uploads')
    .values({
      id: upload.id,
      user_id: upload.userId,
      document: upload.document,
      side: upload.side,
      provider_file_id: upload.providerFileId,
      content_type: upload.contentType,
      size_bytes: upload.sizeBytes,
      sha256: upload.sha256,
      created_at: upload.createdAt,
    })
    .execute()
}

/** The sides of `document` the user has uploaded at least once. */
export async function uploadedSides(db: Kysely<Database>, userId: string, document: IdentityDocumentKind): Promise<DocumentSide[]> {
  const uploads = await db
    .selectFrom('identity_document_uploads')
    .select('side')
    .distinct()
    .where('user_id', '=', userId)
    .where('document', '=', document)
    .execute()
  return uploads.map((upload) => upload.side)
}

export async function verificationSessionIdOf(db: Kysely<Database>, userId: string): Promise<string | null> {
  const user = await db.selectFrom('users').select('verification_session_id').where('id', '=', userId).executeTakeFirstOrThrow()
  return user.verification_session_id
}

export async function setVerificationSessionId(db: Kysely<Database>, userId: string, sessionId: string): Promise<void> {
  await db.updateTable('users').set({ verification_session_id: sessionId }).where('id', '=', userId).execute()
}
