import { describe, expect, it } from 'vitest'
import { appPerFile } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

/** The sandbox's `attachBankAccountToken`: Stripe's `external_account: btok_…`, as Plaid's processor integration hands it over. */
describe('sandbox payment provider: bank-account tokens', () => {
  const testApp = appPerFile({ clock: new TestClock() })
  let accounts = 0
  const provider = () => testApp().app.services.connectedAccounts
  const newAccount = async (country = 'us') => {
    accounts += 1
    return provider().createConnectedAccount({
      userId: `u${accounts}`,
      email: `s${accounts}@example.com`,
      country,
      idempotencyKey: `acct:u${accounts}`,
    })
  }
  const externalAccountOf = (accountId: string) =>
    testApp().database.db.selectFrom('sandbox_external_accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst()

  it('makes the token the account’s payout bank account, with the token’s last four digits', async () => {
    const account = await newAccount()
    expect((await provider().getAccountVerification(account.id)).currentlyDue).toContain('external_account')
    expect(await provider().attachBankAccountToken({ accountId: account.id, token: 'btok_1QabcDEF4321', idempotencyKey: 'k1' })).toEqual({
      last4: '4321',
    })
    expect(await externalAccountOf(account.id)).toMatchObject({ country: 'us', currency: 'usd', last4: '4321', payout_failure_code: null })
    expect((await provider().getAccountVerification(account.id)).currentlyDue).not.toContain('external_account')
  })

  it('says 6789 when the token does not end in digits', async () => {
    const account = await newAccount()
    expect(await provider().attachBankAccountToken({ accountId: account.id, token: 'btok_1QabcDEFghij', idempotencyKey: 'k2' })).toEqual({
      last4: '6789',
    })
  })

  it('replaces the account’s earlier bank account', async () => {
    const account = await newAccount()
    await provider().attachBankAccountToken({ accountId: account.id, token: 'btok_first0001', idempotencyKey: 'k3a' })
    await provider().attachBankAccountToken({ accountId: account.id, token: 'btok_second0002', idempotencyKey: 'k3b' })
    expect(await externalAccountOf(account.id)).toMatchObject({ last4: '0002' })
  })

  it('answers a replay with the same key as the first time, and refuses the token under another key (one use, as at Stripe)', async () => {
    const account = await newAccount()
    const input = { accountId: account.id, token: 'btok_once00005555', idempotencyKey: 'k4' }
    expect(await provider().attachBankAccountToken(input)).toEqual({ last4: '5555' })
    expect(await provider().attachBankAccountToken(input)).toEqual({ last4: '5555' })
    await expect(provider().attachBankAccountToken({ ...input, idempotencyKey: 'k4-other' })).rejects.toMatchObject({
      code: 'invalid_request',
      param: 'external_account',
    })
  })

  it('refuses a key reused for another token', async () => {
    const account = await newAccount()
    await provider().attachBankAccountToken({ accountId: account.id, token: 'btok_keyed0001', idempotencyKey: 'k5' })
    await expect(
      provider().attachBankAccountToken({ accountId: account.id, token: 'btok_keyed0002', idempotencyKey: 'k5' }),
    ).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    })
  })

  it.each(['tok_visa', 'ba_1Qabc', 'btok_', 'btok_ab cd', ''])('refuses %j, which is not a bank-account token', async (token) => {
    const account = await newAccount()
    await expect(provider().attachBankAccountToken({ accountId: account.id, token, idempotencyKey: `k6:${token}` })).rejects.toMatchObject({
      code: 'invalid_request',
      param: 'external_account',
    })
    expect(await externalAccountOf(account.id)).toBeUndefined()
  })

  it('refuses a token for an account outside the US (Plaid links US banks) and an unknown account', async () => {
    const german = await newAccount('de')
    await expect(
      provider().attachBankAccountToken({ accountId: german.id, token: 'btok_german0001', idempotencyKey: 'k7' }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    })
    await expect(
      provider().attachBankAccountToken({ accountId: 'acct_nope', token: 'btok_nobody0001', idempotencyKey: 'k8' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    })
  })

  it('keeps the sandbox’s payout test numbers: a token ending 1113 is a closed account, as Stripe’s 000111111113', async () => {
    const account = await newAccount()
    await provider().attachBankAccountToken({ accountId: account.id, token: 'btok_closed1113', idempotencyKey: 'k9' })
    expect(await externalAccountOf(account.id)).toMatchObject({ last4: '1113', payout_failure_code: 'account_closed' })
  })
})
