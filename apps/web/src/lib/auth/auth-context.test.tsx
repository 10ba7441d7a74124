import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createI18n } from '../../i18n/i18n.ts'
import { fakeAuthService, fakeUser } from '../../test/fake-auth-service.ts'
import { renderApp } from '../../test/render-app.tsx'
import { AuthProvider, useAuth } from './auth-context.tsx'
import type { AuthService } from './auth-service.ts'
import { TranslationProvider } from '../../i18n/react.tsx'

function TokenProbe() {
  const { status, user, signOut } = useAuth()
  return (
    <>
      <p data-testid="probe">{status === 'loading' ? 'loading' : (user?.accessToken ?? 'signed out')}</p>
      <button type="button" onClick={() => void signOut()}>
        sign out
      </button>
    </>
  )
}

/** The provider alone around a probe of what it holds. */
async function renderProbe(auth: AuthService) {
  const i18n = await createI18n('en_gb')
  render(
    <TranslationProvider i18n={i18n}>
      <AuthProvider service={auth}>
        <TokenProbe />
      </AuthProvider>
    </TranslationProvider>,
  )
}

describe('session handling', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('refreshes a stored session that is about to expire before showing the app', async () => {
    const auth = fakeAuthService(fakeUser({ accessToken: 'old', expiresAt: Math.floor(Date.now() / 1000) + 10 }))
    auth.refresh.mockResolvedValue(fakeUser({ accessToken: 'new' }))
    await renderApp('/transactions', { auth })
    await screen.findByRole('heading', { level: 1, name: 'My transactions' })
    expect(auth.refresh).toHaveBeenCalledTimes(1)
    expect(auth.signIn).not.toHaveBeenCalled()
  })

  it('shows a stored session that can be read at once on the first render, without reading the store again', async () => {
    const auth = { ...fakeAuthService(), peekUser: vi.fn(() => fakeUser({ accessToken: 'peeked' })) }
    await renderProbe(auth)
    expect(screen.getByTestId('probe').textContent).toBe('peeked')
    await act(() => Promise.resolve())
    expect(auth.getUser).not.toHaveBeenCalled()
    expect(auth.peekUser).toHaveBeenCalledTimes(1)
  })

  it('waits for the refresh when the session read at once is about to expire', async () => {
    const auth = {
      ...fakeAuthService(fakeUser({ accessToken: 'old', expiresAt: Math.floor(Date.now() / 1000) + 10 })),
      peekUser: () => fakeUser({ accessToken: 'old', expiresAt: Math.floor(Date.now() / 1000) + 10 }),
    }
    auth.refresh.mockResolvedValue(fakeUser({ accessToken: 'new' }))
    await renderProbe(auth)
    expect(screen.getByTestId('probe').textContent).toBe('loading')
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('new'))
  })

  it('clears the session and returns to sign-in when the refresh fails', async () => {
    const auth = fakeAuthService(fakeUser({ expiresAt: Math.floor(Date.now() / 1000) - 1 }))
    await renderApp('/profile/help/faq', { auth })
    await waitFor(() => expect(auth.signIn).toHaveBeenCalled())
    expect(auth.clear).toHaveBeenCalledTimes(1)
    expect(auth.signIn.mock.calls[0]?.[0]).toMatchObject({ returnTo: '/profile/help/faq' })
  })

  it('refreshes on the 6-second check once under 70 seconds remain, and signs out on failure', async () => {
    vi.useFakeTimers({ now: 1_000_000_000_000 })
    const nowSeconds = 1_000_000_000
    const auth = fakeAuthService(fakeUser({ accessToken: 'first', expiresAt: nowSeconds + 100 }))
    auth.refresh.mockResolvedValueOnce(fakeUser({ accessToken: 'second', expiresAt: nowSeconds + 130 }))
    await renderProbe(auth)
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('probe').textContent).toBe('first')

    await act(() => vi.advanceTimersByTimeAsync(30_000)) // 70 s left: not yet
    expect(auth.refresh).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(6000)) // 64 s left
    expect(auth.refresh).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('probe').textContent).toBe('second')

    // The new token (130 s from the start) is due at t = 66 s; this refresh is refused.
    await act(() => vi.advanceTimersByTimeAsync(36_000))
    expect(auth.refresh).toHaveBeenCalledTimes(2)
    expect(auth.clear).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('probe').textContent).toBe('signed out')
  })

  it("forgets the user in the app when the provider's sign-out cannot start", async () => {
    const auth = fakeAuthService(fakeUser({ accessToken: 'kept' }))
    auth.signOut.mockRejectedValue(new Error('No end session endpoint'))
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await renderProbe(auth)
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('kept'))
    await act(async () => screen.getByRole('button', { name: 'sign out' }).click())
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('signed out'))
    expect(auth.signOut).toHaveBeenCalledTimes(1)
    expect(auth.clear).toHaveBeenCalledTimes(1)
  })
})
