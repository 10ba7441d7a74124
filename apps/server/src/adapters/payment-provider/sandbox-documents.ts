import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { DocumentStore } from '../document-store/port.ts'
import type { DocumentSide, IdentityDocumentKind, UploadIdentityDocumentInput } from './connected-accounts-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { emitAccountUpdated, lockAccount } from './sandbox-account-state.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel } from './sandbox-kernel.ts'
import type { SandboxPayouts } from './sandbox-payouts.ts'
import { documentCheckFor } from './sandbox-test-data.ts'

/**
 * A sandbox connected account's identity documents, checked
 * asynchronously as Stripe checks them.
 *
 * The bytes go to the document store (local files or S3) before the row
 * commits; the check streams them back and compares their SHA-256
 * with the one recorded at upload, as the provider reads what it checks.
 * Once the check has a result (or a newer upload replaced the document
 * before it), the document is deleted `documentRetentionSeconds` later by a
 * job; the row stays, with `deleted_at`.
 */
export const documentQueues = {
  checkDocument: 'sandbox-check-document',
  deleteDocument: 'sandbox-delete-document',
} as const

export interface SandboxDocumentsOptions {
  /** Where received files are kept: never under the web root, never served. */
  documents: DocumentStore
  /** How long a document is kept once its check has a result (0: deleted at once). */
  documentRetentionSeconds: number
  documentCheckSeconds: number
}

const allowedContentTypes = new Set(['application/pdf', 'image/png', 'image/jpeg'])
const maxFileBytes = 10_000_000

export class SandboxDocuments {
  readonly #kernel: SandboxKernel
  readonly #payouts: SandboxPayouts
  readonly #options: SandboxDocumentsOptions

  constructor(kernel: SandboxKernel, payouts: SandboxPayouts, options: SandboxDocumentsOptions) {
    this.#kernel = kernel
    this.#payouts = payouts
    this.#options = options
  }

  async createQueues(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.createQueue(documentQueues.checkDocument, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(documentQueues.deleteDocument, { retryLimit: 10, retryDelay: 30 })
  }

  async startWorkers(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.work<{ accountId: string; document: IdentityDocumentKind; side: DocumentSide; fileId: string }>(
      documentQueues.checkDocument,
      (data) => this.#checkDocument(data),
    )
    await jobs.work<{ fileId: string }>(documentQueues.deleteDocument, (data) => this.#deleteDocument(data.fileId))
  }

  async uploadIdentityDocument(input: UploadIdentityDocumentInput): Promise<{ fileId: string }> {
    // The provider enforces its own limits too (Stripe: 10 MB, pdf/png/jpeg for identity_document).
    if (!allowedContentTypes.has(input.contentType)) {
      throw new PaymentProviderError('invalid_request', `Identity documents must be pdf, png or jpeg, not ${input.contentType}`)
    }
    if (input.bytes.byteLength === 0 || input.bytes.byteLength > maxFileBytes) {
      throw new PaymentProviderError('invalid_request', 'Identity documents must be between 1 and 10,000,000 bytes')
    }
    const sha256 = createHash('sha256').update(input.bytes).digest('hex')
    const request = { ...input, bytes: undefined, sha256 }
    return this.#kernel.transaction(async (trx) =>
      this.#kernel.idempotent(trx, input.idempotencyKey, 'upload_identity_document', request, async () => {
        await lockAccount(trx, input.accountId)
        const now = this.#kernel.now()
        const fileId = newSandboxId('file')
        // Written before the row commits: a crash leaves an orphan file, never a row without its file.
        await this.#options.documents.put(fileId, input.bytes, input.contentType)
        await recordDocument(
          trx,
          { accountId: input.accountId, document: input.document, side: input.side, status: 'pending' },
          { id: fileId, name: input.fileName.slice(0, 255), contentType: input.contentType, sizeBytes: input.bytes.byteLength, sha256 },
          now,
        )
        await this.#kernel.jobs.send(
          documentQueues.checkDocument,
          { accountId: input.accountId, document: input.document, side: input.side, fileId },
          { db: trx, startAfter: this.#options.documentCheckSeconds },
        )
        await emitAccountUpdated(this.#kernel, trx, input.accountId)
        return { fileId }
      }),
    )
  }

  /**
   * A verified Identity session made for the account's Person
   * (sandbox-identity.ts): its document becomes the account's verified
   * identity document, as Stripe attaches what Identity collected to the
   * Person. No bytes: the session's own document stands in for an upload,
   * already checked. In the session check's transaction.
   */
  async recordIdentityVerified(trx: SandboxDb, accountId: string, sessionId: string): Promise<void> {
    await lockAccount(trx, accountId)
    await recordDocument(
      trx,
      { accountId, document: 'identity_document', side: 'front', status: 'verified' },
      { id: newSandboxId('file'), name: `${sessionId}.session`, contentType: 'application/pdf', sizeBytes: 0, sha256: '' },
      this.#kernel.now(),
    )
    await emitAccountUpdated(this.#kernel, trx, accountId)
    await this.#payouts.schedulePayoutRun(trx, accountId)
  }

  async #checkDocument(data: { accountId: string; document: IdentityDocumentKind; side: DocumentSide; fileId: string }): Promise<void> {
    // Read outside the transaction: the account stays unlocked while the bytes come from storage.
    if (await this.#isAwaitingCheck(this.#kernel.db, data)) await this.#readBackDocument(data.fileId)
    await this.#kernel.transaction(async (trx) => {
      await lockAccount(trx, data.accountId)
      if (!(await this.#isAwaitingCheck(trx, data))) {
        // A newer upload replaced this file before its check: it is no longer needed (a retried check finds it scheduled already).
        await this.#scheduleDocumentDeletion(trx, data.fileId)
        return
      }
      const file = await trx.selectFrom('sandbox_files').select('file_name').where('id', '=', data.fileId).executeTakeFirstOrThrow()
      const check = documentCheckFor(file.file_name)
      await trx
        .updateTable('sandbox_account_documents')
        .set({
          status: check.outcome,
          rejection_reason: check.outcome === 'rejected' ? check.reason : null,
          updated_at: this.#kernel.now(),
        })
        .where('account_id', '=', data.accountId)
        .where('document', '=', data.document)
        .where('side', '=', data.side)
        .execute()
      if (check.outcome === 'verified' && check.asksForAddressProof && data.document === 'identity_document') {
        await trx.updateTable('sandbox_accounts').set({ additional_document_required: true }).where('id', '=', data.accountId).execute()
      }
      await emitAccountUpdated(this.#kernel, trx, data.accountId)
      if (check.outcome === 'verified') await this.#payouts.schedulePayoutRun(trx, data.accountId)
      await this.#scheduleDocumentDeletion(trx, data.fileId)
    })
  }

  /** The slot still holds this file and waits for its check (not replaced, not checked already). */
  async #isAwaitingCheck(
    db: Kysely<Database>,
    data: { accountId: string; document: IdentityDocumentKind; side: DocumentSide; fileId: string },
  ): Promise<boolean> {
    const slot = await db
      .selectFrom('sandbox_account_documents')
      .select(['file_id', 'status'])
      .where('account_id', '=', data.accountId)
      .where('document', '=', data.document)
      .where('side', '=', data.side)
      .executeTakeFirst()
    return slot !== undefined && slot.file_id === data.fileId && slot.status === 'pending'
  }

  /**
   * Streams the document back from storage, as the provider reads what it
   * checks, and refuses bytes other than those received: the job fails and
   * is retried (storage unreachable), rather than a check passing on a
   * document nobody read.
   */
  async #readBackDocument(fileId: string): Promise<void> {
    const file = await this.#kernel.db
      .selectFrom('sandbox_files')
      .select(['sha256', 'size_bytes'])
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow()
    const hash = createHash('sha256')
    let size = 0
    for await (const chunk of await this.#options.documents.get(fileId)) {
      const bytes = chunk as Buffer
      size += bytes.byteLength
      hash.update(bytes)
    }
    if (size !== file.size_bytes || hash.digest('hex') !== file.sha256) {
      throw new Error(`Sandbox file ${fileId} in storage is not the document received (${size} bytes)`)
    }
  }

  /**
   * Deletion `documentRetentionSeconds` from now, enqueued with the result
   * that makes the document unneeded. A retried check may enqueue a second
   * one: deleting is idempotent.
   */
  async #scheduleDocumentDeletion(trx: SandboxDb, fileId: string): Promise<void> {
    await this.#kernel.jobs.send(documentQueues.deleteDocument, { fileId }, { db: trx, startAfter: this.#options.documentRetentionSeconds })
  }

  /** Removes the bytes, then records it; both steps are safe to repeat. */
  async #deleteDocument(fileId: string): Promise<void> {
    await this.#options.documents.delete(fileId)
    await this.#kernel.db
      .updateTable('sandbox_files')
      .set({ deleted_at: this.#kernel.now() })
      .where('id', '=', fileId)
      .where('deleted_at', 'is', null)
      .execute()
  }
}

/**
 * Records a received file and puts it in the account's slot for its
 * document and side (one per pair), replacing the slot's earlier file and
 * any rejection of it.
 */
async function recordDocument(
  trx: SandboxDb,
  slot: { accountId: string; document: IdentityDocumentKind; side: DocumentSide; status: 'pending' | 'verified' },
  file: { id: string; name: string; contentType: string; sizeBytes: number; sha256: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('sandbox_files')
    .values({
      id: file.id,
      account_id: slot.accountId,
      purpose: slot.document,
      file_name: file.name,
      content_type: file.contentType,
      size_bytes: file.sizeBytes,
      sha256: file.sha256,
      created_at: now,
    })
    .execute()
  const filled = { file_id: file.id, status: slot.status, rejection_reason: null, updated_at: now }
  await trx
    .insertInto('sandbox_account_documents')
    .values({ account_id: slot.accountId, document: slot.document, side: slot.side, ...filled })
    .onConflict((conflict) => conflict.columns(['account_id', 'document', 'side']).doUpdateSet(filled))
    .execute()
}
