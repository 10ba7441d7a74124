import type { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import type { S3Settings } from '../../document-storage-config.ts'
import { assertDocumentKey, type DocumentStore, DocumentStoreError, isSizedStream, type SizedStream } from './port.ts'

/**
 * Identity documents in S3-compatible object storage (S3_BUCKET).
 *
 * Every PutObject asks for server-side encryption (SSE-S3, or SSE-KMS with
 * S3_KMS_KEY_ID), and sets no ACL: the object stays private to the bucket
 * owner (and a bucket that enforces owner-only objects would refuse an ACL
 * anyway). No presigned URL is ever made: the documents leave the bucket only
 * through this server, as a stream. Keys live under S3_PREFIX.
 *
 * Checksums are sent only where S3 requires them: S3-compatible services
 * that predate the SDK's default CRC32 trailers (aws-chunked bodies) would
 * store them in the object. The provider's check compares each document's
 * SHA-256 with the one recorded at upload instead.
 */
export function createS3DocumentStore(settings: S3Settings, options: { maxAttempts?: number } = {}): DocumentStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: options.maxAttempts ?? 3,
  })
  const objectKey = (key: string): string => {
    assertDocumentKey(key)
    return `${settings.prefix}${key}`
  }
  const encryption = settings.kmsKeyId
    ? ({ ServerSideEncryption: 'aws:kms', SSEKMSKeyId: settings.kmsKeyId } as const)
    : ({ ServerSideEncryption: 'AES256' } as const)

  /**
   * Whether this server may read what it writes: the probe is read, and
   * written first when it is not there (a first use, or a lifecycle rule
   * expired it). Written with the documents' encryption, so a KMS key the
   * server may no longer decrypt with is a refusal here too.
   */
  const canReadProbe = async (): Promise<boolean> => {
    const Key = objectKey(probeKey)
    const readProbe = async () => {
      const probe = await call(probeKey, () => client.send(new GetObjectCommand({ Bucket: settings.bucket, Key })))
      await probe.Body?.transformToByteArray()
    }
    try {
      await readProbe()
      return true
    } catch (error) {
      if (!isPlainAccessDenied(error)) throw error
    }
    try {
      await call(probeKey, () =>
        client.send(new PutObjectCommand({ Bucket: settings.bucket, Key, Body: probeBody, ContentType: 'text/plain', ...encryption })),
      )
      await readProbe()
      return true
    } catch (error) {
      if (isPlainAccessDenied(error)) return false
      throw error
    }
  }

  return {
    kind: 's3',

    async put(key: string, body: Uint8Array | SizedStream, contentType: string): Promise<void> {
      const Key = objectKey(key)
      const { Body, ContentLength } = isSizedStream(body)
        ? { Body: body.stream, ContentLength: body.byteLength }
        : { Body: body, ContentLength: body.byteLength }
      await call(key, () =>
        client.send(new PutObjectCommand({ Bucket: settings.bucket, Key, Body, ContentLength, ContentType: contentType, ...encryption })),
      )
    },

    async get(key: string): Promise<Readable> {
      const Key = objectKey(key)
      let response
      try {
        response = await call(key, () => client.send(new GetObjectCommand({ Bucket: settings.bucket, Key })))
      } catch (error) {
        if (!isPlainAccessDenied(error)) throw error
        // Without s3:ListBucket (the policy docs/providers.md advises) S3 answers a missing key with
        // 403 AccessDenied, not 404: read a probe object to tell a missing key from a real refusal.
        if (await canReadProbe())
          throw new DocumentStoreError('not_found', `No document under ${key} (AccessDenied: missing key)`, { cause: error })
        throw error
      }
      // In Node the SDK's body is the response's IncomingMessage, a Readable.
      if (!response.Body) throw new DocumentStoreError('unavailable', `The storage answered no body for ${key}`)
      return response.Body as Readable
    },

    async delete(key: string): Promise<void> {
      const Key = objectKey(key)
      // S3 answers 204 for a key that is not there, as the port asks.
      await call(key, () => client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key })))
    },
  }
}

/** A key no document can have (documents are the provider's `file_…` ids), holding nothing personal. */
const probeKey = 'pactum-read-probe'
const probeBody = new TextEncoder().encode('Pactum checks that it may read what it writes here.')

/** S3's AccessDenied itself: wrong credentials have codes of their own (InvalidAccessKeyId, SignatureDoesNotMatch…). */
function isPlainAccessDenied(error: unknown): boolean {
  return (
    error instanceof DocumentStoreError &&
    error.code === 'access_denied' &&
    error.cause instanceof S3ServiceException &&
    error.cause.name === 'AccessDenied'
  )
}

const deniedCodes = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'ExpiredToken', 'InvalidToken'])

/** The SDK's errors in the port's terms; the message names the S3 error code, never a credential. */
async function call<T>(key: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (error) {
    if (error instanceof S3ServiceException) {
      // A missing bucket is a configuration fault, not a missing document.
      if (error.name === 'NoSuchKey' || (error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket')) {
        throw new DocumentStoreError('not_found', `No document under ${key} (${error.name})`, { cause: error })
      }
      if (deniedCodes.has(error.name) || error.$metadata.httpStatusCode === 403) {
        throw new DocumentStoreError('access_denied', `The storage refused the request for ${key} (${error.name})`, { cause: error })
      }
    }
    throw new DocumentStoreError('unavailable', `The storage failed on ${key} (${(error as Error).name})`, { cause: error })
  }
}
