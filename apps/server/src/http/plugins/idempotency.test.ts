import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

/** A money-moving stand-in: counts how often its effect really ran. */
async function start(clock?: TestClock) {
  let effects = 0
  testApp = await createTestApp({
    ...(clock ? { clock } : {}),
    beforeReady: (app: FastifyInstance) => {
      app.withTypeProvider<ZodTypeProvider>().post(
        '/api/v1/test/pay',
        {
          preHandler: [app.authenticate, app.idempotent],
          schema: { body: z.object({ amount: z.number().int() }) },
        },
        async (request, reply) => {
          effects += 1
          if (request.body.amount < 0) return reply.status(500).send({ code: 'internal_error', error: 'boom' })
          return reply.status(201).send({ paid: request.body.amount, effect: effects })
        },
      )
    },
  })
  const token = await testApp.tokenFor('payer@example.com')
  const pay = (amount: number, key?: string) =>
    testApp!.app.inject({
      method: 'POST',
      url: '/api/v1/test/pay',
      headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { amount },
    })
  return { pay, effects: () => effects }
}

describe('Idempotency-Key', () => {
  it('replays the stored answer instead of running the effect again', async () => {
    const { pay, effects } = await start()
    const first = await pay(100, 'key-1')
    const again = await pay(100, 'key-1')
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.json()).toEqual(first.json())
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(effects()).toBe(1)
  })

  it('refuses the same key with a different body', async () => {
    const { pay } = await start()
    await pay(100, 'key-2')
    const response = await pay(200, 'key-2')
    expect(response.statusCode).toBe(422)
    expect(response.json().code).toBe('idempotency_key_reused')
  })

  it('runs every request without a key', async () => {
    const { pay, effects } = await start()
    await pay(100)
    await pay(100)
    expect(effects()).toBe(2)
  })

  it('frees the key after a server error so that a retry runs', async () => {
    const { pay, effects } = await start()
    expect((await pay(-1, 'key-3')).statusCode).toBe(500)
    expect((await pay(-1, 'key-3')).statusCode).toBe(500)
    expect(effects()).toBe(2)
  })

  it('refuses a malformed key naming the header', async () => {
    const { pay } = await start()
    const response = await pay(100, 'spaces are not allowed')
    expect(response.statusCode).toBe(400)
    // As schema validation names a field: the text starts with it, and details.fields lists it.
    const body = response.json()
    expect(body.code).toBe('validation_failed')
    expect(body.error).toMatch(/^headers\.idempotency-key: .*Idempotency-Key/)
    expect(body.details.fields).toEqual([{ field: 'headers.idempotency-key', message: expect.any(String) }])
  })

  it('lets exactly one of concurrent first uses run', async () => {
    const { pay, effects } = await start()
    const answers = await Promise.all(Array.from({ length: 5 }, () => pay(100, 'key-4')))
    expect(effects()).toBe(1)
    expect(answers.filter((answer) => answer.statusCode === 201).length).toBeGreaterThanOrEqual(1)
    for (const answer of answers) expect([201, 409]).toContain(answer.statusCode)
  })

  it('holds a key whose request died unanswered until its claim lapses, then lets a retry run it', async () => {
    const clock = new TestClock()
    const { pay, effects } = await start(clock)
    expect((await pay(100, 'key-5')).statusCode).toBe(201)
    // What a process killed between its work and its answer leaves behind (its work here commits nothing).
    await testApp!.database.db
      .updateTable('idempotency_keys')
      .set({ status_code: null, response_body: null, locked_until: new Date(clock.now().getTime() + 60_000) })
      .execute()

    const meanwhile = await pay(100, 'key-5')
    expect(meanwhile.statusCode).toBe(409)
    expect(meanwhile.json().code).toBe('idempotency_request_in_progress')
    expect(Number(meanwhile.headers['retry-after'])).toBeGreaterThan(0)

    await clock.moveBy(61)
    const retried = await pay(100, 'key-5')
    expect(retried.statusCode).toBe(201)
    expect(effects()).toBe(2)
    expect((await pay(100, 'key-5')).json()).toEqual(retried.json())
  })

  it('forgets a key after a day', async () => {
    const clock = new TestClock()
    const { pay } = await start(clock)
    await pay(100, 'key-6')
    await clock.moveBy(24 * 3600 + 1)
    expect((await pay(200, 'key-6')).statusCode).toBe(201)
  })
})
