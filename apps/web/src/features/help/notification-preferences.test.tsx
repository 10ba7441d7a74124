import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const allOn = { messages: true, reminders: true, updates: true }

function preferencesApi(save: (body: unknown) => unknown = (body) => body, current: () => unknown = () => allOn) {
  return fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/notification_preferences': () => current(),
    'PUT /me/notification_preferences': ({ body }: { body?: unknown }) => save(body),
  })
}

const section = () => screen.findByRole('region', { name: 'E-mail notifications' })

describe('account page: e-mail notifications', () => {
  it('shows a switch per optional kind of e-mail, with its description, and says which e-mails are always sent', async () => {
    await renderApp('/profile/help/account', { api: preferencesApi(undefined, () => ({ ...allOn, reminders: false })) })
    const region = await section()
    const messages = await within(region).findByRole('switch', { name: 'New messages' })
    expect((messages as HTMLInputElement).checked).toBe(true)
    expect(messages.getAttribute('aria-describedby')).toBeTruthy()
    expect(document.getElementById(messages.getAttribute('aria-describedby')!)?.textContent).toContain('conversation')
    expect((within(region).getByRole('switch', { name: 'Reminders' }) as HTMLInputElement).checked).toBe(false)
    expect((within(region).getByRole('switch', { name: 'Progress updates' }) as HTMLInputElement).checked).toBe(true)
    expect(within(region).getByText(/about money .* are always sent/)).toBeTruthy()
  })

  it('saves a switch the moment it moves, with every category, and says Saved in place', async () => {
    const user = userEvent.setup()
    let answer: (value: unknown) => void = () => undefined
    const api = preferencesApi(() => new Promise((resolve) => (answer = resolve)))
    await renderApp('/profile/help/account', { api })
    const region = await section()
    const messages = (await within(region).findByRole('switch', { name: 'New messages' })) as HTMLInputElement
    await user.click(messages)
    expect(messages.checked).toBe(false)
    expect(api.request).toHaveBeenCalledWith('/me/notification_preferences', { method: 'PUT', body: { ...allOn, messages: false } })
    const state = within(region).getByTestId('notification-preferences-state')
    expect(state.getAttribute('aria-live')).toBe('polite')
    expect(state.textContent).toBe('Saving…')

    answer({ ...allOn, messages: false })
    await waitFor(() => expect(state.textContent).toBe('Saved'))
    expect(messages.checked).toBe(false)
    // Saved in place: no dialog took the focus away from the switch.
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(messages)
  })

  it('puts the switch back and says so when saving fails', async () => {
    const user = userEvent.setup()
    const api = preferencesApi(() => {
      throw apiError(500, 'internal_error')
    })
    await renderApp('/profile/help/account', { api })
    const region = await section()
    const updates = (await within(region).findByRole('switch', { name: 'Progress updates' })) as HTMLInputElement
    await user.click(updates)
    await waitFor(() => expect(within(region).getByTestId('notification-preferences-state').textContent).toContain('could not be saved'))
    expect(updates.checked).toBe(true)
  })

  it('can be used from the keyboard alone', async () => {
    const user = userEvent.setup()
    const api = preferencesApi()
    await renderApp('/profile/help/account', { api })
    const region = await section()
    const reminders = (await within(region).findByRole('switch', { name: 'Reminders' })) as HTMLInputElement
    reminders.focus()
    await user.keyboard(' ')
    await waitFor(() => expect(within(region).getByTestId('notification-preferences-state').textContent).toBe('Saved'))
    expect(api.request).toHaveBeenCalledWith('/me/notification_preferences', { method: 'PUT', body: { ...allOn, reminders: false } })
  })

  it('offers a retry when the choices cannot be read', async () => {
    const user = userEvent.setup()
    let failing = true
    const api = preferencesApi(undefined, () => {
      if (failing) throw apiError(500, 'internal_error')
      return allOn
    })
    await renderApp('/profile/help/account', { api })
    const region = await section()
    expect(await within(region).findByText('Your e-mail notifications could not be loaded.')).toBeTruthy()
    failing = false
    await user.click(within(region).getByRole('button', { name: 'Try again' }))
    expect(await within(region).findByRole('switch', { name: 'New messages' })).toBeTruthy()
  })
})
