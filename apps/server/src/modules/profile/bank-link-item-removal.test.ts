import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type PlaidFake, startPlaidFake } from '../../testing/plaid-fake.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { removeBankLinkItem } from './bank-link-item-removal.ts'

/*
 * A seller's Plaid Item is removed at Plaid once it backs no payout account
 * (issue 34): replaced by another link or a typed account, or the Pactum
 * account closed. Through the whole server, against the Plaid fake, whose
 * `/item/remove` needs the Item's valid access token.
 */

let fake: PlaidFake
let testApp: TestApp
beforeAll(async () => {
  fake = await startPlaidFake()
})
afterAll(async () => {
  await fake.close()
})
beforeEach(async () => {
  testApp = await createTestApp({ env: { PLAID_CLIENT_ID: fake.clientId, PLAID_SECRET: fake.secret, PLAID_API_URL: fake.url } })
})
afterEach(async () => {
  await testApp.close()
})

let counter = 0
async function usSeller() {
  const email = `plaid-seller-${++counter}@example.com`
  const token = await testApp.tokenFor(email, { firstName: 'Ada', lastName: 'Lovelace' })
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await testApp.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: response.statusCode, body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : undefined }
  }
  expect((await call('POST', '/me/personal/set_active_country', { country_code: 'us' })).status).toBe(204)
  expect((await call('POST', '/me/accept_tos_direct')).status).toBe(200)
  /** Links the bank through Plaid Link (played by the fake); answers the Item's id. */
  const link = async (): Promise<string> => {
    const before = new Set(fake.liveItems())
    const { body } = await call('GET', '/me/plaid/link_token')
    const { publicToken, accounts } = fake.completeLink(body?.link_token as string)
    const linked = await call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accounts[0]?.account_id })
    expect(linked.status).toBe(200)
    const [item] = fake.liveItems().filter((id) => !before.has(id))
    if (!item) throw new Error('the link made no Item at Plaid')
    return item
  }
  return { email, call, link }
}

/** Removed at Plaid, and so recorded: the access token erased. */
const removed = (itemId: string) =>
  vi.waitFor(
    async () => {
      expect(fake.removedItems).toContain(itemId)
      const row = await testApp.database.db
        .selectFrom('bank_link_items')
        .selectAll()
        .where('item_id', '=', itemId)
        .executeTakeFirstOrThrow()
      expect(row).toMatchObject({ access_token: null, removed_at: expect.any(Date) })
    },
    { timeout: 20_000, interval: 100 },
  )

describe('a seller’s Plaid Item', () => {
  it('is kept while it backs the payout account, its access token stored for the removal', async () => {
    const seller = await usSeller()
    const item = await seller.link()
    const rows = await testApp.database.db.selectFrom('bank_link_items').selectAll().where('item_id', '=', item).execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]?.access_token).toMatch(/^access-sandbox-/)
    expect(fake.liveItems()).toContain(item)
    // The token never leaves the server: not in the account's answer.
    expect(JSON.stringify((await seller.call('GET', '/me/debit_account')).body)).not.toContain('access-sandbox-')
  })

  it('is removed at Plaid when the seller links another bank account', async () => {
    const seller = await usSeller()
    const first = await seller.link()
    const second = await seller.link()
    await removed(first)
    expect(fake.liveItems()).toContain(second)
    expect(fake.removedItems).not.toContain(second)
  })

  it('is removed at Plaid when the seller types bank details instead', async () => {
    const seller = await usSeller()
    const item = await seller.link()
    const typed = await seller.call('POST', '/me/debit_account', {
      account_holder_name: 'Ada Lovelace',
      routing_number: '021000021',
      account_number: '000123456789',
      account_type: 'checking',
    })
    expect(typed.status).toBe(200)
    await removed(item)
  })

  it('is removed at Plaid when the seller closes the Pactum account', async () => {
    const seller = await usSeller()
    const item = await seller.link()
    expect((await seller.call('POST', '/me/close_account', { confirm_email: seller.email })).status).toBe(204)
    await removed(item)
  })

  it('does not block the seller while Plaid is down, and is removed once Plaid answers', async () => {
    const seller = await usSeller()
    const first = await seller.link()
    const second = await seller.link()
    await removed(first)
    // The job is retried with back-off; here its run is made by hand, Plaid failing first.
    const { id } = await testApp.database.db
      .selectFrom('bank_link_items')
      .select('id')
      .where('item_id', '=', second)
      .executeTakeFirstOrThrow()
    const deps = { db: testApp.database.db, bankLink: testApp.app.services.bankLink, clock: testApp.app.services.clock }
    fake.failNext(1)
    await expect(removeBankLinkItem(deps, id)).rejects.toThrow(/INTERNAL_SERVER_ERROR/)
    expect(fake.liveItems()).toContain(second)
    await removeBankLinkItem(deps, id)
    expect(fake.removedItems).toContain(second)
    // Run again (a retry after a lost answer): nothing more to do.
    const calls = fake.requests.length
    await removeBankLinkItem(deps, id)
    expect(fake.requests.length).toBe(calls)
  })
})
