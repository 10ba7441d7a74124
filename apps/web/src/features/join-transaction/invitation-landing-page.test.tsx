import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { fakeAuthService } from '../../test/fake-auth-service.ts'
import { renderApp } from '../../test/render-app.tsx'

const secret = 'a'.repeat(43)
const link = `/join-guest-transaction/${secret}/online`
const landing = {
  type: 'online',
  role: 'buyer',
  description: 'A green lamp',
  currency: 'eur',
  price: 10_000,
  inviter_first_name: 'Sam',
  invited_email: 'guest@example.com',
}

describe('an invitation link opened without signing in (issue 33 item 8)', () => {
  it('says who invited the visitor to what, and signs them up with the invited address, back to the link', async () => {
    const auth = fakeAuthService(null)
    await renderApp(link, { auth, api: fakeApiClient({ [`GET /guest_invitations/${secret}`]: landing }) })
    await screen.findByTestId('landing-offer')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sam invited you to buy “A green lamp” for €100.00 through Pactum')
    expect(screen.getByTestId('landing-protection').textContent).toMatch(/keeps your payment safe until the item has reached you/)
    expect(screen.getByTestId('landing-sent-to').textContent).toBe('This invitation was sent to guest@example.com.')
    // Not sent away to sign in on arrival: the visitor chooses.
    expect(auth.signIn).not.toHaveBeenCalled()

    await userEvent.click(screen.getByRole('button', { name: 'Create an account' }))
    await waitFor(() =>
      expect(auth.signIn).toHaveBeenCalledWith(expect.objectContaining({ returnTo: link, register: true, loginHint: 'guest@example.com' })),
    )
  })

  it('offers sign-in to an existing account, also with the address filled in', async () => {
    const auth = fakeAuthService(null)
    const sellerLanding = { ...landing, role: 'seller', type: 'f2f', inviter_first_name: null }
    await renderApp(`/join-guest-transaction-as-seller/${secret}/f2f`, {
      auth,
      api: fakeApiClient({ [`GET /guest_invitations/${secret}`]: sellerLanding }),
    })
    await screen.findByTestId('landing-offer')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'You are invited to sell “A green lamp” face to face through Pactum, with a deposit of €100.00',
    )
    await userEvent.click(screen.getByRole('button', { name: 'I already have an account' }))
    await waitFor(() =>
      expect(auth.signIn).toHaveBeenCalledWith(
        expect.objectContaining({
          returnTo: `/join-guest-transaction-as-seller/${secret}/f2f`,
          register: false,
          loginHint: 'guest@example.com',
        }),
      ),
    )
  })

  it('says when the invitation was accepted already, and still offers sign-in', async () => {
    const auth = fakeAuthService(null)
    await renderApp(link, {
      auth,
      api: fakeApiClient({
        [`GET /guest_invitations/${secret}`]: () => {
          throw apiError(409, 'already_claimed')
        },
      }),
    })
    await screen.findByTestId('landing-problem')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This invitation has already been accepted')
    await userEvent.click(screen.getByTestId('landing-problem-sign-in'))
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith(expect.objectContaining({ returnTo: link, register: false })))
  })

  it('leaves a signed-in visitor on the claim page itself', async () => {
    const api = fakeApiClient({
      [`GET /transactions_by_claim_secret/${secret}`]: {
        ...landing,
        id: 'tx-1',
        status: 'created',
        claimed: false,
        charge: 340,
        client_id: null,
      },
    })
    await renderApp(link, { api })
    expect(await screen.findByTestId('claim-preview')).toBeTruthy()
    expect(screen.queryByTestId('landing-offer')).toBeNull()
  })
})
