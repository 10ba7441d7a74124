import { afterEach, describe, expect, it } from 'vitest'
import { createAccount } from '../sign-in/oidc/accounts.ts'
import { accountIdForEmail } from '../sign-in/oidc/account-id.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { testPasswordCost } from '../../testing/test-password-cost.ts'

/** Issue 30: closing an account, refused while money is held or owed; personal data erased, the ledger kept. */
let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function start() {
  const clock = new TestClock(new Date('2026-11-27T10:00:00Z'))
  testApp = await createTestApp({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea', lastName: 'Byrne' } })
  return { app: testApp.app, clock, call: apiCaller(testApp.app, tokens), db: testApp.database.db }
}

const close = (email: string) => ({ confirm_email: email })

describe('POST /me/close_account', () => {
  it('is refused while a sale can still move money, and erases nothing', async () => {
    const { call, db } = await start()
    const { id } = await joinedSale(call)
    const refused = await call('buyer', 'POST', '/api/v1/me/close_account', close('buyer@example.com'))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'account_has_open_transactions', details: { transaction_ids: [id], count: 1 } })
    const buyer = await db
      .selectFrom('users')
      .select(['email', 'first_name', 'closed_at'])
      .where('email', '=', 'buyer@example.com')
      .executeTakeFirst()
    expect(buyer).toEqual({ email: 'buyer@example.com', first_name: 'Bea', closed_at: null })
  })

  it('asks for the account’s own address, naming the field', async () => {
    const { call } = await start()
    const wrong = await call('buyer', 'POST', '/api/v1/me/close_account', close('seller@example.com'))
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ code: 'validation_failed', details: { field: 'body.confirm_email' } })
  })

  it('closes a buyer’s account after the sale ended: the row pseudonymised, the sale and the ledger kept, a new sign-in starts afresh', async () => {
    const { app, clock, call, db } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'jd0001234' })
    await confirmDelivery(call, id)
    await clock.advance(app, 24 * 3600)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')
    const before = await db.selectFrom('users').select('id').where('email', '=', 'buyer@example.com').executeTakeFirstOrThrow()

    expect((await call('buyer', 'POST', '/api/v1/me/close_account', close(' Buyer@Example.com '))).status).toBe(204)

    const closed = await db.selectFrom('users').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow()
    expect(closed).toMatchObject({ email: '', first_name: '', last_name: '', phone: null, address_line1: null, dob: null, roles: [] })
    expect(closed.closed_at).toBeInstanceOf(Date)
    expect(closed.subject).toMatch(/^closed:/)
    // The other party keeps the sale; the ledger (checked after the test) still names the same ids.
    const kept = (await call('seller', 'GET', `/api/v1/transactions/${id}`)).body
    expect(kept).toMatchObject({ status: 'funds_released', buyer_id: before.id })

    // The same address signing in again is somebody new, with nothing of the closed account.
    const again = apiCaller(app, { buyer: await testApp!.tokenFor('buyer@example.com') })
    const me = (await again('buyer', 'GET', '/api/v1/me')).body
    expect(me.id).not.toBe(before.id)
    expect((await again('buyer', 'GET', '/api/v1/me/transactions')).body).toEqual([])
  })

  it('is refused to a seller whose balance is not paid out yet', async () => {
    const { app, clock, call } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'jd0001235' })
    await confirmDelivery(call, id)
    await clock.advance(app, 24 * 3600)
    const refused = await call('seller', 'POST', '/api/v1/me/close_account', close('seller@example.com'))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'account_has_balance' })
  })

  it('deletes the embedded sign-in account, its sessions and its failed sign-ins', async () => {
    const { call, db } = await start()
    await call('buyer', 'GET', '/api/v1/me')
    await createAccount(
      db,
      { email: 'buyer@example.com', password: 'correct horse 42', firstName: 'Bea', lastName: 'Byrne', locale: null },
      testPasswordCost,
    )
    const accountId = accountIdForEmail('buyer@example.com')
    await db
      .insertInto('oidc_payloads')
      .values([
        { model: 'Session', id: 'session-1', payload: JSON.stringify({ accountId, kind: 'Session' }) },
        {
          model: 'Session',
          id: 'session-other',
          payload: JSON.stringify({ accountId: accountIdForEmail('seller@example.com'), kind: 'Session' }),
        },
      ])
      .execute()
    await db.insertInto('sign_in_attempts').values({ account_key: accountId, attempted_at: new Date() }).execute()

    expect((await call('buyer', 'POST', '/api/v1/me/close_account', close('buyer@example.com'))).status).toBe(204)

    expect(await db.selectFrom('accounts').select('id').where('id', '=', accountId).execute()).toEqual([])
    expect((await db.selectFrom('oidc_payloads').select('id').execute()).map((row) => row.id)).toEqual(['session-other'])
    expect(await db.selectFrom('sign_in_attempts').select('id').where('account_key', '=', accountId).execute()).toEqual([])
  })
})
