import type { FastifyInstance } from 'fastify'
import { expect, vi } from 'vitest'
import { sandboxDelivery } from '../modules/payments/webhook-signature.ts'
import type { ApiCall } from './api-caller.ts'
import type { TestClock } from './test-clock.ts'
import { writtenMails } from './written-mails.ts'

/**
 * What the race tests (races.test.ts, face-to-face-races.test.ts,
 * disputes/case-races.test.ts) read of a sale and of the sandbox provider,
 * how they hold up and hand over the provider's news, and how they make two
 * calls overlap: one copy, so that both kinds of sale are raced alike.
 */
export function raceProbes(app: FastifyInstance, clock: TestClock, webhookSecret: string) {
  const db = app.services.db
  const status = async (id: string) =>
    (await db.selectFrom('transactions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
  /** What the sale holds, and of which payment. */
  const holding = (id: string) =>
    db.selectFrom('transactions').select(['amount_held', 'payment_intent_id']).where('id', '=', id).executeTakeFirstOrThrow()
  const outbox = (id: string) => db.selectFrom('outbox').selectAll().where('transaction_id', '=', id).execute()
  /** Posts a provider event to the webhook endpoint, signed as the sandbox signs it. */
  const deliverWebhook = (event: Record<string, unknown>) => app.inject(sandboxDelivery(event, webhookSecret, clock.now()))
  /** The sandbox's own event of that type for the payment, as it queued it. */
  const sandboxEvent = async (type: string, intentId: string) => {
    const rows = await db.selectFrom('sandbox_webhook_deliveries').selectAll().where('type', '=', type).execute()
    const row = rows.find(
      (candidate) => (candidate.payload as { data: { object: { id: string; payment_intent?: string } } }).data.object.id === intentId,
    )
    if (!row) throw new Error(`no ${type} event for ${intentId}`)
    return row
  }
  /** That event, marked delivered so that the sandbox does not send it: the test hands it over when the race wants it. */
  const heldUpNews = async (type: string, intentId: string) => {
    const news = await sandboxEvent(type, intentId)
    await db.updateTable('sandbox_webhook_deliveries').set({ delivered_at: clock.now() }).where('event_id', '=', news.event_id).execute()
    return news
  }
  /** The refunds the sandbox made of a payment: what went back, and whether it settled. */
  const refunds = (intentId: string) =>
    db.selectFrom('sandbox_refunds').select(['amount', 'status']).where('payment_intent_id', '=', intentId).execute()
  /** The news, then the same again under another event id (a provider resend): the endpoint takes both. */
  const deliverWithResend = async (news: { payload: Record<string, unknown>; event_id: string }) => {
    expect((await deliverWebhook(news.payload)).statusCode).toBe(200)
    expect((await deliverWebhook({ ...news.payload, id: `${news.event_id}_again` })).statusCode).toBe(200)
  }
  /** The sale's history lines of one event: a race run right wrote it once. */
  const historyOf = (id: string, event: string) =>
    db.selectFrom('transaction_events').select('event').where('transaction_id', '=', id).where('event', '=', event).execute()
  /** The sale's notifications from one template (who got which e-mail), as queued. */
  const notificationsOf = (id: string, template: string) =>
    db.selectFrom('notifications').selectAll().where('transaction_id', '=', id).where('template', '=', template).execute()
  /** Money that came in unheld went back once: one refund asked for under the unheld key, and the provider refunded `amount` once. */
  const expectSentBackOnce = async (id: string, intentId: string, amount: number) => {
    expect((await outbox(id)).map((row) => [row.action, row.status, row.idempotency_key])).toEqual([
      ['refund', 'sent', `${id}:refund-unheld:${intentId}`],
    ])
    expect(await refunds(intentId)).toEqual([{ amount, status: 'succeeded' }])
  }
  /** A few minutes pass: retries, refund settlement and webhooks all run. */
  const settle = async () => {
    for (let minute = 0; minute < 3; minute++) await clock.advance(app, 60)
  }
  /**
   * `first` and `second` overlapping for certain: `second` starts once
   * `first` has written its change and, still inside its database
   * transaction (the row locked), enqueues the jobs that change causes;
   * `first` commits a moment later. So `first` wins, and `second` meets what
   * it did after waiting on the row lock (PostgreSQL) or on the one
   * connection (PGlite), as a request arriving mid-write would.
   */
  const whileWriting = async <A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> => {
    const { jobs } = app.services
    const realSend = jobs.send.bind(jobs)
    const realSendMany = jobs.sendMany.bind(jobs)
    let started: Promise<B> | undefined
    const startSecondOnce = async (db: unknown) => {
      if (started || db === undefined) return
      started = second()
      // Time for the second to reach the lock; should it not, it comes after the commit, and the order is the same.
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const send = vi.spyOn(jobs, 'send').mockImplementation(async (name, data, options) => {
      await startSecondOnce(options?.db)
      return realSend(name, data, options)
    })
    const sendMany = vi.spyOn(jobs, 'sendMany').mockImplementation(async (name, items, options) => {
      await startSecondOnce(options?.db)
      return realSendMany(name, items, options)
    })
    try {
      const answer = await first()
      if (!started) throw new Error('the first call wrote nothing: the second never started')
      return [answer, await started]
    } finally {
      send.mockRestore()
      sendMany.mockRestore()
    }
  }
  return {
    whileWriting,
    status,
    holding,
    historyOf,
    notificationsOf,
    outbox,
    deliverWebhook,
    deliverWithResend,
    sandboxEvent,
    heldUpNews,
    refunds,
    expectSentBackOnce,
    settle,
  }
}

/**
 * What a sale shows of money sent back without being held: the refunded
 * (and released) amount on the buyer's view at `viewPath`, the reasons of
 * the history's refund lines, and the buyer's e-mails about it (subject and
 * text, in English or Polish).
 */
export function returnRecordProbes(call: ApiCall<'buyer' | 'admin'>, dataDir: string, viewPath: (id: string) => string) {
  const returnRecord = async (id: string) => {
    const view = await call('buyer', 'GET', viewPath(id))
    const detail = await call('admin', 'GET', `/api/v1/admin/transactions/${id}`)
    const history = (detail.body.events as Array<{ event: string; reason: string | null; to_status: string }>)
      .filter((event) => event.event === 'refund_unheld')
      .map((event) => ({ reason: event.reason, status: event.to_status }))
    const mails = (await writtenMails(dataDir)).filter(
      (mail) => mail.to === 'buyer@example.com' && mail.text.includes(id) && /refunded to you|zwrócona/.test(mail.subject),
    )
    return { amountRefunded: view.body.amount_refunded as number, amountReleased: view.body.amount_released as number, history, mails }
  }
  /** The sale shows one return, of `amount`, with the one history line saying why; its e-mails are the caller's to check. */
  const expectReturnShown = async (id: string, amount: number, line: { reason: string; status: string }) => {
    const record = await returnRecord(id)
    expect(record.amountRefunded).toBe(amount)
    expect(record.history).toEqual([line])
    return record
  }
  return { returnRecord, expectReturnShown }
}
