import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

function passwordApi(change: (body: unknown) => unknown) {
  return fakeApiClient({ ...defaultApiRoutes(), 'POST /me/password': ({ body }: { body?: unknown }) => change(body) })
}

// Within the password form: the address and passkey forms ask for the current password too.
const current = async () => within(await screen.findByTestId('change-password')).getByLabelText(/Current password/) as HTMLInputElement
const fresh = () => within(screen.getByTestId('change-password')).getByLabelText(/New password/) as HTMLInputElement

describe('account page: change password', () => {
  it('sends the current and the new password, then says every other device is signed out', async () => {
    const user = userEvent.setup()
    const api = passwordApi(() => ({ signed_out_sessions: 2 }))
    await renderApp('/profile/help/account', { api })
    await user.type(await current(), 'correct horse 42')
    expect(screen.getByRole('heading', { level: 2, name: 'Password' })).toBeTruthy()
    await user.type(fresh(), 'battery staple 77')
    expect(fresh().getAttribute('autocomplete')).toBe('new-password')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect((await screen.findByRole('status')).textContent).toContain('Your password is changed. Every other device has been signed out.')
    expect(api.request).toHaveBeenCalledWith('/me/password', {
      method: 'POST',
      body: { current_password: 'correct horse 42', new_password: 'battery staple 77' },
    })
    expect((await current()).value).toBe('')
  })

  it('names every rule a new password breaks, next to the field, and sends nothing', async () => {
    const user = userEvent.setup()
    const api = passwordApi(() => ({ signed_out_sessions: 0 }))
    await renderApp('/profile/help/account', { api })
    await user.type(await current(), 'correct horse 42')
    await user.type(fresh(), 'short')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    await waitFor(() => expect(fresh().getAttribute('aria-invalid')).toBe('true'))
    const described = document.getElementById(fresh().getAttribute('aria-describedby')!.split(' ')[0]!)
    expect(described?.textContent).toBe('Use at least 10 characters. Include at least one digit.')
    expect(api.request).not.toHaveBeenCalledWith('/me/password', expect.anything())
  })

  it('says a wrong current password at its field and focuses it', async () => {
    const user = userEvent.setup()
    const api = passwordApi(() => {
      throw apiError(403, 'incorrect_password')
    })
    await renderApp('/profile/help/account', { api })
    await user.type(await current(), 'not my password 1')
    await user.type(fresh(), 'battery staple 77')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    await waitFor(async () => expect((await current()).getAttribute('aria-invalid')).toBe('true'))
    const field = await current()
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe('The current password is incorrect.')
    expect(document.activeElement).toBe(field)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('explains a refusal it cannot place at a field', async () => {
    const user = userEvent.setup()
    const api = passwordApi(() => {
      throw apiError(429, 'rate_limited')
    })
    await renderApp('/profile/help/account', { api })
    await user.type(await current(), 'correct horse 42')
    await user.type(fresh(), 'battery staple 77')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Wait a minute and try again.')
  })
})

describe('account page: where you are signed in', () => {
  const sessions = [
    { id: 'aaaaaaaaaaaaaaaaaaaaaa', signed_in_at: '2026-11-20T09:00:00Z', last_used_at: '2026-11-27T10:00:00Z', current: true },
    { id: 'bbbbbbbbbbbbbbbbbbbbbb', signed_in_at: '2026-11-01T09:00:00Z', last_used_at: '2026-11-02T10:00:00Z', current: false },
  ]

  it('lists the browsers, marks this one, and signs out the others', async () => {
    const user = userEvent.setup()
    let listed = sessions
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /me/sessions': () => listed,
      'POST /me/sessions/sign_out_others': () => {
        listed = sessions.filter((session) => session.current)
        return { signed_out_sessions: 1 }
      },
    })
    await renderApp('/profile/help/account', { api })
    await waitFor(() => expect(screen.getAllByTestId('signed-in-session')).toHaveLength(2))
    const [first, second] = screen.getAllByTestId('signed-in-session')
    expect(first!.textContent).toContain('This browser')
    expect(first!.textContent).toContain('Signed in 20 Nov 2026')
    expect(second!.textContent).not.toContain('This browser')
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }))
    expect((await screen.findByRole('status')).textContent).toBe('Every other browser has been signed out.')
    await waitFor(() => expect(screen.getAllByTestId('signed-in-session')).toHaveLength(1))
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' }).hasAttribute('disabled')).toBe(true)
  })
})
