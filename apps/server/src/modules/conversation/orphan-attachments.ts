import type { Kysely } from 'kysely'
import type { DocumentStore } from '../../adapters/document-store/port.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { messageHoldsAttachment } from './messages-repository.ts'

/**
 * An attachment is stored before its message is written (post-message.ts:
 * no upload under the row's lock), so a crash between the two would leave
 * a file nobody points to. Before the file is stored, a job is queued (and
 * committed) to look again once any request has long finished: it removes
 * the file unless its message exists. The file of a refused message is
 * removed at once; the job then finds nothing to remove.
 */

export const orphanAttachmentQueue = 'remove-orphan-attachment'

/** Far beyond any request's life (an upload of 10 MB, a lock wait). */
export const orphanAfterSeconds = 3_600

interface OrphanCheck {
  key: string
  messageId: string
}

export async function createOrphanAttachmentQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(orphanAttachmentQueue, { retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 })
}

export async function startOrphanAttachmentWorker(jobs: JobQueue, deps: { db: Kysely<Database>; documents: DocumentStore }): Promise<void> {
  await jobs.work<OrphanCheck>(orphanAttachmentQueue, async (check) => {
    await removeIfOrphan(deps, check)
  })
}

/** Queued before the file is stored, in a transaction of its own: it must outlive a crash of the request. */
export async function watchForOrphan(jobs: JobQueue, check: OrphanCheck): Promise<void> {
  await jobs.send<OrphanCheck>(orphanAttachmentQueue, check, { startAfter: orphanAfterSeconds, singletonKey: check.key })
}

export async function removeIfOrphan(
  deps: { db: Kysely<Database>; documents: DocumentStore },
  { key, messageId }: OrphanCheck,
): Promise<'kept' | 'removed'> {
  if (await messageHoldsAttachment(deps.db, messageId, key)) return 'kept'
  // Removing a key that is already gone (the refused message's) is no error.
  await deps.documents.delete(key)
  return 'removed'
}
