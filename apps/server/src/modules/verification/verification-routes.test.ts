import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type FilePart, type FormParts, multipartBody, tinyPng } from '../../testing/identity-upload.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'

/** The sandbox's simulated check time; the tests move the clock past it. */
const checkSeconds = 7
const identityEnv = { IDENTITY_VERIFICATION_METHOD: 'stripe_identity' }

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function start(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const current = await createTestApp({ clock, env: { SANDBOX_DOCUMENT_CHECK_SECONDS: String(checkSeconds), ...env } })
  testApp = current
  const { app } = current
  /** Moves the clock past the provider's check and runs it. */
  const finishChecks = async () => {
    await clock.advance(app, checkSeconds)
  }
  return { testApp: current, app, clock, finishChecks, signIn: (email: string) => signIn(current, email) }
}

type Method = 'GET' | 'POST'

async function signIn(current: TestApp, email: string) {
  const token = await current.tokenFor(email, { firstName: 'Ada', lastName: 'Lovelace' })
  const headers = { authorization: `Bearer ${token}` }
  const call = async (method: Method, url: string, payload?: object) => {
    const response = await current.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : null, raw: response.body }
  }
  const upload = async (document: string, parts: FormParts) => {
    const { payload, contentType } = await multipartBody(parts)
    const response = await current.app.inject({
      method: 'POST',
      url: `/api/v1/me/personal/${document}`,
      headers: { ...headers, 'content-type': contentType },
      payload,
    })
    return { status: response.statusCode, body: response.json() }
  }
  const onboard = async () => {
    expect((await call('POST', '/me/personal/set_active_country', { country_code: 'gb' })).status).toBe(204)
    expect((await call('POST', '/me/accept_tos_direct')).status).toBe(200)
  }
  const requirements = async (): Promise<string[]> => {
    const response = await call('GET', '/me/personal/payout_requirements')
    expect(response.status).toBe(200)
    return response.body.requirements.other
  }
  const id = async () =>
    (await current.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
  return { headers, call, upload, onboard, requirements, id }
}

const png = tinyPng
const jpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
])
const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')
const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

/** A PNG (signature, IHDR, IDAT, IEND) padded with zeros to exactly `size` bytes. */
function pngOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size)
  png.copy(bytes)
  return bytes
}

const pngFile = (fileName = 'passport.png'): FilePart => ({ bytes: png, fileName, type: 'image/png' })

const newDocumentSide = { status: 'not_uploaded', previously_submitted: false, rejection_reason: null }

describe('authentication', () => {
  it('answers 401 without a token on every route', async () => {
    const { app } = await start()
    for (const [method, url] of [
      ['GET', '/me/verification_method'],
      ['GET', '/me/verification_status'],
      ['GET', '/me/verification_session'],
      ['GET', '/me/account_session'],
      ['GET', '/me/personal/identity_document/verification_status'],
      ['GET', '/me/personal/additional_identity_document/verification_status'],
      ['POST', '/me/personal/identity_document'],
      ['POST', '/me/personal/additional_identity_document'],
      ['POST', '/me/personal/business_url'],
    ] as const) {
      const response = await app.inject({ method, url: `/api/v1${url}`, ...(method === 'POST' ? { payload: {} } : {}) })
      expect(response.statusCode, `${method} ${url}`).toBe(401)
      expect(response.json(), `${method} ${url}`).toMatchObject({ code: 'unauthenticated' })
    }
  })

  it('refuses a multipart upload without a token before reading it, storing nothing', async () => {
    const { app, testApp: current } = await start()
    const { payload, contentType } = await multipartBody([['file', pngFile()]])
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/me/personal/identity_document',
      headers: { 'content-type': contentType },
      payload,
    })
    expect(response.statusCode).toBe(401)
    expect(await current.database.db.selectFrom('identity_document_uploads').selectAll().execute()).toEqual([])
  })
})

describe('GET /me/verification_method', () => {
  it.each([
    {
      method: 'legacy',
      env: {} as Record<string, string>,
      asksFor: 'passport',
      status: {
        verification_method: 'legacy',
        verified: false,
        message: '',
        verification_session_id: null,
        verification_session_status: 'not_created',
      },
    },
    {
      method: 'stripe_identity',
      env: { IDENTITY_VERIFICATION_METHOD: 'stripe_identity' },
      asksFor: 'selfie',
      status: expect.objectContaining({ verification_method: 'stripe_identity', verified: false }),
    },
  ])('answers $method when configured so (legacy by default)', async ({ method, env, asksFor, status }) => {
    const { signIn } = await start(env)
    const user = await signIn(`method-${method}@example.com`)
    const response = await user.call('GET', '/me/verification_method')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ verification_method: method, message: expect.stringContaining(asksFor) })
    expect((await user.call('GET', '/me/verification_status')).body).toEqual(status)
  })
})

describe('GET /me/personal/:document/verification_status', () => {
  it('shows a new user the identity document due and nothing submitted, without creating an account', async () => {
    const { signIn, app } = await start()
    const user = await signIn('new-status@example.com')
    expect(await user.call('GET', '/me/personal/identity_document/verification_status')).toMatchObject({
      status: 200,
      body: { document: 'identity_document', required: true, front: newDocumentSide, back: newDocumentSide },
    })
    expect((await user.call('GET', '/me/personal/additional_identity_document/verification_status')).body).toEqual({
      document: 'additional_identity_document',
      required: false,
      front: newDocumentSide,
      back: newDocumentSide,
    })
    expect(await app.services.db.selectFrom('sandbox_accounts').selectAll().execute()).toEqual([])
  })

  it('answers 400 for an unknown document name', async () => {
    const { signIn } = await start()
    const user = await signIn('unknown-document@example.com')
    for (const name of ['passport', 'IDENTITY_DOCUMENT', 'identity_document%00']) {
      const response = await user.call('GET', `/me/personal/${name}/verification_status`)
      expect(response.status, name).toBe(400)
      expect(response.body.code, name).toBe('validation_failed')
    }
    const upload = await user.upload('passport', [['file', pngFile()]])
    expect(upload.status).toBe(400)
    expect(upload.body.code).toBe('validation_failed')
  })
})

describe('legacy upload: POST /me/personal/:document', () => {
  it('takes a PNG front: pending, then verified, and the payout requirements stop asking for it', async () => {
    const { signIn, finishChecks, testApp: current } = await start()
    const user = await signIn('upload-png@example.com')
    await user.onboard()
    expect(await user.requirements()).toContain('identity_document')

    const uploaded = await user.upload('identity_document', [
      ['side', 'front'],
      ['file', pngFile()],
    ])
    expect(uploaded.status).toBe(200)
    expect(uploaded.body).toEqual({
      document: 'identity_document',
      required: false,
      front: { status: 'pending', previously_submitted: true, rejection_reason: null },
      back: newDocumentSide,
    })
    // Being checked: not due, but not verified either.
    expect(await user.requirements()).not.toContain('identity_document')
    expect((await user.call('GET', '/me/verification_status')).body).toMatchObject({ verified: false, message: '' })

    await finishChecks()
    expect((await user.call('GET', '/me/personal/identity_document/verification_status')).body).toEqual({
      document: 'identity_document',
      required: false,
      front: { status: 'verified', previously_submitted: true, rejection_reason: null },
      back: newDocumentSide,
    })
    expect(await user.requirements()).toEqual(['credit_account'])
    expect((await user.call('GET', '/me/verification_status')).body).toEqual({
      verification_method: 'legacy',
      verified: true,
      message: '',
      verification_session_id: null,
      verification_session_status: 'not_created',
    })

    const rows = await current.database.db.selectFrom('identity_document_uploads').selectAll().execute()
    expect(rows).toEqual([
      expect.objectContaining({
        user_id: await user.id(),
        document: 'identity_document',
        side: 'front',
        content_type: 'image/png',
        size_bytes: png.byteLength,
        sha256: createHash('sha256').update(png).digest('hex'),
      }),
    ])
  })

  it('defaults to the front, takes the back with side=back, and accepts a PDF and a JPEG', async () => {
    const { signIn, finishChecks } = await start()
    const user = await signIn('upload-sides@example.com')
    await user.onboard()

    const back = await user.upload('identity_document', [
      ['side', 'back'],
      ['file', { bytes: jpeg, fileName: 'licence-back.jpg', type: 'image/jpeg' }],
    ])
    expect(back.status).toBe(200)
    expect(back.body.back).toEqual({ status: 'pending', previously_submitted: true, rejection_reason: null })
    expect(back.body.front).toEqual(newDocumentSide)
    // The back alone does not satisfy the requirement: the front is what is checked.
    expect(back.body.required).toBe(true)
    expect(await user.requirements()).toContain('identity_document')

    const front = await user.upload('identity_document', [['file', { bytes: pdf, fileName: 'licence.pdf', type: 'application/pdf' }]])
    expect(front.status).toBe(200)
    expect(front.body.front).toEqual({ status: 'pending', previously_submitted: true, rejection_reason: null })
    expect(front.body.back.status).toBe('pending')
    expect(front.body.required).toBe(false)

    await finishChecks()
    const status = (await user.call('GET', '/me/personal/identity_document/verification_status')).body
    expect(status.front.status).toBe('verified')
    expect(status.back.status).toBe('verified')
  })

  it('records the type found in the content, not the name or the declared type', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('sniffed@example.com')
    const response = await user.upload('identity_document', [['file', { bytes: pdf, fileName: 'scan.png', type: 'image/png' }]])
    expect(response.status).toBe(200)
    const row = await current.database.db
      .selectFrom('identity_document_uploads')
      .select(['content_type', 'size_bytes'])
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ content_type: 'application/pdf', size_bytes: pdf.byteLength })
    const file = await current.database.db.selectFrom('sandbox_files').select(['content_type', 'file_name']).executeTakeFirstOrThrow()
    expect(file).toEqual({ content_type: 'application/pdf', file_name: 'scan.png' })
  })
})

describe('refused uploads store nothing', () => {
  async function expectNothingStored(current: TestApp, label: string) {
    expect(await current.database.db.selectFrom('identity_document_uploads').selectAll().execute(), label).toEqual([])
    expect(await current.database.db.selectFrom('sandbox_files').selectAll().execute(), label).toEqual([])
    const stored = await readdir(path.join(current.dataDir, 'sandbox-files')).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return []
      throw error
    })
    expect(stored, label).toEqual([])
  }

  it('refuses files whose content is not pdf, png or jpeg with 415 naming body.file', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('attack-type@example.com')
    const disguised: Array<[string, FilePart]> = [
      [
        'html as png',
        {
          bytes: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
          fileName: 'passport.png',
          type: 'image/png',
        },
      ],
      [
        'svg as png',
        { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), fileName: 'passport.png', type: 'image/png' },
      ],
      ['text as pdf', { bytes: Buffer.from('just some text'), fileName: 'passport.pdf', type: 'application/pdf' }],
      ['gif as jpeg', { bytes: gif, fileName: 'passport.jpg', type: 'image/jpeg' }],
      ['truncated png signature', { bytes: png.subarray(0, 4), fileName: 'passport.png', type: 'image/png' }],
    ]
    for (const [label, file] of disguised) {
      const response = await user.upload('identity_document', [['file', file]])
      expect(response.status, label).toBe(415)
      expect(response.body, label).toMatchObject({ code: 'unsupported_file_type', details: { field: 'body.file' } })
      await expectNothingStored(current, label)
    }
  })

  it('refuses an empty file with 400 naming body.file', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('attack-empty@example.com')
    const response = await user.upload('identity_document', [
      ['file', { bytes: Buffer.alloc(0), fileName: 'passport.png', type: 'image/png' }],
    ])
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({
      code: 'validation_failed',
      error: 'body.file: The file is empty',
      details: { field: 'body.file' },
    })
    await expectNothingStored(current, 'empty')
  })

  it('refuses 10,000,001 bytes with 413 and takes exactly 10,000,000', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('attack-size@example.com')
    const tooBig = await user.upload('identity_document', [
      ['file', { bytes: pngOfSize(10_000_001), fileName: 'passport.png', type: 'image/png' }],
    ])
    expect(tooBig.status).toBe(413)
    expect(tooBig.body).toMatchObject({ code: 'file_too_large', details: { field: 'body.file' } })
    await expectNothingStored(current, 'too big')

    const largest = pngOfSize(10_000_000)
    const accepted = await user.upload('identity_document', [['file', { bytes: largest, fileName: 'passport.png', type: 'image/png' }]])
    expect(accepted.status).toBe(200)
    expect(accepted.body.front.status).toBe('pending')
    const row = await current.database.db
      .selectFrom('identity_document_uploads')
      .select(['size_bytes', 'provider_file_id'])
      .executeTakeFirstOrThrow()
    expect(row.size_bytes).toBe(10_000_000)
    expect((await stat(path.join(current.dataDir, 'sandbox-files', row.provider_file_id))).size).toBe(10_000_000)
  })

  it('refuses a request that is not multipart with 415', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('attack-json@example.com')
    const json = await user.call('POST', '/me/personal/identity_document', { file: png.toString('base64'), side: 'front' })
    expect(json.status).toBe(415)
    expect(json.body.code).toBe('unsupported_media_type')
    await expectNothingStored(current, 'json')
  })

  it('refuses a form without the file field, with a wrong side, or with two files, with 400', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('attack-fields@example.com')
    const sideThenFile = (side: string): FormParts => [
      ['side', side],
      ['file', pngFile()],
    ]
    const cases: Array<[string, FormParts, string]> = [
      ['side only', [['side', 'front']], 'body.file'],
      ['the file under another name', [['document', pngFile()]], 'body.file'],
      ['file as a plain field', [['file', png.toString('latin1')]], 'body.file'],
      ['side=middle before the file', sideThenFile('middle'), 'body.side'],
      [
        'side=middle after the file',
        [
          ['file', pngFile()],
          ['side', 'middle'],
        ],
        'body.side',
      ],
      ['an empty side', sideThenFile(''), 'body.side'],
      [
        'two files',
        [
          ['file', pngFile()],
          ['file', pngFile('second.png')],
        ],
        'body',
      ],
      // The same rule as every other input: no control characters.
      ['a NUL in the file name', [['file', pngFile('passport\u0000.png')]], 'body.file'],
      ['an escape in the file name', [['file', pngFile('\u001b[31mpassport.png')]], 'body.file'],
    ]
    for (const [label, parts, field] of cases) {
      const response = await user.upload('identity_document', parts)
      expect(response.status, label).toBe(400)
      // Named as schema validation names a body field, whatever part of the form is at fault.
      expect(response.body, label).toMatchObject({
        code: 'validation_failed',
        error: expect.stringMatching(`^${field}: `),
        details: { field, fields: [{ field }] },
      })
      await expectNothingStored(current, label)
    }
  })

  it('refuses a malformed multipart body with 400, not a server error', async () => {
    const { signIn, app, testApp: current } = await start()
    const user = await signIn('attack-malformed@example.com')
    const { payload, contentType } = await multipartBody([['file', pngFile()]])
    const cases: Array<[string, string, Buffer]> = [
      ['no boundary', 'multipart/form-data', payload],
      ['cut short', contentType, payload.subarray(0, payload.length - 20)],
      ['another boundary', 'multipart/form-data; boundary=not-the-one-used', payload],
    ]
    for (const [label, type, body] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/me/personal/identity_document',
        headers: { ...user.headers, 'content-type': type },
        payload: body,
      })
      expect(response.statusCode, label).toBe(400)
      expect(response.json(), label).toMatchObject({ code: 'validation_failed', details: { field: 'body' } })
      await expectNothingStored(current, label)
    }
  })

  it('limits uploads per user, counting refused ones', async () => {
    const { signIn } = await start()
    const greedy = await signIn('attack-rate@example.com')
    const empty: FormParts = [['file', { bytes: Buffer.alloc(0), fileName: 'x.png', type: 'image/png' }]]
    for (let attempt = 1; attempt <= 30; attempt++)
      expect((await greedy.upload('identity_document', empty)).status, String(attempt)).toBe(400)
    const limited = await greedy.upload('identity_document', [['file', pngFile()]])
    expect(limited.status).toBe(429)
    const other = await signIn('not-rate-limited@example.com')
    expect((await other.upload('identity_document', [['file', pngFile()]])).status).toBe(200)
  })
})

describe('rejected documents', () => {
  it('rejects an unreadable file with a reason, asks again, and verifies a good replacement', async () => {
    const { signIn, finishChecks } = await start()
    const user = await signIn('rejected@example.com')
    await user.onboard()
    expect((await user.upload('identity_document', [['file', pngFile('passport-unreadable.png')]])).status).toBe(200)
    await finishChecks()

    const rejected = (await user.call('GET', '/me/personal/identity_document/verification_status')).body
    expect(rejected).toEqual({
      document: 'identity_document',
      required: true,
      front: { status: 'rejected', previously_submitted: true, rejection_reason: expect.stringContaining('could not be read') },
      back: newDocumentSide,
    })
    expect(await user.requirements()).toContain('identity_document')
    const status = (await user.call('GET', '/me/verification_status')).body
    expect(status).toMatchObject({ verified: false, message: rejected.front.rejection_reason })

    const again = await user.upload('identity_document', [['file', pngFile('passport-sharp.png')]])
    expect(again.status).toBe(200)
    expect(again.body.front).toEqual({ status: 'pending', previously_submitted: true, rejection_reason: null })
    expect(again.body.required).toBe(false)
    await finishChecks()
    expect((await user.call('GET', '/me/personal/identity_document/verification_status')).body.front).toEqual({
      status: 'verified',
      previously_submitted: true,
      rejection_reason: null,
    })
    expect((await user.call('GET', '/me/verification_status')).body).toMatchObject({ verified: true, message: '' })
    expect(await user.requirements()).not.toContain('identity_document')
  })

  it('rejects an expired document with its own reason', async () => {
    const { signIn, finishChecks } = await start()
    const user = await signIn('expired@example.com')
    await user.upload('identity_document', [['file', { bytes: pdf, fileName: 'ID-EXPIRED.pdf', type: 'application/pdf' }]])
    await finishChecks()
    const front = (await user.call('GET', '/me/personal/identity_document/verification_status')).body.front
    expect(front).toEqual({ status: 'rejected', previously_submitted: true, rejection_reason: expect.stringContaining('expired') })
  })

  it('checks the newest file when one replaces another still pending', async () => {
    const { signIn, finishChecks } = await start()
    const user = await signIn('replaced@example.com')
    await user.upload('identity_document', [['file', pngFile('passport-unreadable.png')]])
    await user.upload('identity_document', [['file', pngFile('passport.png')]])
    await finishChecks()
    expect((await user.call('GET', '/me/personal/identity_document/verification_status')).body.front.status).toBe('verified')
  })
})

describe('additional identity document', () => {
  it('is asked for after an address mismatch and no longer once uploaded', async () => {
    const { signIn, finishChecks } = await start()
    const user = await signIn('address@example.com')
    await user.onboard()
    await user.upload('identity_document', [['file', pngFile('passport-address_no_match.png')]])
    expect((await user.call('GET', '/me/personal/additional_identity_document/verification_status')).body.required).toBe(false)
    await finishChecks()

    expect((await user.call('GET', '/me/personal/identity_document/verification_status')).body.front.status).toBe('verified')
    expect((await user.call('GET', '/me/personal/additional_identity_document/verification_status')).body).toEqual({
      document: 'additional_identity_document',
      required: true,
      front: newDocumentSide,
      back: newDocumentSide,
    })
    expect(await user.requirements()).toEqual(['credit_account', 'additional_identity_document'])

    const uploaded = await user.upload('additional_identity_document', [
      ['file', { bytes: pdf, fileName: 'utility-bill.pdf', type: 'application/pdf' }],
    ])
    expect(uploaded.status).toBe(200)
    expect(uploaded.body).toEqual({
      document: 'additional_identity_document',
      required: false,
      front: { status: 'pending', previously_submitted: true, rejection_reason: null },
      back: newDocumentSide,
    })
    expect(await user.requirements()).toEqual(['credit_account'])
    await finishChecks()
    expect((await user.call('GET', '/me/personal/additional_identity_document/verification_status')).body.front.status).toBe('verified')
    expect(await user.requirements()).toEqual(['credit_account'])
    // The identity document's own status is untouched by the additional one.
    expect((await user.call('GET', '/me/personal/identity_document/verification_status')).body.front.previously_submitted).toBe(true)
  })
})

describe('stored files', () => {
  it('are kept under DATA_DIR/sandbox-files, readable by the owner only, and never served', async () => {
    const { signIn, app, testApp: current } = await start()
    const user = await signIn('files@example.com')
    expect((await user.upload('identity_document', [['file', pngFile()]])).status).toBe(200)
    const row = await current.database.db.selectFrom('identity_document_uploads').select('provider_file_id').executeTakeFirstOrThrow()
    const filesDir = path.join(current.dataDir, 'sandbox-files')
    expect(await readdir(filesDir)).toEqual([row.provider_file_id])
    const filePath = path.join(filesDir, row.provider_file_id)
    expect((await stat(filePath)).mode & 0o777).toBe(0o600)
    expect((await stat(filesDir)).mode & 0o777).toBe(0o700)
    expect(Buffer.compare(await readFile(filePath), png)).toBe(0)

    const fileId = row.provider_file_id
    for (const url of [
      `/sandbox-files/${fileId}`,
      `/data/sandbox-files/${fileId}`,
      `/sandbox/files/${fileId}`,
      `/sandbox/v1/files/${fileId}`,
      `/api/v1/files/${fileId}`,
      `/api/v1/me/personal/identity_document`,
      `/api/v1/me/personal/identity_document/${fileId}`,
      `/${fileId}`,
      `/sandbox/../sandbox-files/${fileId}`,
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: user.headers })
      expect(response.statusCode, url).toBe(404)
      expect(response.rawPayload.includes(png.subarray(8, 24)), url).toBe(false)
    }
    // The API never hands out the provider's file id either.
    const status = await user.call('GET', '/me/personal/identity_document/verification_status')
    expect(status.raw).not.toContain(fileId)
  })
})

describe('per-user documents', () => {
  it("shows user B nothing of user A's uploads", async () => {
    const { signIn, finishChecks } = await start()
    const alice = await signIn('alice@example.com')
    const bob = await signIn('bob@example.com')
    await alice.upload('identity_document', [['file', pngFile('passport-address_no_match.png')]])
    await alice.upload('identity_document', [
      ['side', 'back'],
      ['file', pngFile()],
    ])
    await finishChecks()
    expect((await alice.call('GET', '/me/verification_status')).body.verified).toBe(true)
    expect((await alice.call('GET', '/me/personal/additional_identity_document/verification_status')).body.required).toBe(true)

    expect((await bob.call('GET', '/me/personal/identity_document/verification_status')).body).toEqual({
      document: 'identity_document',
      required: true,
      front: newDocumentSide,
      back: newDocumentSide,
    })
    expect((await bob.call('GET', '/me/personal/additional_identity_document/verification_status')).body.required).toBe(false)
    expect((await bob.call('GET', '/me/verification_status')).body).toMatchObject({ verified: false, message: '' })

    // Bob's own upload lands on his account and leaves Alice's as it was.
    await bob.upload('identity_document', [['file', pngFile('bob-unreadable.png')]])
    await finishChecks()
    expect((await bob.call('GET', '/me/personal/identity_document/verification_status')).body.front.status).toBe('rejected')
    expect((await alice.call('GET', '/me/personal/identity_document/verification_status')).body.front.status).toBe('verified')
  })
})

describe('stripe_identity: verification session', () => {
  async function submitHostedForm(
    app: TestApp['app'],
    session: { verification_session_id: string; client_secret: string },
    outcome: string,
    returnUrl = '/profile/details',
  ) {
    return app.inject({
      method: 'POST',
      url: `/sandbox/identity/${session.verification_session_id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_secret: session.client_secret, return_url: returnUrl, outcome }).toString(),
    })
  }

  it('creates one session, verifies it on the hosted page, and attaches it to the payout account', async () => {
    const { signIn, app, finishChecks } = await start(identityEnv)
    const user = await signIn('identity-ok@example.com')
    await user.onboard()
    expect(await user.requirements()).toContain('identity_document')

    const created = await user.call('GET', '/me/verification_session?return_url=/profile/details')
    expect(created.status).toBe(200)
    expect(created.body).toEqual({
      verification_session_id: expect.stringMatching(/^vs_/),
      verification_session_status: 'requires_input',
      client_secret: expect.stringContaining('_secret_'),
      url: expect.stringMatching(/^\/sandbox\/identity\//),
      message: '',
    })
    const session = created.body
    const again = await user.call('GET', '/me/verification_session?return_url=/profile/details')
    expect(again.body.verification_session_id).toBe(session.verification_session_id)
    expect(again.body.client_secret).toBe(session.client_secret)
    expect((await user.call('GET', '/me/verification_status')).body).toEqual({
      verification_method: 'stripe_identity',
      verified: false,
      message: '',
      verification_session_id: session.verification_session_id,
      verification_session_status: 'requires_input',
    })

    const page = await app.inject({ method: 'GET', url: session.url })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain(`action="/sandbox/identity/${session.verification_session_id}"`)

    const submitted = await submitHostedForm(app, session, 'verified')
    expect(submitted.statusCode).toBe(303)
    expect(submitted.headers.location).toBe('/profile/details')
    expect((await user.call('GET', '/me/verification_status')).body).toMatchObject({
      verified: false,
      verification_session_status: 'processing',
    })
    // The page no longer takes a document while the check runs.
    expect((await app.inject({ method: 'GET', url: session.url })).statusCode).toBe(409)
    expect((await submitHostedForm(app, session, 'verified')).statusCode).toBe(409)

    await finishChecks()
    expect((await user.call('GET', '/me/verification_status')).body).toEqual({
      verification_method: 'stripe_identity',
      verified: true,
      message: '',
      verification_session_id: session.verification_session_id,
      verification_session_status: 'verified',
    })
    expect(await user.requirements()).toEqual(['credit_account'])
    expect((await user.call('GET', '/me/personal/identity_document/verification_status')).body.front.status).toBe('verified')
    // A verified session is not replaced by a new one.
    expect((await user.call('GET', '/me/verification_session')).body).toMatchObject({
      verification_session_id: session.verification_session_id,
      verification_session_status: 'verified',
    })
  })

  it('goes back to requires_input with a message when the document fails', async () => {
    const { signIn, app, finishChecks } = await start(identityEnv)
    const user = await signIn('identity-fails@example.com')
    await user.onboard()
    const session = (await user.call('GET', '/me/verification_session?return_url=/transactions/abc')).body
    expect(session.url).toContain('return_url=%2Ftransactions%2Fabc')
    const submitted = await submitHostedForm(app, session, 'unverified', '/transactions/abc')
    expect(submitted.statusCode).toBe(303)
    expect(submitted.headers.location).toBe('/transactions/abc')
    await finishChecks()

    const status = (await user.call('GET', '/me/verification_status')).body
    expect(status).toMatchObject({
      verified: false,
      verification_session_status: 'requires_input',
      verification_session_id: session.verification_session_id,
    })
    expect(status.message).toContain('could not be verified')
    const reopened = (await user.call('GET', '/me/verification_session')).body
    expect(reopened).toMatchObject({
      verification_session_id: session.verification_session_id,
      verification_session_status: 'requires_input',
      message: status.message,
    })
    expect(await user.requirements()).toContain('identity_document')
    const page = await app.inject({ method: 'GET', url: reopened.url })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('could not be verified')

    // A second try on the same session can pass.
    expect((await submitHostedForm(app, reopened, 'verified')).statusCode).toBe(303)
    await finishChecks()
    expect((await user.call('GET', '/me/verification_status')).body).toMatchObject({ verified: true, message: '' })
  })

  it('refuses a return_url off this site', async () => {
    const { signIn, app } = await start(identityEnv)
    const user = await signIn('identity-evil@example.com')
    for (const returnUrl of ['https://evil.example', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '']) {
      const response = await user.call('GET', `/me/verification_session?return_url=${encodeURIComponent(returnUrl)}`)
      expect(response.status, returnUrl).toBe(400)
      expect(response.body, returnUrl).toMatchObject({
        code: 'validation_failed',
        error: expect.stringMatching(/^querystring\.return_url: /),
        details: { field: 'querystring.return_url', fields: [{ field: 'querystring.return_url', message: expect.any(String) }] },
      })
    }
    expect(await app.services.db.selectFrom('sandbox_verification_sessions').selectAll().execute()).toEqual([])

    const session = (await user.call('GET', '/me/verification_session')).body
    expect((await submitHostedForm(app, session, 'verified', 'https://evil.example')).statusCode).toBe(400)
    expect((await user.call('GET', '/me/verification_status')).body.verification_session_status).toBe('requires_input')
  })

  it('escapes a same-site return_url on the hosted page', async () => {
    const { signIn, app } = await start(identityEnv)
    const user = await signIn('identity-escape@example.com')
    const returnUrl = '/x"><script>alert(1)</script>'
    const session = (await user.call('GET', `/me/verification_session?return_url=${encodeURIComponent(returnUrl)}`)).body
    const page = await app.inject({ method: 'GET', url: session.url })
    expect(page.statusCode).toBe(200)
    expect(page.body).not.toContain('<script>alert(1)</script>')
    expect(page.body).toContain('value="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
  })

  it('answers 404 on the hosted page for a wrong client secret and leaves the session alone', async () => {
    const { signIn, app } = await start(identityEnv)
    const user = await signIn('identity-secret@example.com')
    const other = await signIn('identity-other@example.com')
    const session = (await user.call('GET', '/me/verification_session')).body
    const otherSession = (await other.call('GET', '/me/verification_session')).body
    expect(otherSession.verification_session_id).not.toBe(session.verification_session_id)

    for (const clientSecret of [`${session.client_secret}x`, otherSession.client_secret]) {
      const forged = { verification_session_id: session.verification_session_id, client_secret: clientSecret }
      expect((await submitHostedForm(app, forged, 'verified')).statusCode).toBe(404)
      const page = await app.inject({
        method: 'GET',
        url: `/sandbox/identity/${session.verification_session_id}?${new URLSearchParams({ client_secret: clientSecret, return_url: '/profile/details' }).toString()}`,
      })
      expect(page.statusCode).toBe(404)
    }
    expect((await user.call('GET', '/me/verification_status')).body.verification_session_status).toBe('requires_input')
  })
})

describe('one method at a time', () => {
  const goodFront: FormParts = [
    ['side', 'front'],
    ['file', { bytes: png, fileName: 'passport.png', type: 'image/png' }],
  ]

  it('refuses identity_document uploads under stripe_identity (the session stands for it), but takes an additional document', async () => {
    const { signIn } = await start(identityEnv)
    const user = await signIn('identity-no-upload@example.com')
    await user.onboard()
    const refused = await user.upload('identity_document', goodFront)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'unsupported_combination', details: { field: 'document' } })
    expect((await user.upload('additional_identity_document', goodFront)).status).toBe(200)
  })

  it('refuses to open a verification session under legacy', async () => {
    const { signIn, app } = await start()
    const user = await signIn('legacy-no-session@example.com')
    const refused = await user.call('GET', '/me/verification_session')
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('unsupported_combination')
    expect(await app.services.db.selectFrom('sandbox_verification_sessions').selectAll().execute()).toEqual([])
  })
})

describe('GET /me/account_session', () => {
  it("returns a client secret for the user's connected account", async () => {
    const { signIn, app } = await start()
    const user = await signIn('account-session@example.com')
    const response = await user.call('GET', '/me/account_session')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ client_secret: expect.stringMatching(/^accs_\w+_secret_\w+$/) })
    const second = await user.call('GET', '/me/account_session')
    expect(second.body.client_secret).not.toBe(response.body.client_secret)
    const sessions = await app.services.db.selectFrom('sandbox_account_sessions').select('client_secret').execute()
    expect(sessions.map((session) => session.client_secret).sort()).toEqual([response.body.client_secret, second.body.client_secret].sort())
    expect(await app.services.db.selectFrom('sandbox_accounts').selectAll().execute()).toHaveLength(1)
  })
})

describe('POST /me/personal/business_url', () => {
  it('saves an http(s) address', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('business@example.com')
    expect(await user.call('POST', '/me/personal/business_url', { url: 'https://example.com/shop' })).toMatchObject({
      status: 200,
      body: { business_url: 'https://example.com/shop' },
    })
    const row = await current.database.db
      .selectFrom('users')
      .select('business_url')
      .where('id', '=', await user.id())
      .executeTakeFirstOrThrow()
    expect(row.business_url).toBe('https://example.com/shop')
    expect((await user.call('POST', '/me/personal/business_url', { url: 'http://shop.example.org' })).body).toEqual({
      business_url: 'http://shop.example.org',
    })
    await user.onboard()
    expect((await user.call('GET', '/me/personal')).body.business_url).toBe('http://shop.example.org')
  })

  it('refuses other schemes and non-addresses, naming body.url', async () => {
    const { signIn, testApp: current } = await start()
    const user = await signIn('business-bad@example.com')
    for (const url of ['javascript:alert(1)', 'ftp://x', 'data:text/html,<script>alert(1)</script>', 'example.com', '', 42]) {
      const response = await user.call('POST', '/me/personal/business_url', { url })
      expect(response.status, String(url)).toBe(400)
      expect(response.body.code, String(url)).toBe('validation_failed')
      expect(
        response.body.details.fields.map((entry: { field: string }) => entry.field),
        String(url),
      ).toEqual(['body.url'])
    }
    const row = await current.database.db
      .selectFrom('users')
      .select('business_url')
      .where('id', '=', await user.id())
      .executeTakeFirstOrThrow()
    expect(row.business_url).toBeNull()
  })
})
