import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { text } from 'node:stream/consumers'
import { createLocalDocumentStore } from '../../adapters/document-store/local-files.ts'
import type { DocumentStore } from '../../adapters/document-store/port.ts'
import { createS3DocumentStore } from '../../adapters/document-store/s3.ts'
import type { DocumentsConfig } from '../../document-storage-config.ts'
import { answered, ok, type ProviderReport } from '../report.ts'

/**
 * Identity documents: local files or S3. Checked the way the server uses
 * the store: a small probe written (with the server-side encryption every
 * document gets), read back and deleted, under a key of its own.
 */
export async function checkDocuments(documents: DocumentsConfig, dataDir: string): Promise<ProviderReport> {
  const { storage } = documents
  const store: DocumentStore =
    storage.store === 's3'
      ? createS3DocumentStore(storage.s3, { maxAttempts: 1 })
      : createLocalDocumentStore(path.join(dataDir, 'sandbox-files'))
  const roundTrip = await answered('write, read back and delete a probe', async () => {
    // At the top level: a folder of its own would stay behind, empty, in local files.
    const key = `doctor-probe-${randomUUID()}`
    const content = `pactum doctor ${new Date().toISOString()}`
    await store.put(key, new TextEncoder().encode(content), 'text/plain')
    try {
      if ((await text(await store.get(key))) !== content) throw new Error('the probe read back differs from what was written')
    } finally {
      await store.delete(key)
    }
    return 'done'
  })
  const retention = ok(
    'retention',
    `documents are deleted ${documents.retentionDays === 0 ? 'as soon as' : `${documents.retentionDays} days after`} their check has a result`,
  )
  if (storage.store === 'local') {
    return {
      service: 'documents',
      mode: 'sandbox',
      summary: `local files in ${path.join(dataDir, 'sandbox-files')}`,
      checks: [retention, roundTrip],
    }
  }
  const { s3 } = storage
  return {
    service: 'documents',
    mode: 'real',
    summary: `S3 bucket ${s3.bucket}${s3.prefix ? ` under ${s3.prefix}` : ''}${s3.endpoint ? ` at ${s3.endpoint}` : ` in ${s3.region}`}`,
    checks: [ok('encryption', s3.kmsKeyId ? 'SSE-KMS with S3_KMS_KEY_ID' : 'SSE-S3 (AES256)'), retention, roundTrip],
  }
}
