import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { S3Settings } from '../../document-storage-config.ts'
import { type S3Fake, s3SettingsFor, startS3Fake } from '../../testing/s3-fake.ts'
import { createLocalDocumentStore } from './local-files.ts'
import { type DocumentStore, DocumentStoreError } from './port.ts'
import { createS3DocumentStore } from './s3.ts'

/*
 * One set of expectations for every DocumentStore: the local files (the
 * default) and S3, the latter against an S3-compatible fake (s3rver behind a
 * front that checks each request's SigV4 signature and records its headers,
 * testing/s3-fake.ts). Then what only each can show: the files' modes, the
 * S3 requests' encryption headers, keys and refused credentials.
 */

let fake: S3Fake
let localDir: string
beforeAll(async () => {
  fake = await startS3Fake()
  localDir = await mkdtemp(path.join(tmpdir(), 'pactum-documents-'))
})
afterAll(async () => {
  await fake.close()
  await rm(localDir, { recursive: true, force: true })
})

function s3Settings(overrides: Partial<S3Settings> = {}): S3Settings {
  return s3SettingsFor(fake, overrides)
}

/** Every byte value, then random bytes: nothing may be altered on the way (no text decoding, no chunk framing). */
const binary = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, index) => index)), randomBytes(70_000)])

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function refusal(promise: Promise<unknown>): Promise<DocumentStoreError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DocumentStoreError)
  return error as DocumentStoreError
}

const stores: Array<[string, () => DocumentStore]> = [
  ['local files', () => createLocalDocumentStore(localDir)],
  ['S3', () => createS3DocumentStore(s3Settings())],
]

describe.each(stores)('document store: %s', (_name, makeStore) => {
  let counter = 0
  const newKey = () => `file_${process.pid}_${++counter}`

  it('gives back exactly the bytes it was given', async () => {
    const store = makeStore()
    const key = newKey()
    await store.put(key, binary, 'image/png')
    expect(Buffer.compare(await readAll(await store.get(key)), binary)).toBe(0)
  })

  it('takes a stream of known length', async () => {
    const store = makeStore()
    const key = newKey()
    const half = binary.byteLength / 2
    await store.put(
      key,
      { stream: Readable.from([binary.subarray(0, half), binary.subarray(half)]), byteLength: binary.byteLength },
      'application/pdf',
    )
    expect(Buffer.compare(await readAll(await store.get(key)), binary)).toBe(0)
  })

  it('replaces a document put again under the same key', async () => {
    const store = makeStore()
    const key = newKey()
    await store.put(key, Buffer.from('first'), 'application/pdf')
    await store.put(key, Buffer.from('second'), 'application/pdf')
    expect((await readAll(await store.get(key))).toString()).toBe('second')
  })

  it('keeps keys with segments apart', async () => {
    const store = makeStore()
    const key = newKey()
    await store.put(`${key}/front`, Buffer.from('front'), 'image/jpeg')
    await store.put(`${key}/back`, Buffer.from('back'), 'image/jpeg')
    expect((await readAll(await store.get(`${key}/front`))).toString()).toBe('front')
    expect((await readAll(await store.get(`${key}/back`))).toString()).toBe('back')
  })

  it('deletes, after which the key is not found; deleting again is no error', async () => {
    const store = makeStore()
    const key = newKey()
    await store.put(key, binary, 'image/png')
    await store.delete(key)
    expect((await refusal(store.get(key))).code).toBe('not_found')
    await store.delete(key)
  })

  it('answers not_found for a key never put', async () => {
    const error = await refusal(makeStore().get(newKey()))
    expect(error.code).toBe('not_found')
    expect(error.message).toMatch(/No document under file_/)
  })

  it.each([
    '../escape',
    '..',
    'a/../../b',
    '/absolute',
    'trailing/',
    'double//slash',
    'back\\slash',
    'dot.file',
    '',
    'space here',
    'x'.repeat(513),
    'nul\u0000byte',
  ])('refuses the key %j for every operation', async (key) => {
    const store = makeStore()
    expect((await refusal(store.put(key, binary, 'image/png'))).code).toBe('invalid_key')
    expect((await refusal(store.get(key))).code).toBe('invalid_key')
    expect((await refusal(store.delete(key))).code).toBe('invalid_key')
  })
})

describe('local document store', () => {
  it('keeps files readable by the owner only, in owner-only directories, and leaves no temporary file', async () => {
    const dir = path.join(localDir, 'modes')
    const store = createLocalDocumentStore(dir)
    await store.put('file_a/front', binary, 'image/png')
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    expect((await stat(path.join(dir, 'file_a'))).mode & 0o777).toBe(0o700)
    expect((await stat(path.join(dir, 'file_a', 'front'))).mode & 0o777).toBe(0o600)
    expect(await readdir(path.join(dir, 'file_a'))).toEqual(['front'])
  })

  it('writes nothing under the key when the stream fails', async () => {
    const dir = path.join(localDir, 'broken')
    const store = createLocalDocumentStore(dir)
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'))
      },
    })
    await expect(store.put('file_broken', { stream: failing, byteLength: 10 }, 'image/png')).rejects.toThrow('connection reset')
    expect(await readdir(dir)).toEqual([])
  })
})

describe('S3 document store', () => {
  const requestsFor = (key: string) =>
    fake.requests.filter((request) => request.url.split('?')[0] === `/${fake.bucket}/identity-documents/${key}`)

  it('asks for SSE-S3 on every put, sets no ACL, signs with SigV4 and keeps the key under the prefix', async () => {
    const store = createS3DocumentStore(s3Settings())
    await store.put('file_sse', binary, 'image/png')
    await store.put('file_sse_stream', { stream: Readable.from([binary]), byteLength: binary.byteLength }, 'image/png')
    for (const key of ['file_sse', 'file_sse_stream']) {
      const puts = requestsFor(key).filter((request) => request.method === 'PUT')
      expect(puts, key).toHaveLength(1)
      const headers = puts[0]!.headers
      expect(headers['x-amz-server-side-encryption'], key).toBe('AES256')
      expect(headers['x-amz-server-side-encryption-aws-kms-key-id'], key).toBeUndefined()
      expect(headers['x-amz-acl'], key).toBeUndefined()
      expect(headers['content-type'], key).toBe('image/png')
      expect(headers['content-length'], key).toBe(String(binary.byteLength))
      expect(headers.authorization, key).toMatch(
        /^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=[^,]*x-amz-server-side-encryption[^,]*, Signature=[0-9a-f]{64}$/,
      )
    }
    // Nothing anywhere asked for a URL to hand out: no presigned query parameters were ever sent.
    expect(fake.requests.some((request) => /X-Amz-Signature|X-Amz-Credential/i.test(request.url))).toBe(false)
  })

  it('asks for SSE-KMS with the configured key when S3_KMS_KEY_ID is set', async () => {
    const store = createS3DocumentStore(s3Settings({ kmsKeyId: 'arn:aws:kms:eu-central-1:111122223333:key/pactum-documents' }))
    await store.put('file_kms', binary, 'application/pdf')
    const [put] = requestsFor('file_kms').filter((request) => request.method === 'PUT')
    expect(put?.headers['x-amz-server-side-encryption']).toBe('aws:kms')
    expect(put?.headers['x-amz-server-side-encryption-aws-kms-key-id']).toBe('arn:aws:kms:eu-central-1:111122223333:key/pactum-documents')
  })

  it('keeps keys under another prefix, or none', async () => {
    await createS3DocumentStore(s3Settings({ prefix: 'kyc/eu/' })).put('file_prefixed', binary, 'image/png')
    await createS3DocumentStore(s3Settings({ prefix: '' })).put('file_unprefixed', binary, 'image/png')
    const paths = fake.requests.filter((request) => request.method === 'PUT').map((request) => request.url.split('?')[0])
    expect(paths).toContain(`/${fake.bucket}/kyc/eu/file_prefixed`)
    expect(paths).toContain(`/${fake.bucket}/file_unprefixed`)
  })

  it.each([
    ['a wrong secret', { accessKeyId: 'S3RVER', secretAccessKey: 'not-the-secret' }],
    ['an unknown access key id', { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'S3RVER' }],
  ])('refuses %s as access_denied, for put, get and delete, without naming the secret', async (_label, credentials) => {
    const good = createS3DocumentStore(s3Settings())
    await good.put('file_guarded', binary, 'image/png')
    const store = createS3DocumentStore(s3Settings({ credentials }), { maxAttempts: 1 })
    for (const attempt of [
      () => store.put('file_intruder', binary, 'image/png'),
      () => store.get('file_guarded'),
      () => store.delete('file_guarded'),
    ]) {
      const error = await refusal(attempt())
      expect(error.code).toBe('access_denied')
      expect(error.message).not.toContain(credentials.secretAccessKey)
    }
    // Nothing was written or deleted with the wrong credentials.
    expect(Buffer.compare(await readAll(await good.get('file_guarded')), binary)).toBe(0)
    expect((await refusal(good.get('file_intruder'))).code).toBe('not_found')
  })

  it('tells a missing key (403 without s3:ListBucket) from a read it may not make', async () => {
    const store = createS3DocumentStore(s3Settings(), { maxAttempts: 1 })
    await store.put('file_readable', binary, 'image/png')
    const missing = await refusal(store.get('file_never_put'))
    expect(missing.code).toBe('not_found')
    // S3 itself answered 403 AccessDenied: the store read its probe to know the key is missing.
    const answers = fake.requests.filter((request) => request.url.split('?')[0] === `/${fake.bucket}/identity-documents/file_never_put`)
    expect(answers.map((request) => request.method)).toEqual(['GET'])
    fake.denyReads = true
    try {
      expect((await refusal(store.get('file_readable'))).code).toBe('access_denied')
      expect((await refusal(store.get('file_never_put'))).code).toBe('access_denied')
    } finally {
      fake.denyReads = false
    }
    expect(Buffer.compare(await readAll(await store.get('file_readable')), binary)).toBe(0)
  })

  it('answers not_found from the 404 that S3 gives credentials holding s3:ListBucket', async () => {
    const listing = await startS3Fake({ listBucket: true })
    try {
      const store = createS3DocumentStore(s3SettingsFor(listing), { maxAttempts: 1 })
      expect((await refusal(store.get('file_never_put'))).code).toBe('not_found')
      // No probe was needed.
      expect(listing.requests.map((request) => request.url.split('?')[0])).toEqual([`/${listing.bucket}/identity-documents/file_never_put`])
    } finally {
      await listing.close()
    }
  })

  it('answers unavailable when the bucket does not exist or the service does not answer', async () => {
    const missingBucket = createS3DocumentStore(s3Settings({ bucket: 'no-such-bucket' }), { maxAttempts: 1 })
    expect((await refusal(missingBucket.get('file_x'))).code).toBe('unavailable')
    const closedPort = createS3DocumentStore(s3Settings({ endpoint: 'http://127.0.0.1:9' }), { maxAttempts: 1 })
    expect((await refusal(closedPort.put('file_x', binary, 'image/png'))).code).toBe('unavailable')
  })
})
