import { describe, expect, it } from 'vitest'
import { passportFront, paymentSteps, providerHarnesses, sellerProfile, useHarness } from '../../testing/payment-provider-harness.ts'

/** The connected-accounts port (connected-accounts-port.ts), the same on the sandbox and on Stripe: the seller's account, what it asks for, payouts. */
describe.each(providerHarnesses)('connected accounts contract: %s', (_name, start) => {
  const h = useHarness(start)
  const { paid } = paymentSteps(h)
  // The steps of a seller's onboarding the tests take again and again, each keyed as the app keys it.
  const openAccount = (userId: string, email: string, country: string) =>
    h().accounts.createConnectedAccount({ userId, email, country, idempotencyKey: `acct:${userId}` })
  const uploadPassport = (accountId: string, idempotencyKey: string) =>
    h().accounts.uploadIdentityDocument(passportFront(accountId, idempotencyKey))
  const setGermanBankAccount = (accountId: string, idempotencyKey: string) =>
    h().accounts.setExternalBankAccount({
      accountId,
      country: 'de',
      currency: 'eur',
      accountNumber: 'DE89370400440532013000',
      last4: '3000',
      idempotencyKey,
    })

  it('creates an account once per user and finds it again', async () => {
    expect(await h().accounts.findConnectedAccount('user-1')).toBeNull()
    const input = { userId: 'user-1', email: 's@example.com', country: 'DE', idempotencyKey: 'acct:user-1' }
    const account = await h().accounts.createConnectedAccount(input)
    expect(account).toMatchObject({ id: expect.stringMatching(/^acct_/), email: 's@example.com', country: 'de' })
    expect((await h().accounts.createConnectedAccount(input)).id).toBe(account.id)
    expect(await h().accounts.findConnectedAccount('user-1')).toEqual(account)
  })

  describe('verification and payout details', () => {
    it('asks who the seller is and for the terms, and no longer once the profile is forwarded', async () => {
      const account = await openAccount('u10', 'w@example.com', 'DE')
      expect((await h().accounts.getAccountVerification(account.id)).currentlyDue).toEqual(
        expect.arrayContaining(['name', 'dob', 'address', 'tos_acceptance']),
      )
      await h().accounts.updateAccountProfile({
        accountId: account.id,
        profile: { ...sellerProfile, dob: null, tosAcceptance: null },
        idempotencyKey: 'profile:u10:1',
      })
      const partly = await h().accounts.getAccountVerification(account.id)
      expect(partly.currentlyDue).toEqual(expect.arrayContaining(['dob', 'tos_acceptance']))
      expect(partly.currentlyDue).not.toContain('name')
      expect(partly.currentlyDue).not.toContain('address')
      // The same key and profile again is the same update; a changed profile takes a new key.
      await h().accounts.updateAccountProfile({
        accountId: account.id,
        profile: { ...sellerProfile, dob: null, tosAcceptance: null },
        idempotencyKey: 'profile:u10:1',
      })
      await expect(
        h().accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u10:1' }),
      ).rejects.toMatchObject({ code: 'idempotency_key_reused' })
      await h().accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u10:2' })
      const complete = await h().accounts.getAccountVerification(account.id)
      for (const item of ['name', 'dob', 'address', 'phone', 'tos_acceptance', 'provider_onboarding'])
        expect(complete.currentlyDue).not.toContain(item)
    })

    it('asks for an identity document and a bank account, and no longer once given', async () => {
      const account = await openAccount('u2', 'v@example.com', 'DE')
      await h().accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u2' })
      const fresh = await h().accounts.getAccountVerification(account.id)
      expect(fresh.currentlyDue).toEqual(expect.arrayContaining(['identity_document', 'external_account']))
      expect(fresh.payoutsEnabled).toBe(false)
      expect(fresh.documents.identity_document.front.status).toBe('not_uploaded')

      await uploadPassport(account.id, 'doc:1')
      const checking = await h().accounts.getAccountVerification(account.id)
      expect(checking.documents.identity_document.front.status).toBe('pending')
      expect(checking.currentlyDue).not.toContain('identity_document')

      await setGermanBankAccount(account.id, 'bank:1')
      await h().settle()
      const verified = await h().accounts.getAccountVerification(account.id)
      expect(verified.documents.identity_document.front.status).toBe('verified')
      expect(verified.currentlyDue).toEqual([])
      expect(verified.payoutsEnabled).toBe(true)
    })

    it('takes both sides of an additional identity document and checks them', async () => {
      const account = await openAccount('u11', 'x@example.com', 'DE')
      for (const side of ['front', 'back'] as const) {
        await h().accounts.uploadIdentityDocument({
          ...passportFront(account.id, `extra:u11:${side}`),
          document: 'additional_identity_document',
          side,
        })
      }
      await h().settle()
      const checked = await h().accounts.getAccountVerification(account.id)
      expect(checked.documents.additional_identity_document).toEqual({
        front: { status: 'verified', rejectionReason: null },
        back: { status: 'verified', rejectionReason: null },
      })
    })

    it('rejects an unreadable document with the reason, and asks for one again', async () => {
      const account = await openAccount('u8', 'r@example.com', 'DE')
      await h().uploadUnreadableDocument(account.id)
      await h().settle()
      const rejected = await h().accounts.getAccountVerification(account.id)
      expect(rejected.documents.identity_document.front).toEqual({
        status: 'rejected',
        rejectionReason: expect.stringMatching(/could not be read/),
      })
      expect(rejected.currentlyDue).toContain('identity_document')
      expect(rejected.payoutsEnabled).toBe(false)
    })

    it('attaches a bank-account token as the payout account, replacing the one before', async () => {
      const account = await openAccount('u3', 'us@example.com', 'US')
      await h().accounts.setExternalBankAccount({
        accountId: account.id,
        country: 'us',
        currency: 'usd',
        accountNumber: '000123456789',
        routingNumber: '110000000',
        last4: '6789',
        idempotencyKey: 'bank:2',
      })
      expect(
        await h().accounts.attachBankAccountToken({ accountId: account.id, token: 'btok_us_1234', idempotencyKey: 'token:1' }),
      ).toEqual({ last4: '1234' })
      expect(
        await h().accounts.attachBankAccountToken({ accountId: account.id, token: 'btok_us_verified', idempotencyKey: 'token:2' }),
      ).toEqual({ last4: '6789' })
      await expect(
        h().accounts.attachBankAccountToken({ accountId: account.id, token: 'tok_visa', idempotencyKey: 'token:3' }),
      ).rejects.toMatchObject({ code: 'invalid_request' })
      expect((await h().accounts.getAccountVerification(account.id)).currentlyDue).not.toContain('external_account')
    })

    it('hands out an account session for the embedded components', async () => {
      const account = await openAccount('u4', 'a@example.com', 'FI')
      expect((await h().accounts.createAccountSession(account.id)).clientSecret).toMatch(/_secret_/)
    })
  })

  it('pays a verified seller’s balance out to their bank account', async () => {
    await paid(10_340, 'tx-9')
    const account = await openAccount('u7', 'p@example.com', 'DE')
    await h().accounts.updateAccountProfile({ accountId: account.id, profile: sellerProfile, idempotencyKey: 'profile:u7' })
    await uploadPassport(account.id, 'doc:u7')
    await setGermanBankAccount(account.id, 'bank:u7')
    await h().settle()
    await h().payments.transfer({
      amount: 10_000,
      currency: 'eur',
      destinationAccount: account.id,
      transactionId: 'tx-9',
      idempotencyKey: 'tx-9:release',
    })
    expect(await h().accounts.listPayouts(account.id)).toEqual([])
    await h().payOut(account.id)
    expect(await h().accounts.listPayouts(account.id)).toEqual([
      {
        id: expect.any(String),
        amount: 10_000,
        currency: 'eur',
        status: 'in_transit',
        bankLast4: '3000',
        created: expect.any(Date),
        arrivalDate: expect.any(Date),
        failureMessage: null,
        failureCode: null,
      },
    ])
    expect((await h().accounts.getBalance(account.id)).available).toEqual([])
  })
})
