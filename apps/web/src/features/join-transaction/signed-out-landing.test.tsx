import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { fakeAuthService } from '../../test/fake-auth-service.ts'
import { fakeListingPreview } from '../../test/fake-listing-preview.ts'
import { renderApp } from '../../test/render-app.tsx'

const id = '3f2b8c1e-0a4d-4e6f-9b7a-2c1d0e9f8a7b'
const preview = fakeListingPreview({ id })

describe('a listing link opened without signing in', () => {
  it('shows the offer with what the buyer pays, and signs them up back to the link', async () => {
    const auth = fakeAuthService(null)
    await renderApp(`/join-transaction/listing/${id}`, { auth, api: fakeApiClient({ [`GET /listings/${id}`]: preview }) })
    await screen.findByTestId('landing-offer')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Marta is selling “Vintage camera” through Pactum')
    expect(screen.getByTestId('landing-offer').textContent).toContain('€51.90')
    expect(screen.getByTestId('landing-protection').textContent).toMatch(/keeps your payment safe/)
    // Not sent away to sign in on arrival: the visitor reads the offer first.
    expect(auth.signIn).not.toHaveBeenCalled()

    await userEvent.click(screen.getByRole('button', { name: 'Create an account' }))
    await waitFor(() =>
      expect(auth.signIn).toHaveBeenCalledWith(expect.objectContaining({ returnTo: `/join-transaction/listing/${id}`, register: true })),
    )
  })

  it('says a closed listing is no longer available, with nothing to sign in for', async () => {
    const auth = fakeAuthService(null)
    await renderApp(`/join-transaction/listing/${id}`, {
      auth,
      api: fakeApiClient({ [`GET /listings/${id}`]: { ...preview, status: 'closed', available: false } }),
    })
    await screen.findByTestId('landing-problem')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This listing is no longer available')
    expect(screen.queryByTestId('landing-problem-sign-in')).toBeNull()
  })

  it('says an unknown listing is not there', async () => {
    const auth = fakeAuthService(null)
    await renderApp(`/join-transaction/listing/${id}`, {
      auth,
      api: fakeApiClient({
        [`GET /listings/${id}`]: () => {
          throw apiError(404, 'not_found')
        },
      }),
    })
    await screen.findByTestId('landing-problem')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('There is no such listing')
  })
})

describe('a join-code link opened without signing in', () => {
  it('names the code and what Pactum does, shows nothing of the sale, and signs in back to the link', async () => {
    const auth = fakeAuthService(null)
    const api = fakeApiClient({})
    await renderApp('/join-transaction/K7M2Q9QH', { auth, api })
    await screen.findByTestId('landing-offer')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('You have a code to join a sale through Pactum')
    expect(screen.getByTestId('landing-code').textContent).toBe('K7M2Q9QH')
    // The sale itself is looked up only for a signed-in person.
    expect(api.request.mock.calls.map(([path]) => path)).not.toContain('/transactions')

    await userEvent.click(screen.getByRole('button', { name: 'I already have an account' }))
    await waitFor(() =>
      expect(auth.signIn).toHaveBeenCalledWith(expect.objectContaining({ returnTo: '/join-transaction/K7M2Q9QH', register: false })),
    )
  })

  it('says a malformed code is not valid, and still offers sign-in', async () => {
    const auth = fakeAuthService(null)
    await renderApp('/join-transaction/K7M2', { auth, api: fakeApiClient({}) })
    await screen.findByTestId('landing-problem')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This code is not valid')
    expect(screen.getByTestId('landing-problem-sign-in')).toBeTruthy()
  })
})

describe('any other page opened without signing in', () => {
  it('goes straight to the sign-in, back to that page', async () => {
    const auth = fakeAuthService(null)
    await renderApp('/transactions/listings', { auth, api: fakeApiClient({}) })
    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith(expect.objectContaining({ returnTo: '/transactions/listings' })))
  })
})
