import { access, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tinyPng, uploadDocument } from '../../testing/identity-upload.ts'
import { type S3Fake, s3SettingsFor, startS3Fake } from '../../testing/s3-fake.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { DocumentStoreError } from '../document-store/port.ts'
import { createS3DocumentStore } from '../document-store/s3.ts'

/*
 * Identity documents leave the document store once the provider's check
 * has a result: at once with DOCUMENT_RETENTION_DAYS=0 (the default), N
 * days later otherwise, by a job on the test clock. The check itself reads
 * the document back from the store.
 */

const checkSeconds = 7
const day = 86_400

let testApp: TestApp | undefined
let fake: S3Fake | undefined
afterEach(async () => {
  await testApp?.close()
  await fake?.close()
  testApp = undefined
  fake = undefined
})

async function start(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const current = await createTestApp({ clock, env: { SANDBOX_DOCUMENT_CHECK_SECONDS: String(checkSeconds), ...env } })
  testApp = current
  const token = await current.tokenFor('documents@example.com', { firstName: 'Ada', lastName: 'Lovelace' })
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await current.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    })
    return { status: response.statusCode, body: response.body ? response.json() : null }
  }
  expect((await call('POST', '/me/personal/set_active_country', { country_code: 'gb' })).status).toBe(204)
  expect((await call('POST', '/me/accept_tos_direct')).status).toBe(200)
  const upload = async (fileName = 'passport.png') => {
    const response = await uploadDocument(current.app, token, { fileName })
    expect(response.status).toBe(200)
    const rows = await current.database.db
      .selectFrom('identity_document_uploads')
      .select('provider_file_id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows[0]!.provider_file_id
  }
  const frontStatus = async () => (await call('GET', '/me/personal/identity_document/verification_status')).body.front.status as string
  const deletedAt = async (fileId: string) =>
    (await current.database.db.selectFrom('sandbox_files').select('deleted_at').where('id', '=', fileId).executeTakeFirstOrThrow())
      .deleted_at
  const localFile = (fileId: string) => path.join(current.dataDir, 'sandbox-files', fileId)
  const localExists = async (fileId: string) =>
    access(localFile(fileId)).then(
      () => true,
      () => false,
    )
  return { app: current.app, clock, upload, frontStatus, deletedAt, localFile, localExists }
}

describe('document retention, local files', () => {
  it('deletes a document as soon as its check has a result when the retention is 0 (the default)', async () => {
    const { app, clock, upload, frontStatus, deletedAt, localExists } = await start()
    const fileId = await upload()
    await clock.advance(app, checkSeconds - 1)
    expect(await localExists(fileId)).toBe(true)
    expect(await deletedAt(fileId)).toBeNull()

    await clock.advance(app, 1)
    expect(await frontStatus()).toBe('verified')
    expect(await localExists(fileId)).toBe(false)
    expect(await deletedAt(fileId)).toEqual(clock.now())
  })

  it('deletes a rejected document too', async () => {
    const { app, clock, upload, frontStatus, localExists } = await start()
    const fileId = await upload('passport-unreadable.png')
    await clock.advance(app, checkSeconds)
    expect(await frontStatus()).toBe('rejected')
    expect(await localExists(fileId)).toBe(false)
  })

  it('keeps a document DOCUMENT_RETENTION_DAYS after its check, then deletes it', async () => {
    const { app, clock, upload, frontStatus, deletedAt, localExists } = await start({ DOCUMENT_RETENTION_DAYS: '3' })
    const fileId = await upload()
    await clock.advance(app, checkSeconds)
    expect(await frontStatus()).toBe('verified')
    const checkedAt = clock.now()

    await clock.advance(app, 3 * day - 1)
    expect(await localExists(fileId)).toBe(true)
    expect(await deletedAt(fileId)).toBeNull()

    await clock.advance(app, 1)
    expect(await localExists(fileId)).toBe(false)
    expect(await deletedAt(fileId)).toEqual(new Date(checkedAt.getTime() + 3 * day * 1000))
    // The verification outlives its document.
    expect(await frontStatus()).toBe('verified')
  })

  it('deletes a document replaced before its check, and checks and deletes the replacement', async () => {
    const { app, clock, upload, frontStatus, localExists } = await start()
    const first = await upload('passport-unreadable.png')
    await clock.advance(app, 2)
    const second = await upload()
    expect(await localExists(first)).toBe(true)

    await clock.advance(app, checkSeconds - 2)
    expect(await localExists(first)).toBe(false)
    expect(await localExists(second)).toBe(true)
    expect(await frontStatus()).toBe('pending')

    await clock.advance(app, 2)
    expect(await frontStatus()).toBe('verified')
    expect(await localExists(second)).toBe(false)
  })

  it('does not pass a check on a document that is missing from the store', async () => {
    const { app, clock, upload, frontStatus, deletedAt, localFile } = await start()
    const fileId = await upload()
    await rm(localFile(fileId))
    await clock.advance(app, checkSeconds)
    // The check job failed (and will be retried): nothing was verified on bytes nobody read.
    expect(await frontStatus()).toBe('pending')
    expect(await deletedAt(fileId)).toBeNull()
  })
})

describe('document retention, S3', () => {
  it('keeps the document in the bucket, encrypted, reads it back for the check, then deletes it', async () => {
    fake = await startS3Fake()
    const s3Env = {
      S3_BUCKET: fake.bucket,
      S3_REGION: fake.region,
      S3_ENDPOINT: fake.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: fake.accessKeyId,
      S3_SECRET_ACCESS_KEY: fake.secretAccessKey,
    }
    const { app, clock, upload, frontStatus, deletedAt, localExists } = await start(s3Env)
    const fileId = await upload()
    const objectPath = `/${fake.bucket}/identity-documents/${fileId}`
    const toObject = () => fake!.requests.filter((request) => request.url.split('?')[0] === objectPath)

    expect(await localExists(fileId)).toBe(false)
    expect(toObject().map((request) => request.method)).toEqual(['PUT'])
    expect(toObject()[0]!.headers['x-amz-server-side-encryption']).toBe('AES256')
    const store = createS3DocumentStore(s3SettingsFor(fake))
    const chunks: Buffer[] = []
    for await (const chunk of await store.get(fileId)) chunks.push(chunk as Buffer)
    expect(Buffer.compare(Buffer.concat(chunks), tinyPng)).toBe(0)

    await clock.advance(app, checkSeconds)
    expect(await frontStatus()).toBe('verified')
    // Our own GET above, the check's GET, then the deletion.
    expect(toObject().map((request) => request.method)).toEqual(['PUT', 'GET', 'GET', 'DELETE'])
    expect(await deletedAt(fileId)).toEqual(clock.now())
    const gone = await store.get(fileId).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(DocumentStoreError)
    expect((gone as DocumentStoreError).code).toBe('not_found')
  })
})
