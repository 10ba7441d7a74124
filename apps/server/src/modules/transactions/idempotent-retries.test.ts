import { describe, expect, it } from 'vitest'
import { claimKey, recordCommittedWork } from '../../idempotency/idempotency-claims.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedSale } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

/*
 * A client retries a request with its Idempotency-Key after the server died
 * while handling it (issue 10: 3 of 200 keys stayed "in progress" forever
 * after a kill -9, two of them over a transaction that had been created).
 * The database state a crash leaves is made by hand: the claim without an
 * answer, with or without the work's commit written onto it.
 */

const testApps = appPerTest()

const bicycle = { role: 'seller', price: 10_000, currency: 'eur', description: 'A red bicycle', payment_method: 'card' }

async function start() {
  const clock = new TestClock()
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} })
  const call = apiCaller(testApp.app, tokens)
  const quote = (await call('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=card')).body
  const offer = { ...bicycle, charge: quote.charge, charge_calculator_version: quote.charge_calculator_version }
  const create = (key: string) => call('seller', 'POST', '/api/v1/me/transactions', offer, { 'idempotency-key': key })
  const db = testApp.database.db
  const sellersTransactions = async () => (await call('seller', 'GET', '/api/v1/me/transactions')).body as { id: string }[]
  /** The claim as a process killed after its work and before its answer leaves it. */
  const forgetAnswer = (key: string) =>
    db
      .updateTable('idempotency_keys')
      .set({ status_code: null, response_body: null, locked_until: new Date(clock.now().getTime() + 60_000) })
      .where('key', '=', key)
      .execute()
  return { clock, call, create, db, sellersTransactions, forgetAnswer }
}

describe('a retry after the server died mid-request', () => {
  it('gets the transaction the committed work created, and creates no second one', async () => {
    const { clock, create, sellersTransactions, forgetAnswer } = await start()
    const first = await create('create-1')
    expect(first.status).toBe(201)
    await forgetAnswer('create-1')

    expect((await create('create-1')).body.code).toBe('idempotency_request_in_progress')
    await clock.moveBy(61)
    const retried = await create('create-1')
    expect(retried.status).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBe('true')
    expect(retried.body).toMatchObject({ id: first.body.id, status: 'created', join_code: first.body.join_code })
    expect(await sellersTransactions()).toHaveLength(1)
    // The answer is kept from then on.
    expect((await create('create-1')).body).toEqual(retried.body)
  })

  it('does the work, once, when the earlier attempt died before its work committed', async () => {
    const { clock, create, db, sellersTransactions } = await start()
    const first = await create('create-2')
    expect(first.status).toBe(201)
    const seller = await db.selectFrom('users').select('id').where('email', '=', 'seller@example.com').executeTakeFirstOrThrow()
    // As if the first attempt had claimed the key and died before its transaction committed.
    await db.deleteFrom('transaction_events').execute()
    await db.deleteFrom('transactions').execute()
    await db
      .updateTable('idempotency_keys')
      .set({ status_code: null, response_body: null, transaction_id: null, locked_until: new Date(clock.now().getTime() + 60_000) })
      .where('user_id', '=', seller.id)
      .execute()

    await clock.moveBy(61)
    const retried = await create('create-2')
    expect(retried.status).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
    expect(await sellersTransactions()).toHaveLength(1)
    expect((await create('create-2')).body.id).toBe(retried.body.id)
  })

  it('rolls back the work of a request whose key a retry took over meanwhile', async () => {
    const { clock, db } = await start()
    const claim = { userId: '00000000-0000-7000-8000-000000000001', key: 'slow', route: 'POST /x', requestHash: 'h' }
    const slow = await claimKey(db, claim, clock.now())
    expect(slow.kind).toBe('claimed')
    await clock.moveBy(61)
    const retry = await claimKey(db, claim, clock.now())
    expect(retry).toMatchObject({ kind: 'claimed', claim: { attempt: 2 } })
    if (slow.kind !== 'claimed') return
    await expect(
      db.transaction().execute((trx) => recordCommittedWork(trx, slow.claim, '00000000-0000-7000-8000-000000000002')),
    ).rejects.toMatchObject({
      code: 'idempotency_request_in_progress',
    })
  })

  it('opens the same payment again for a retry of pay', async () => {
    const { clock, call, forgetAnswer } = await start()
    const sale = await joinedSale(call)
    const pay = () => call('buyer', 'POST', `/api/v1/transactions/${sale.id}/pay`, undefined, { 'idempotency-key': 'pay-1' })
    const first = await pay()
    expect(first.status).toBe(200)
    await forgetAnswer('pay-1')
    await clock.moveBy(61)
    const retried = await pay()
    expect(retried.status).toBe(200)
    expect(retried.body.payment_intent_id).toBe(first.body.payment_intent_id)
  })
})
