import { describe, expect, it } from 'vitest'
import { providerHarnesses, useHarness } from '../../testing/payment-provider-harness.ts'

/** The identity port (identity-port.ts), the same on the sandbox and on Stripe, and a verified session's document on the connected account. */
describe.each(providerHarnesses)('identity contract: %s', (_name, start) => {
  const h = useHarness(start)

  it('verifies a user with an Identity session, whose document then verifies the account', async () => {
    const input = { userId: 'u5', returnUrl: 'http://localhost:3999/profile/verification', idempotencyKey: 'identity:u5:1' }
    const session = await h().identity.createVerificationSession(input)
    expect(session).toMatchObject({ id: expect.any(String), status: 'requires_input', lastError: null, url: expect.stringMatching(/\S/) })
    expect(session.clientSecret).toMatch(/_secret_/)
    expect((await h().identity.createVerificationSession(input)).id).toBe(session.id)
    await h().completeIdentity(session, 'verified')
    expect(await h().identity.retrieveVerificationSession(session.id, input.returnUrl)).toMatchObject({
      id: session.id,
      status: 'verified',
    })
    const account = await h().accounts.createConnectedAccount({
      userId: 'u5',
      email: 'i@example.com',
      country: 'DE',
      idempotencyKey: 'acct:u5',
    })
    await h().accounts.attachVerifiedSession({
      accountId: account.id,
      sessionId: session.id,
      idempotencyKey: `attach-session:${session.id}`,
    })
    await h().settle()
    const verification = await h().accounts.getAccountVerification(account.id)
    expect(verification.documents.identity_document.front.status).toBe('verified')
    expect(verification.currentlyDue).not.toContain('identity_document')
  })

  it('leaves a failed Identity session waiting for input, with the reason, and refuses to attach it', async () => {
    const session = await h().identity.createVerificationSession({
      userId: 'u6',
      returnUrl: 'http://localhost:3999/profile',
      idempotencyKey: 'identity:u6:1',
    })
    await h().completeIdentity(session, 'failed')
    const failed = await h().identity.retrieveVerificationSession(session.id, 'http://localhost:3999/profile')
    expect(failed.status).toBe('requires_input')
    expect(failed.lastError).toEqual(expect.any(String))
    const account = await h().accounts.createConnectedAccount({
      userId: 'u6',
      email: 'f@example.com',
      country: 'DE',
      idempotencyKey: 'acct:u6',
    })
    await expect(
      h().accounts.attachVerifiedSession({ accountId: account.id, sessionId: session.id, idempotencyKey: 'attach:u6' }),
    ).rejects.toMatchObject({ code: 'invalid_state' })
  })
})
