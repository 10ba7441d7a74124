import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Passkey } from '@pactum/contracts/passkeys'
import { describe, expect, it, vi } from 'vitest'
import { apiError } from '../../test/fake-api-client.ts'
import { renderWithApi } from '../../test/render-app.tsx'
import { type CreatePasskey, Passkeys } from './passkeys.tsx'

const phone: Passkey = { id: 'cred-1', name: 'Phone', created: '2026-11-20T10:00:00Z', last_used: '2026-11-26T09:00:00Z', backed_up: true }
const attestation = {
  id: 'cred-2',
  rawId: 'cred-2',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA' },
  clientExtensionResults: {},
}

async function renderPasskeys(routes: Record<string, unknown>, create: CreatePasskey, supported = true) {
  return renderWithApi(<Passkeys create={create} supported={supported} />, routes)
}

describe('passkeys on the Account page', () => {
  it('lists the passkeys, and adds one: password, then the browser, then the server', async () => {
    const user = userEvent.setup()
    let list = [phone]
    const create = vi.fn(async () => attestation as never)
    const api = await renderPasskeys(
      {
        'GET /me/passkeys': () => list,
        'POST /me/passkeys/registration_options': { challenge: 'abc', rp: { id: 'localhost' }, user: { id: 'u' } },
        'POST /me/passkeys': () => {
          const laptop = { ...phone, id: 'cred-2', name: 'Laptop', last_used: null }
          list = [...list, laptop]
          return laptop
        },
      },
      create,
    )
    expect((await screen.findByTestId('passkeys-list')).textContent).toContain('Phone')
    expect(screen.getByTestId('passkeys-list').textContent).toContain('last used 26 Nov 2026')

    const form = screen.getByTestId('add-passkey')
    await user.click(within(form).getByRole('button', { name: 'Add a passkey' }))
    expect(await within(form).findByText('Enter your current password.')).toBeTruthy()
    expect(create).not.toHaveBeenCalled()

    await user.clear(within(form).getByRole('textbox', { name: /name/i }))
    await user.type(within(form).getByRole('textbox', { name: /name/i }), 'Laptop')
    await user.type(within(form).getByLabelText(/current password/i), 'correct horse 42')
    await user.click(within(form).getByRole('button', { name: 'Add a passkey' }))
    expect((await screen.findByTestId('passkey-added')).textContent).toBe('"Laptop" was added. You can sign in with it from now on.')
    expect(create).toHaveBeenCalledWith({ challenge: 'abc', rp: { id: 'localhost' }, user: { id: 'u' } })
    expect(api.request).toHaveBeenCalledWith('/me/passkeys/registration_options', {
      method: 'POST',
      body: { current_password: 'correct horse 42' },
    })
    expect(api.request).toHaveBeenCalledWith('/me/passkeys', { method: 'POST', body: { name: 'Laptop', response: attestation } })
    await waitFor(() => expect(screen.getByTestId('passkeys-list').textContent).toContain('Laptop'))
  })

  it('says a wrong password next to its field, and never asks the browser', async () => {
    const user = userEvent.setup()
    const create = vi.fn()
    await renderPasskeys(
      {
        'GET /me/passkeys': [],
        'POST /me/passkeys/registration_options': () => {
          throw apiError(403, 'incorrect_password')
        },
      },
      create,
    )
    expect(await screen.findByTestId('passkeys-empty')).toBeTruthy()
    const form = screen.getByTestId('add-passkey')
    const password = within(form).getByLabelText(/current password/i)
    await user.type(password, 'wrong horse 42')
    await user.click(within(form).getByRole('button', { name: 'Add a passkey' }))
    expect(await within(form).findByText('The password is not right.')).toBeTruthy()
    expect(password.getAttribute('aria-invalid')).toBe('true')
    expect(create).not.toHaveBeenCalled()
  })

  it('says so when the person cancels in the browser', async () => {
    const user = userEvent.setup()
    const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' })
    await renderPasskeys({ 'GET /me/passkeys': [], 'POST /me/passkeys/registration_options': { challenge: 'abc' } }, () =>
      Promise.reject(cancelled),
    )
    const form = await screen.findByTestId('add-passkey')
    await user.type(within(form).getByLabelText(/current password/i), 'correct horse 42')
    await user.click(within(form).getByRole('button', { name: 'Add a passkey' }))
    expect((await screen.findByTestId('passkey-add-error')).textContent).toContain('No passkey was added')
  })

  it('removes one after asking', async () => {
    const user = userEvent.setup()
    let list = [phone]
    const api = await renderPasskeys(
      {
        'GET /me/passkeys': () => list,
        'DELETE /me/passkeys/cred-1': () => {
          list = []
          return null
        },
      },
      vi.fn(),
    )
    await user.click(await screen.findByRole('button', { name: 'Remove Phone' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' })
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByTestId('passkeys-empty')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/me/passkeys/cred-1', { method: 'DELETE' })
  })

  it('explains a browser without WebAuthn', async () => {
    await renderPasskeys({ 'GET /me/passkeys': [] }, vi.fn(), false)
    expect(await screen.findByText('This browser cannot make passkeys. Use a recent browser to add one.')).toBeTruthy()
    expect(screen.queryByTestId('add-passkey')).toBeNull()
  })
})
