import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Mailer } from '../../adapters/mailer/port.ts'
import { parseDevMail } from '../../adapters/mailer/dev-mailbox.ts'
import { contactQueue, sendContactMessage } from './contact-support.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

const message = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: 'Where is my payout?',
  message: 'Hello,\nmy payout has not arrived.\nThanks',
}

async function decodeBody(eml: string): Promise<string> {
  return (await parseDevMail('', eml)).text
}

describe('POST /app_api/contact_us', () => {
  it('stores the message and writes an e-mail to support', async () => {
    testApp = await createTestApp({ env: { SUPPORT_EMAIL: 'help@pactum.example' } })
    const token = await testApp.tokenFor('ada@example.com')
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/app_api/contact_us',
      headers: { authorization: `Bearer ${token}` },
      payload: message,
    })
    expect(response.statusCode).toBe(201)
    const { id, created } = response.json()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Number.isNaN(Date.parse(created))).toBe(false)

    const row = await testApp.database.db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Where is my payout?', message: message.message })

    // The e-mail is a job enqueued with the row: written once the worker has run it.
    const mailDir = path.join(testApp.dataDir, 'mail')
    expect(await readdir(mailDir).catch(() => [])).toEqual([])
    await testApp.app.services.jobs.runDue()
    const files = await readdir(mailDir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^\d+-[0-9a-f-]{36}\.eml$/)
    const eml = await readFile(path.join(mailDir, files[0]!), 'utf8')
    expect(eml).toContain('To: help@pactum.example\r\n')
    expect(eml).toContain('Reply-To: ada@example.com\r\n')
    expect(eml).toContain('Subject: [Contact] Where is my payout?\r\n')
    const text = await decodeBody(eml)
    expect(text).toContain('my payout has not arrived.')
    expect(text).toContain(`Message id: ${id}`)
    // Written to the team, it does not sign as the team nor ask them to write to themselves, in either part.
    const parsed = await parseDevMail('', eml)
    for (const part of [parsed.text, parsed.html ?? '']) {
      expect(part).toContain('my payout has not arrived.')
      expect(part).not.toContain('The Pactum team')
      expect(part).not.toContain('Questions? Write to us')
    }
    const sent = await testApp.database.db
      .selectFrom('contact_messages')
      .select(['sent_at', 'mail_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(sent.sent_at).toBeInstanceOf(Date)
    expect(files[0]).toContain(sent.mail_id!)
  })

  it('keeps a message the mailer could not take, sends it on a retry, and only once', async () => {
    testApp = await createTestApp({ env: { SUPPORT_EMAIL: 'help@pactum.example' } })
    const token = await testApp.tokenFor('ada@example.com')
    await testApp.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
    const { db, clock, jobs } = testApp.app.services
    // Stored without its job, so the app's own worker cannot send it while this test plays the retries.
    const user = await db.selectFrom('users').select('id').where('email', '=', 'ada@example.com').executeTakeFirstOrThrow()
    const { id } = await db
      .insertInto('contact_messages')
      .values({
        user_id: user.id,
        name: message.name,
        email: message.email,
        subject: message.subject,
        message: message.message,
        created_at: clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()

    const sentTo: string[] = []
    const down: Mailer = { send: async () => Promise.reject(new Error('mail server unreachable')) }
    const up: Mailer = {
      send: async (mail) => {
        sentTo.push(mail.to)
        return { id: `mail-${sentTo.length}` }
      },
    }
    const deps = (mailer: Mailer) => ({ db, clock, mailer, supportEmail: 'help@pactum.example' })
    await expect(sendContactMessage(deps(down), id)).rejects.toThrow('mail server unreachable')
    const kept = await db.selectFrom('contact_messages').select(['message', 'sent_at']).where('id', '=', id).executeTakeFirstOrThrow()
    expect(kept).toEqual({ message: message.message, sent_at: null })

    expect(await sendContactMessage(deps(up), id)).toBe('sent')
    expect(await sendContactMessage(deps(up), id)).toBe('already_sent')
    expect(sentTo).toEqual(['help@pactum.example'])
    // A job for it coming late (a retry the queue still held) finds it sent and writes nothing more.
    await jobs.send(contactQueue, { messageId: id })
    await jobs.runDue()
    expect(await readdir(path.join(testApp.dataDir, 'mail')).catch(() => [])).toEqual([])
  })

  it('answers 401 without a token and stores nothing', async () => {
    testApp = await createTestApp()
    const response = await testApp.app.inject({ method: 'POST', url: '/app_api/contact_us', payload: message })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ code: 'unauthenticated' })
    expect(await testApp.database.db.selectFrom('contact_messages').select('id').execute()).toEqual([])
  })

  it.each([
    [{ ...message, email: 'not-an-address' }, 'body.email'],
    [{ ...message, subject: '' }, 'body.subject'],
    [{ ...message, subject: 'Hi\r\nBcc: victim@example.com' }, 'body.subject'],
    [{ ...message, message: '   ' }, 'body.message'],
    [{ name: 'x', subject: 's', message: 'm' }, 'body.email'],
  ])('refuses %j naming %s', async (payload, field) => {
    testApp ??= await createTestApp()
    const token = await testApp.tokenFor('ada@example.com')
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/app_api/contact_us',
      headers: { authorization: `Bearer ${token}` },
      payload,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'validation_failed', details: { fields: [{ field }] } })
  })

  it('allows 5 messages an hour per user', async () => {
    testApp = await createTestApp()
    const send = async (token: string) =>
      await testApp!.app.inject({
        method: 'POST',
        url: '/app_api/contact_us',
        headers: { authorization: `Bearer ${token}` },
        payload: message,
      })
    const ada = await testApp.tokenFor('ada@example.com')
    for (let index = 0; index < 5; index += 1) expect((await send(ada)).statusCode).toBe(201)
    const refused = await send(ada)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ code: 'rate_limited' })
    expect(refused.headers['retry-after']).toBeDefined()
    // Another user (same address) is not affected.
    expect((await send(await testApp.tokenFor('grace@example.com'))).statusCode).toBe(201)
    expect(await testApp.database.db.selectFrom('contact_messages').select('id').execute()).toHaveLength(6)
  })
})
