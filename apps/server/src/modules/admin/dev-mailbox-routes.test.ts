import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

async function start(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date('2026-11-24T10:00:00Z'))
  const testApp = await testApps.open({ clock, env })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, admin: { admin: true } })
  return { app: testApp.app, dataDir: testApp.dataDir, clock, call: apiCaller(testApp.app, tokens) }
}

type Started = Awaited<ReturnType<typeof start>>

/** Three e-mails, a minute apart, through the app's own mailer. */
async function sendThree({ app, clock }: Started) {
  const subjects = ['Płatność przyjęta', 'Maksu vastaanotettu', 'Payment received']
  for (const [index, subject] of subjects.entries()) {
    await app.services.mailer.send({ to: `party${index}@example.com`, subject, text: `${subject}\nŻółw — äiti` })
    await clock.moveBy(60)
  }
  return subjects
}

describe('GET /admin/dev_mailbox', () => {
  it('lists what the file mailer wrote, newest first, a page at a time', async () => {
    const started = await start()
    const subjects = await sendThree(started)
    const first = await started.call('admin', 'GET', '/api/v1/admin/dev_mailbox?limit=2')
    expect(first.status).toBe(200)
    expect(first.body.map((mail: { subject: string }) => mail.subject)).toEqual([subjects[2], subjects[1]])
    expect(first.body[0]).toMatchObject({ to: 'party2@example.com', date: '2026-11-24T10:02:00.000Z' })
    const second = await started.call('admin', 'GET', `/api/v1/admin/dev_mailbox?limit=2&after_id=${first.body[1].id}`)
    expect(second.body.map((mail: { subject: string }) => mail.subject)).toEqual([subjects[0]])
    const past = await started.call('admin', 'GET', `/api/v1/admin/dev_mailbox?after_id=${second.body[0].id}`)
    expect(past).toMatchObject({ status: 200, body: [] })
  })

  it('answers an empty list before anything was written', async () => {
    const { call } = await start()
    expect(await call('admin', 'GET', '/api/v1/admin/dev_mailbox')).toMatchObject({ status: 200, body: [] })
  })

  it('refuses everyone but admins, before reading the input', async () => {
    const { call } = await start()
    for (const url of ['/api/v1/admin/dev_mailbox?limit=-1', '/api/v1/admin/dev_mailbox/not-an-id']) {
      expect(await call(null, 'GET', url)).toMatchObject({ status: 401, body: { code: 'unauthenticated' } })
      expect(await call('seller', 'GET', url)).toMatchObject({ status: 403, body: { code: 'not_admin' } })
    }
  })

  it('names the bad paging field', async () => {
    const { call } = await start()
    const answer = await call('admin', 'GET', '/api/v1/admin/dev_mailbox?after_id=../x')
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { fields: [{ field: 'querystring.after_id' }] } },
    })
  })
})

describe('GET /admin/dev_mailbox/:id', () => {
  it('shows one message: to, from, subject, date and the decoded text', async () => {
    const started = await start()
    await sendThree(started)
    const [newest] = (await started.call('admin', 'GET', '/api/v1/admin/dev_mailbox')).body
    const answer = await started.call('admin', 'GET', `/api/v1/admin/dev_mailbox/${newest.id}`)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      id: newest.id,
      to: 'party2@example.com',
      from: 'support@pactum.example',
      reply_to: null,
      subject: 'Payment received',
      date: '2026-11-24T10:02:00.000Z',
      html: null,
      attachments: [],
    })
    // The MIME text part ends with a line break of its own.
    expect(answer.body.text.trimEnd()).toBe('Payment received\nŻółw — äiti')
    expect(answer.body.message_id).toMatch(/^<[0-9a-f-]{36}@pactum>$/)
  })

  it('gives the HTML alternative as written and names the attachments, without their content', async () => {
    const { app, call } = await start()
    const html = '<p>Open <a href="https://pactum.example/t/1">it</a> &amp; <script>no()</script></p>'
    await app.services.mailer.send({
      to: 'bea@example.com',
      subject: 'Receipt',
      text: 'Open it',
      html,
      attachments: [{ filename: 'pactum-receipt-1.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7 twelve') }],
    })
    const [newest] = (await call('admin', 'GET', '/api/v1/admin/dev_mailbox')).body
    const answer = await call('admin', 'GET', `/api/v1/admin/dev_mailbox/${newest.id}`)
    expect(answer.body.text.trimEnd()).toBe('Open it')
    expect(answer.body).toMatchObject({
      html,
      attachments: [{ filename: 'pactum-receipt-1.pdf', content_type: 'application/pdf', size: 15 }],
    })
    expect(answer.body.attachments[0]).not.toHaveProperty('content')
  })

  it('answers 404 for an id of the right form that is not there', async () => {
    const { call } = await start()
    const answer = await call('admin', 'GET', '/api/v1/admin/dev_mailbox/1764000000000-00000000-0000-4000-8000-000000000000')
    expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } })
  })

  it('reads nothing outside the mail folder, however the id is spelled', async () => {
    const { call, dataDir } = await start()
    // A readable .eml one level up: what a traversal would be after.
    await mkdir(path.join(dataDir, 'mail'), { recursive: true })
    await writeFile(path.join(dataDir, 'secret.eml'), 'Subject: secret\r\n\r\nc2VjcmV0\r\n')
    for (const id of [
      '..%2Fsecret',
      '%2E%2E%2Fsecret',
      '..%5Csecret',
      '1764000000000-00000000-0000-4000-8000-000000000000%2F..%2F..%2Fsecret',
      'secret',
    ]) {
      const answer = await call('admin', 'GET', `/api/v1/admin/dev_mailbox/${id}`)
      expect(answer.status, id).toBe(400)
      expect(answer.body, id).toMatchObject({ code: 'validation_failed', details: { fields: [{ field: 'params.id' }] } })
    }
    // A slash the router does not decode is another route: none matches.
    expect((await call('admin', 'GET', '/api/v1/admin/dev_mailbox/../secret')).status).not.toBe(200)
  })
})

describe('the dev mailbox with SMTP configured', () => {
  it('does not exist: both calls answer 404, even to an admin', async () => {
    const { call } = await start({ SMTP_URL: 'smtp://user:secret@127.0.0.1:2525' })
    expect(await call('admin', 'GET', '/api/v1/admin/dev_mailbox')).toMatchObject({ status: 404, body: { code: 'not_found' } })
    const answer = await call('admin', 'GET', '/api/v1/admin/dev_mailbox/1764000000000-00000000-0000-4000-8000-000000000000')
    expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(await call('seller', 'GET', '/api/v1/admin/dev_mailbox')).toMatchObject({ status: 403, body: { code: 'not_admin' } })
  })
})

describe('the dev mailbox in the OpenAPI document', () => {
  it('documents both calls with their id pattern, admin security and 404', async () => {
    const { app } = await start()
    const document = (await app.inject({ url: '/api/docs/json' })).json()
    const list = document.paths['/api/v1/admin/dev_mailbox'].get
    const one = document.paths['/api/v1/admin/dev_mailbox/{id}'].get
    expect(list.security).toEqual([{ bearer: [] }])
    expect(list.responses['200'].content['application/json'].schema.items.$ref).toMatch(/DevMailSummary$/)
    expect(one.parameters.find((parameter: { name: string }) => parameter.name === 'id').schema.pattern).toContain('[0-9a-f]{8}')
    expect(one.responses['404']).toBeDefined()
  })
})
