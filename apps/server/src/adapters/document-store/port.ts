import type { Readable } from 'node:stream'

/**
 * Where identity documents are kept while the payment provider checks them
 * (issue 14 item 5). Two adapters, chosen once in adapters/providers.ts:
 * local files under DATA_DIR (the default, `local-files.ts`) and
 * S3-compatible object storage when S3_BUCKET is set (`s3.ts`). Neither
 * ever hands out a URL: the bytes leave only through `get`, as a stream.
 *
 * Keys are ours (the provider's file ids), never a user's file name: they
 * are checked by `assertDocumentKey` so that no key can climb out of its
 * directory or prefix.
 */
export interface DocumentStore {
  readonly kind: 'local' | 's3'
  /** Stores (or replaces) the document. A stream must say its length: S3 refuses a body of unknown length. */
  put(key: string, body: Uint8Array | SizedStream, contentType: string): Promise<void>
  /** The document's bytes; `not_found` when there is none under the key. */
  get(key: string): Promise<Readable>
  /** Removes the document; removing a missing key is not an error (deletion is retried). */
  delete(key: string): Promise<void>
}

export interface SizedStream {
  stream: Readable
  byteLength: number
}

export type DocumentStoreErrorCode =
  /** A key that does not match `documentKeyPattern`. */
  | 'invalid_key'
  | 'not_found'
  /** The storage refused our credentials or our rights (S3: InvalidAccessKeyId, SignatureDoesNotMatch, AccessDenied). */
  | 'access_denied'
  /** Anything else: the storage could not be reached or failed. */
  | 'unavailable'

export class DocumentStoreError extends Error {
  readonly code: DocumentStoreErrorCode
  constructor(code: DocumentStoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'DocumentStoreError'
    this.code = code
  }
}

/**
 * Segments of letters, digits, `_` and `-` (starting with a letter or a
 * digit) joined by `/`: no `.`, so no `..`, no leading `/`, no empty
 * segment, no backslash; at most 512 characters.
 */
const documentKeyPattern = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/

export function assertDocumentKey(key: string): void {
  if (key.length > 512 || !documentKeyPattern.test(key)) {
    // The key is not repeated: it may come from a bug that put something else in it.
    throw new DocumentStoreError('invalid_key', 'Document keys are segments of letters, digits, _ and - joined by /')
  }
}

export function isSizedStream(body: Uint8Array | SizedStream): body is SizedStream {
  return !(body instanceof Uint8Array)
}
