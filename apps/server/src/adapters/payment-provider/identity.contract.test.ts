import { describe, expect, it } from 'vitest'
import { providerHarnesses, useHarness } from '../../testing/payment-provider-harness.ts'

/**
 * The identity port (identity-port.ts), the same on the sandbox and on
 * Stripe: a session made for the Person of a connected account verifies
 * that account's identity document once verified, with nothing attached
 * by Pactum.
 */
describe.each(providerHarnesses)('identity contract: %s', (_name, start) => {
  const h = useHarness(start)

  const openAccount = (userId: string) =>
    h().accounts.createConnectedAccount({ userId, email: `${userId}@example.com`, country: 'DE', idempotencyKey: `acct:${userId}` })

  it('verifies a user with an Identity session made for their account’s Person, whose document then verifies the account', async () => {
    const account = await openAccount('u5')
    const relatedPerson = { accountId: account.id, personId: await h().accounts.personOf(account.id) }
    expect(relatedPerson.personId).toEqual(expect.any(String))
    expect(await h().accounts.personOf(account.id)).toBe(relatedPerson.personId)
    const input = { userId: 'u5', returnUrl: 'http://localhost:3999/profile/verification', idempotencyKey: 'identity:u5:1', relatedPerson }
    const session = await h().identity.createVerificationSession(input)
    expect(session).toMatchObject({
      id: expect.any(String),
      status: 'requires_input',
      lastError: null,
      url: expect.stringMatching(/\S/),
      relatedPerson,
    })
    expect(session.clientSecret).toMatch(/_secret_/)
    expect((await h().identity.createVerificationSession(input)).id).toBe(session.id)
    expect((await h().accounts.getAccountVerification(account.id)).currentlyDue).toContain('identity_document')

    await h().completeIdentity(session, 'verified')
    expect(await h().identity.retrieveVerificationSession(session.id, input.returnUrl)).toMatchObject({
      id: session.id,
      status: 'verified',
      relatedPerson,
    })
    await h().settle()
    const verification = await h().accounts.getAccountVerification(account.id)
    expect(verification.documents.identity_document.front.status).toBe('verified')
    expect(verification.currentlyDue).not.toContain('identity_document')
  })

  it('leaves a failed Identity session waiting for input, with the reason, and the account’s document still due', async () => {
    const account = await openAccount('u6')
    const relatedPerson = { accountId: account.id, personId: await h().accounts.personOf(account.id) }
    const session = await h().identity.createVerificationSession({
      userId: 'u6',
      returnUrl: 'http://localhost:3999/profile',
      idempotencyKey: 'identity:u6:1',
      relatedPerson,
    })
    await h().completeIdentity(session, 'failed')
    const failed = await h().identity.retrieveVerificationSession(session.id, 'http://localhost:3999/profile')
    expect(failed.status).toBe('requires_input')
    expect(failed.lastError).toEqual(expect.any(String))
    await h().settle()
    const verification = await h().accounts.getAccountVerification(account.id)
    expect(verification.documents.identity_document.front.status).toBe('not_uploaded')
    expect(verification.currentlyDue).toContain('identity_document')
  })

  it('verifies a session made for no account without touching any account', async () => {
    const account = await openAccount('u9')
    const session = await h().identity.createVerificationSession({
      userId: 'u9',
      returnUrl: 'http://localhost:3999/profile',
      idempotencyKey: 'identity:u9:1',
    })
    expect(session.relatedPerson).toBeNull()
    await h().completeIdentity(session, 'verified')
    await h().settle()
    expect((await h().identity.retrieveVerificationSession(session.id, 'http://localhost:3999/profile')).status).toBe('verified')
    expect((await h().accounts.getAccountVerification(account.id)).currentlyDue).toContain('identity_document')
  })

  it('refuses a session for another account’s Person, or for an account that does not exist', async () => {
    const account = await openAccount('u10')
    const other = await openAccount('u11')
    const otherPerson = await h().accounts.personOf(other.id)
    await expect(
      h().identity.createVerificationSession({
        userId: 'u10',
        returnUrl: 'http://localhost:3999/profile',
        idempotencyKey: 'identity:u10:1',
        relatedPerson: { accountId: account.id, personId: otherPerson },
      }),
    ).rejects.toMatchObject({ name: 'PaymentProviderError', code: 'invalid_request', param: 'related_person[person]' })
    await expect(
      h().identity.createVerificationSession({
        userId: 'u10',
        returnUrl: 'http://localhost:3999/profile',
        idempotencyKey: 'identity:u10:2',
        relatedPerson: { accountId: 'acct_missing', personId: otherPerson },
      }),
    ).rejects.toMatchObject({ name: 'PaymentProviderError', code: 'not_found' })
    await expect(h().accounts.personOf('acct_missing')).rejects.toMatchObject({ name: 'PaymentProviderError', code: 'not_found' })
  })
})
