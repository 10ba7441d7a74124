import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { formatMoney } from '@pactum/domain/currencies'
import { describe, expect, it } from 'vitest'
import type { Mailer } from '../../adapters/mailer/port.ts'
import { MailDeliveryError } from '../../adapters/mailer/smtp-mailer.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createSale, joinedSale, payByCard } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { type WrittenMail, writtenMails } from '../../testing/written-mails.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { actAsSystem } from '../transactions/act-as-party.ts'
import { applyEvent, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import { jobEffectScheduler } from '../transactions/transaction-jobs.ts'
import { lockById } from '../transactions/transactions-repository.ts'
import type { NotificationJob } from './notifications-repository.ts'
import { type NotificationDeps, sendNotification, sendNotifications } from './send-notification.ts'

const testApps = appPerTest()

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock })
  const { app, dataDir } = testApp
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } })
  const call = apiCaller(app, tokens)
  const { db, jobs, mailer, config } = app.services
  const notificationDeps: NotificationDeps = { db, mailer, clock, publicUrl: config.publicUrl, supportEmail: config.supportEmail }
  const transactionDeps: TransactionDeps = { db, clock, policy: config.onlinePolicy, effects: jobEffectScheduler(jobs) }
  return { app, clock, call, db, dataDir, notificationDeps, transactionDeps }
}

/** Three "joined" e-mails to the buyer and three to the seller, in the order one, two, three ("<id>:<step>:<tag>:<role>" keys). */
function threeJoinedMailsToEach(id: string, tag: string): NotificationJob[] {
  return ['one', 'two', 'three'].flatMap((step) =>
    (['buyer', 'seller'] as const).map((to) => ({ transactionId: id, template: 'joined' as const, to, key: `${id}:${step}:${tag}:${to}` })),
  )
}

const to = (list: WrittenMail[], address: string) =>
  list
    .filter((mail) => mail.to === address)
    .map((mail) => mail.subject)
    .sort()

describe('state-change e-mails', () => {
  it("writes to each party in their own notification language, once, after the state change's commit", async () => {
    const { app, call, db, dataDir } = await start()
    expect((await call('seller', 'POST', '/api/v1/me/notification_language', { language_code: 'pl_pl' })).status).toBe(200)

    const { id, joinCode } = await joinedSale(call)
    // Enqueued with the state change, sent by the worker: nothing yet.
    expect(await writtenMails(dataDir)).toEqual([])
    await app.services.jobs.runDue()
    const afterJoin = await writtenMails(dataDir)
    expect(to(afterJoin, 'seller@example.com')).toEqual(['Kupujący dołączył do Twojej sprzedaży „A blue bicycle”'])
    const joinMail = afterJoin[0]!
    expect(joinMail.text).toMatch(/^Dzień dobry, Sam,\n\nKupujący dołączył do Twojej sprzedaży. Zaczekaj na jego płatność/)
    expect(joinMail.text).toContain('Przedmiot: A blue bicycle\n')
    expect(joinMail.text).toContain(`Cena: ${formatMoney(10_000, 'eur', 'pl-PL')}\n`)
    expect(joinMail.text).toContain('Kupujący: Bea\n')
    expect(joinMail.text).toContain(`Otwórz transakcję: http://localhost:3999/transactions/${id}`)

    const { clientSecret } = await payByCard(call, id)
    await app.services.jobs.runDue()
    const all = await writtenMails(dataDir)
    expect(to(all, 'seller@example.com')).toEqual([
      'Kupujący dołączył do Twojej sprzedaży „A blue bicycle”',
      'Otrzymano płatność za „A blue bicycle”: wyślij przedmiot',
    ])
    expect(to(all, 'buyer@example.com')).toEqual(['Your payment for “A blue bicycle” is safe with Pactum'])
    const buyerMail = all.find((mail) => mail.to === 'buyer@example.com')!
    // Greeted by their own first name (issue 33 item 11).
    expect(buyerMail.text).toMatch(/^Hello Bea,\n\nWe have received your payment/)
    expect(buyerMail.text).toContain('Price: €100.00\n')
    expect(buyerMail.text).toContain('Seller: Sam\n')
    expect(buyerMail.text).toContain(`Open the transaction: http://localhost:3999/transactions/${id}\n`)
    // The sale's public verification page (decision 114), in the text and as a link in the HTML.
    const { verify_url: verifyUrl } = (await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body as { verify_url: string }
    expect(buyerMail.text).toContain(`Check this escrow on Pactum:\n${verifyUrl}\n`)
    expect(buyerMail.html).toContain(`href="${verifyUrl}"`)
    expect(joinMail.text).toContain(`Sprawdź ten depozyt w Pactum:\n${verifyUrl}\n`)
    // No secret of the sale goes into a mail.
    for (const mail of all) {
      expect(mail.text).not.toContain(joinCode)
      expect(mail.text).not.toContain(clientSecret)
    }

    const rows = await db
      .selectFrom('notifications')
      .select(['template', 'recipient_role', 'language', 'status', 'mail_id'])
      .where('transaction_id', '=', id)
      .execute()
    expect(rows.map((row) => [row.template, row.recipient_role, row.language, row.status]).sort()).toEqual([
      ['joined', 'seller', 'pl_pl', 'sent'],
      ['paid', 'buyer', 'en_gb', 'sent'],
      ['paid', 'seller', 'pl_pl', 'sent'],
    ])
    expect(rows.every((row) => row.mail_id)).toBe(true)
    await app.services.jobs.runDue()
    expect(await writtenMails(dataDir)).toHaveLength(3)
  })

  it('writes in the interface language of someone who never chose an e-mail language', async () => {
    const { app, call, db, dataDir } = await start()
    // The web app names its interface language on every call.
    expect((await call('seller', 'GET', '/api/v1/me', undefined, { 'accept-language': 'fi-FI' })).status).toBe(200)
    const { id } = await joinedSale(call)
    await app.services.jobs.runDue()
    const row = await db
      .selectFrom('notifications')
      .select(['recipient_role', 'language'])
      .where('transaction_id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ recipient_role: 'seller', language: 'fi_fi' })
    expect((await writtenMails(dataDir)).map((mail) => mail.subject)).toEqual(['Ostaja liittyi myyntiisi: ”A blue bicycle”'])
  })

  it('does not send again when a job runs a second time', async () => {
    const { app, db, dataDir, notificationDeps, call } = await start()
    const { id } = await joinedSale(call)
    await app.services.jobs.runDue()
    const row = await db.selectFrom('notifications').selectAll().where('transaction_id', '=', id).executeTakeFirstOrThrow()
    const job: NotificationJob = { transactionId: id, template: 'joined', to: 'seller', key: row.key }

    expect(await sendNotification(notificationDeps, job)).toBe('already_sent')
    expect(await sendNotification(notificationDeps, job)).toBe('already_sent')
    expect(await writtenMails(dataDir)).toHaveLength(1)
    expect(await db.selectFrom('notifications').select('id').execute()).toHaveLength(1)
  })

  it('sends after a failed attempt, and leaves a message another attempt is sending to that attempt', async () => {
    const { db, dataDir, notificationDeps, clock, call } = await start()
    const { id } = await joinedSale(call)
    const job: NotificationJob = { transactionId: id, template: 'joined', to: 'seller', key: `${id}:test:joined:seller` }
    const down: Mailer = { send: async () => Promise.reject(new Error('421 try again later')) }

    await expect(sendNotification({ ...notificationDeps, mailer: down }, job)).rejects.toThrow('421')
    expect(await db.selectFrom('notifications').select('status').where('key', '=', job.key).executeTakeFirstOrThrow()).toEqual({
      status: 'pending',
    })
    expect(await sendNotification(notificationDeps, job)).toBe('sent')
    expect(await sendNotification(notificationDeps, job)).toBe('already_sent')

    // A claim still held (a slow attempt elsewhere) makes this attempt fail and retry; once it has lapsed, it is taken over.
    const held = { ...job, key: `${id}:held:joined:seller` }
    await expect(sendNotification({ ...notificationDeps, mailer: down }, held)).rejects.toThrow('421')
    await db.updateTable('notifications').set({ status: 'sending', claimed_at: clock.now() }).where('key', '=', held.key).execute()
    await expect(sendNotification(notificationDeps, held)).rejects.toThrow('being sent by another attempt')
    await clock.moveBy(601)
    expect(await sendNotification(notificationDeps, held)).toBe('sent')
    expect(await writtenMails(dataDir)).toHaveLength(2)
  })

  it('records an e-mail the mail server refused for good (5xx) as undeliverable, with its reply, and does not try it again', async () => {
    const { db, dataDir, notificationDeps, call } = await start()
    const { id } = await joinedSale(call)
    const job: NotificationJob = { transactionId: id, template: 'joined', to: 'seller', key: `${id}:refused:joined:seller` }
    const noSuchUser = Object.assign(new Error("Can't send mail - all recipients were rejected"), {
      code: 'EENVELOPE',
      command: 'RCPT TO',
      responseCode: 550,
      response: '550 5.1.1 No such user',
      permanent: true,
    })
    const refusing: Mailer = { send: async () => Promise.reject(new MailDeliveryError(noSuchUser)) }

    expect(await sendNotification({ ...notificationDeps, mailer: refusing }, job)).toBe('undeliverable')
    const row = await db.selectFrom('notifications').select(['status', 'failure']).where('key', '=', job.key).executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'undeliverable', failure: 'SMTP RCPT failed: 550 5.1.1 No such user' })
    // A later run of the job (a retry, a replay) sends nothing.
    expect(await sendNotification(notificationDeps, job)).toBe('undeliverable')
    expect(await writtenMails(dataDir)).toHaveLength(0)
  })

  it('sends a batch of e-mails at once, and when some fail keeps those that went out from going again', async () => {
    const { db, dataDir, notificationDeps, call } = await start()
    const { id } = await joinedSale(call)
    const jobs = threeJoinedMailsToEach(id, 'joined')
    // The mailer takes the buyer's e-mails and refuses the seller's.
    const picky: Mailer = {
      send: async (message) =>
        message.to === 'buyer@example.com' ? notificationDeps.mailer.send(message) : Promise.reject(new Error('421 try again later')),
    }
    await expect(sendNotifications({ ...notificationDeps, mailer: picky }, jobs)).rejects.toThrow('421')
    expect(await writtenMails(dataDir)).toHaveLength(3)
    const statuses = await db.selectFrom('notifications').select(['recipient_role', 'status']).execute()
    expect(statuses.filter((row) => row.recipient_role === 'buyer').map((row) => row.status)).toEqual(['sent', 'sent', 'sent'])
    expect(statuses.filter((row) => row.recipient_role === 'seller').map((row) => row.status)).toEqual(['pending', 'pending', 'pending'])

    expect(await sendNotifications(notificationDeps, jobs)).toEqual([
      'already_sent',
      'sent',
      'already_sent',
      'sent',
      'already_sent',
      'sent',
    ])
    expect(await writtenMails(dataDir)).toHaveLength(6)
  })

  it("sends different people's e-mails of a batch side by side, and each person's in the order they were queued", async () => {
    const { dataDir, notificationDeps, call } = await start()
    const { id } = await joinedSale(call)
    const jobs = threeJoinedMailsToEach(id, 'order')
    // A slow mail server: each e-mail takes a while to be accepted.
    const steps: string[] = []
    const slow: Mailer = {
      send: async (message) => {
        const step = /:(one|two|three):/.exec(message.key ?? '')?.[1]
        steps.push(`start ${message.to} ${step}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
        steps.push(`end ${message.to} ${step}`)
        return notificationDeps.mailer.send(message)
      },
    }
    expect(await sendNotifications({ ...notificationDeps, mailer: slow }, jobs)).toEqual(Array(6).fill('sent'))
    expect(await writtenMails(dataDir)).toHaveLength(6)
    // The seller's first e-mail began before the buyer's first had gone: the two are sent side by side.
    expect(steps.indexOf('start seller@example.com one')).toBeLessThan(steps.indexOf('end buyer@example.com one'))
    // Each person's e-mails: one at a time, in the order queued.
    for (const address of ['buyer@example.com', 'seller@example.com']) {
      expect(steps.filter((step) => step.includes(address))).toEqual(
        ['one', 'two', 'three'].flatMap((step) => [`start ${address} ${step}`, `end ${address} ${step}`]),
      )
    }
  })

  it('lets a retry of the job whose process died mid-send take the claim over at once', async () => {
    const { db, dataDir, notificationDeps, call } = await start()
    const { id } = await joinedSale(call)
    const job: NotificationJob = { transactionId: id, template: 'joined', to: 'seller', key: `${id}:died:joined:seller` }
    const down: Mailer = { send: async () => Promise.reject(new Error('421 try again later')) }
    await expect(sendNotification({ ...notificationDeps, mailer: down }, job)).rejects.toThrow('421')
    // The first attempt claimed the row and was killed (the crash harness's notification.after-send): nobody marks it sent.
    await db
      .updateTable('notifications')
      .set({ status: 'sending', claimed_at: notificationDeps.clock.now() })
      .where('key', '=', job.key)
      .execute()

    // pg-boss retries a job only once its attempt failed, expired or stopped beating: the retry need not wait out the lease.
    expect(await sendNotification(notificationDeps, job, { retryCount: 1 })).toBe('sent')
    expect(await writtenMails(dataDir)).toHaveLength(1)
  })

  it('sends an e-mail sent again after a lost acknowledgement with the first Message-ID', async () => {
    const { db, dataDir, notificationDeps, clock, call } = await start()
    const { id } = await joinedSale(call)
    const job: NotificationJob = { transactionId: id, template: 'joined', to: 'seller', key: `${id}:lost-ack:joined:seller` }
    // The server took the message, but the answer never came back: the job fails and is retried.
    const lostAck: Mailer = {
      send: async (message) => {
        await notificationDeps.mailer.send(message)
        throw new Error('connection reset after DATA')
      },
    }
    await expect(sendNotification({ ...notificationDeps, mailer: lostAck }, job)).rejects.toThrow('connection reset')
    await clock.moveBy(5)
    expect(await sendNotification(notificationDeps, job)).toBe('sent')
    const files = (await readdir(path.join(dataDir, 'mail'))).filter((file) => file.endsWith('.eml'))
    const messageIds = await Promise.all(
      files.map(async (file) => /^Message-ID: (.*)$/m.exec(await readFile(path.join(dataDir, 'mail', file), 'utf8'))?.[1]),
    )
    expect(messageIds).toHaveLength(2)
    expect(messageIds[0]).toBe(messageIds[1])
    const { mail_id } = await db.selectFrom('notifications').select('mail_id').where('key', '=', job.key).executeTakeFirstOrThrow()
    expect(messageIds[0]).toBe(`<${mail_id}@pactum>`)
  })

  it('sends nothing when the role has nobody in it, or the transaction is gone', async () => {
    const { db, dataDir, notificationDeps, call } = await start()
    const { id } = await createSale(call)
    expect(await sendNotification(notificationDeps, { transactionId: id, template: 'paid', to: 'buyer', key: `${id}:1:paid:buyer` })).toBe(
      'no_recipient',
    )
    const missing = '0195f3c2-0000-7000-8000-000000000001'
    expect(
      await sendNotification(notificationDeps, { transactionId: missing, template: 'paid', to: 'seller', key: `${missing}:1:paid:seller` }),
    ).toBe('no_recipient')
    expect(await writtenMails(dataDir)).toEqual([])
    expect(await db.selectFrom('notifications').select('id').execute()).toEqual([])
  })

  it('e-mails a second failed payment again, and nothing for a state change that rolled back', async () => {
    const { app, dataDir, transactionDeps, call } = await start()
    const { id } = await joinedSale(call)
    for (const attempt of ['pi_first', 'pi_second']) {
      await actAsSystem(transactionDeps, id, { type: 'payment_started', paymentIntentId: attempt })
      await actAsSystem(transactionDeps, id, { type: 'payment_failed', paymentIntentId: attempt })
    }
    await expect(
      transactionDeps.db.transaction().execute(async (trx) => {
        const row = await lockById(trx, id)
        const system = { actor: { kind: 'system' as const }, actorUserId: null }
        const started = await applyEvent(transactionDeps, trx, row!, { type: 'payment_started', paymentIntentId: 'pi_third' }, system)
        await applyEvent(transactionDeps, trx, started, { type: 'payment_failed', paymentIntentId: 'pi_third' }, system)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')

    await app.services.jobs.runDue()
    const failed = 'Your payment for “A blue bicycle” did not go through'
    expect(to(await writtenMails(dataDir), 'buyer@example.com')).toEqual([failed, failed])
  })
})
