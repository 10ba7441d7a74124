import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError } from '../../test/fake-api-client.ts'
import { renderWithApi } from '../../test/render-app.tsx'
import { AuthenticatorApp } from './authenticator-app.tsx'

const setup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_uri: 'otpauth://totp/Pactum:anna%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
}

async function renderAuthenticatorApp(routes: Record<string, unknown>) {
  return renderWithApi(<AuthenticatorApp />, routes)
}

describe('the authenticator app on the Account page', () => {
  it('is set up in two steps: the password, then a code from the app', async () => {
    const user = userEvent.setup()
    let attempts = 0
    const api = await renderAuthenticatorApp({
      'GET /me/totp': { enabled: false, since: null },
      'POST /me/totp/setup': ({ body }: { body: { current_password: string } }) => {
        if (body.current_password !== 'correct horse 42') throw apiError(403, 'incorrect_password', 'The current password is not right')
        return setup
      },
      'POST /me/totp': () => {
        attempts += 1
        if (attempts === 1) throw apiError(400, 'incorrect_code', 'body.code: not the code your app shows now')
        return { enabled: true, since: '2026-11-28T10:00:00Z' }
      },
    })
    const form = await screen.findByTestId('totp-setup')
    await user.click(within(form).getByRole('button', { name: 'Set up an authenticator app' }))
    expect(await within(form).findByText('Enter your current password.')).toBeTruthy()
    await user.type(within(form).getByLabelText(/current password/i), 'wrong horse 1')
    await user.click(within(form).getByRole('button', { name: 'Set up an authenticator app' }))
    expect(await within(form).findByText('The password is not right.')).toBeTruthy()
    await user.clear(within(form).getByLabelText(/current password/i))
    await user.type(within(form).getByLabelText(/current password/i), 'correct horse 42')
    await user.click(within(form).getByRole('button', { name: 'Set up an authenticator app' }))

    const confirm = await screen.findByTestId('totp-confirm')
    expect(within(confirm).getByRole('img', { name: 'QR code for your authenticator app' }).getAttribute('src')).toBe(setup.qr_code)
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')
    await user.type(screen.getByLabelText(/code from the app/i), '12ab')
    await user.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText('Enter the 6 digits the app shows.')).toBeTruthy()
    expect(api.request).not.toHaveBeenCalledWith('/me/totp', expect.anything())
    await user.clear(screen.getByLabelText(/code from the app/i))
    await user.type(screen.getByLabelText(/code from the app/i), '123 456')
    await user.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText(/That is not the code the app shows now/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Turn on' }))
    expect((await screen.findByTestId('totp-enabled')).textContent).toContain('On since 28 Nov 2026')
    expect(api.request).toHaveBeenCalledWith('/me/totp', { method: 'POST', body: { code: '123456' } })
  })

  it('is removed with the password', async () => {
    const user = userEvent.setup()
    let enabled = true
    const api = await renderAuthenticatorApp({
      'GET /me/totp': () => (enabled ? { enabled: true, since: '2026-11-20T10:00:00Z' } : { enabled: false, since: null }),
      'POST /me/totp/remove': () => {
        enabled = false
        return null
      },
    })
    const form = await screen.findByTestId('totp-remove')
    await user.type(within(form).getByLabelText(/current password/i), 'correct horse 42')
    await user.click(within(form).getByRole('button', { name: 'Remove authenticator app' }))
    expect(await screen.findByTestId('totp-setup')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/me/totp/remove', { method: 'POST', body: { current_password: 'correct horse 42' } })
  })
})
