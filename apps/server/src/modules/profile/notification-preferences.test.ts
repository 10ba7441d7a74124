import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'
import { openWithSaleCast } from '../../testing/sale-cast.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { writtenMails } from '../../testing/written-mails.ts'

const testApps = appPerTest()
const preferences = '/api/v1/me/notification_preferences'
const allOn = { messages: true, reminders: true, updates: true }

describe('notification preferences', () => {
  it('start with every optional e-mail on, and are saved for the caller alone', async () => {
    const { call } = await openWithSaleCast(testApps)
    expect(await call('seller', 'GET', preferences)).toMatchObject({ status: 200, body: allOn })

    const saved = await call('seller', 'PUT', preferences, { messages: false, reminders: true, updates: false })
    expect(saved).toMatchObject({ status: 200, body: { messages: false, reminders: true, updates: false } })
    expect((await call('seller', 'GET', preferences)).body).toEqual({ messages: false, reminders: true, updates: false })
    expect((await call('buyer', 'GET', preferences)).body).toEqual(allOn)

    // Saving the same again changes nothing; turning one back on keeps the others off.
    await call('seller', 'PUT', preferences, { messages: false, reminders: true, updates: false })
    await call('seller', 'PUT', preferences, { messages: true, reminders: true, updates: false })
    expect((await call('seller', 'GET', preferences)).body).toEqual({ messages: true, reminders: true, updates: false })
  })

  it('refuse a body that leaves a category out, names an unknown one or is not a boolean', async () => {
    const { call } = await openWithSaleCast(testApps)
    for (const body of [{ messages: false }, { ...allOn, money: false }, { ...allOn, updates: 'no' }]) {
      expect((await call('seller', 'PUT', preferences, body)).status).toBe(400)
    }
    expect((await call('seller', 'GET', preferences)).body).toEqual(allOn)
  })

  it('stop the message and progress e-mails of whoever turned them off, never the money ones', async () => {
    const { testApp, app, clock, call } = await openWithSaleCast(testApps)
    await call('seller', 'PUT', preferences, { messages: false, reminders: true, updates: false })
    const { id } = await joinedSale(call)
    const rows = async (template: string) =>
      (
        await app.services.db
          .selectFrom('notifications')
          .select(['recipient_role', 'status'])
          .where('transaction_id', '=', id)
          .where('template', '=', template)
          .orderBy('recipient_role')
          .execute()
      ).map((row) => `${row.recipient_role}:${row.status}`)
    const subjectsTo = async (email: string) =>
      (await writtenMails(testApp.dataDir)).filter((mail) => mail.to === email).map((mail) => mail.subject)

    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/messages`, { text: 'Is it boxed?' })).status).toBe(201)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0001112223' })
    await confirmDelivery(call, id)
    await clock.advance(app, 24 * 3600 + 1)
    await app.services.jobs.runDue()

    // Recorded as turned off, so no retry sends it later.
    expect(await rows('message_received')).toEqual(['seller:opted_out'])
    expect(await rows('joined')).toEqual(['seller:opted_out'])
    expect(await rows('tracked')).toEqual(['buyer:sent'])
    expect(await rows('paid')).toEqual(['buyer:sent', 'seller:sent'])
    expect(await rows('funds_released')).toEqual(['buyer:sent', 'seller:sent'])
    const seller = await subjectsTo('seller@example.com')
    expect(seller.some((subject) => subject.startsWith('New message'))).toBe(false)
    expect(seller.some((subject) => /released|complete/i.test(subject))).toBe(true)
  })
})
