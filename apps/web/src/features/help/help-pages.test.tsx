import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { fakeAuthService, fakeUser } from '../../test/fake-auth-service.ts'
import { renderApp } from '../../test/render-app.tsx'

function contactApi(answer: unknown = undefined) {
  return fakeApiClient({
    ...defaultApiRoutes(),
    'POST /app_api/contact_us': () => {
      if (answer instanceof Error) throw answer
      return answer
    },
  })
}

describe('contact form (/profile/help/contact-us)', () => {
  it('prefills the e-mail from the ID token and shows field errors for an empty form', async () => {
    const user = userEvent.setup()
    const api = contactApi()
    await renderApp('/profile/help/contact-us', { api })
    const email = (await screen.findByRole('textbox', { name: /your e-mail/i })) as HTMLInputElement
    expect(email.value).toBe('anna@example.com')
    await user.clear(email)
    await user.type(email, 'not-an-address')
    await user.click(screen.getByRole('button', { name: 'Send message' }))
    expect(screen.getByText('Enter a valid e-mail address.')).toBeTruthy()
    expect(screen.getAllByText('This field is required.')).toHaveLength(2)
    expect(screen.getByRole('textbox', { name: /subject/i }).getAttribute('aria-invalid')).toBe('true')
    expect(await screen.findByTestId('invalid-form-snackbar')).toBeTruthy()
    expect(api.request.mock.calls.some(([path]) => path === '/app_api/contact_us')).toBe(false)
  })

  it('sends subject, message and e-mail to /app_api/contact_us at the site root and says Success!', async () => {
    const user = userEvent.setup()
    const api = contactApi({ id: 'msg-1' })
    await renderApp('/profile/help/contact-us', { api })
    await user.type(await screen.findByRole('textbox', { name: /subject/i }), 'Where is my payout?')
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'Transaction ABCD2345 was completed yesterday.')
    await user.click(screen.getByRole('button', { name: 'Send message' }))
    expect(await screen.findByRole('dialog', { name: 'Success!' })).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/app_api/contact_us', {
      method: 'POST',
      fromSiteRoot: true,
      body: {
        email: 'anna@example.com',
        subject: 'Where is my payout?',
        message: 'Transaction ABCD2345 was completed yesterday.',
      },
    })
  })

  it('explains a 429 clearly', async () => {
    const user = userEvent.setup()
    await renderApp('/profile/help/contact-us', { api: contactApi(apiError(429, 'rate_limited')) })
    await user.type(await screen.findByRole('textbox', { name: /subject/i }), 'Hello')
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'Hello again')
    await user.click(screen.getByRole('button', { name: 'Send message' }))
    const modal = await screen.findByRole('dialog', { name: 'Error!' })
    expect(within(modal).getByText(/too many messages in a short time/)).toBeTruthy()
  })
})

describe('account page: closing the account', () => {
  function closeApi(answer: unknown = null) {
    return fakeApiClient({
      ...defaultApiRoutes(),
      'POST /me/close_account': () => {
        if (answer instanceof Error) throw answer
        return answer
      },
    })
  }

  it('asks for the account’s own address before calling, then closes it and signs out', async () => {
    const user = userEvent.setup()
    const api = closeApi()
    const auth = fakeAuthService(fakeUser({ profile: { givenName: 'Anna', email: 'anna@example.com' } }))
    await renderApp('/profile/help/account', { api, auth })
    await user.click(await screen.findByRole('button', { name: 'Close account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Close your Pactum account?' })
    const field = within(dialog).getByRole('textbox', { name: /your e-mail address/i })
    await user.type(field, 'someone@example.com')
    await user.click(within(dialog).getByRole('button', { name: 'Close account' }))
    expect(await within(dialog).findByText("Type this account's address, anna@example.com, to confirm.")).toBeTruthy()
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(api.request.mock.calls.some(([path]) => path === '/me/close_account')).toBe(false)

    await user.clear(field)
    await user.type(field, 'Anna@Example.com')
    await user.click(within(dialog).getByRole('button', { name: 'Close account' }))
    await waitFor(() => expect(auth.signOut).toHaveBeenCalled())
    expect(api.request).toHaveBeenCalledWith('/me/close_account', { method: 'POST', body: { confirm_email: 'Anna@Example.com' } })
  })

  it('says how many sales are still open, with the way to them, and stays signed in', async () => {
    const user = userEvent.setup()
    const auth = fakeAuthService(fakeUser({ profile: { givenName: 'Anna', email: 'anna@example.com' } }))
    const api = closeApi(apiError(409, 'account_has_open_transactions', 'open sales', { transaction_ids: ['t-1', 't-2'], count: 2 }))
    await renderApp('/profile/help/account', { api, auth })
    await user.click(await screen.findByRole('button', { name: 'Close account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Close your Pactum account?' })
    await user.type(within(dialog).getByRole('textbox', { name: /your e-mail address/i }), 'anna@example.com')
    await user.click(within(dialog).getByRole('button', { name: 'Close account' }))
    const refusal = await within(dialog).findByTestId('close-account-refused')
    expect(refusal.textContent).toContain('You have 2 sales that are still open')
    expect(within(refusal).getByRole('link', { name: 'My transactions' }).getAttribute('href')).toBe('/transactions')
    expect(auth.signOut).not.toHaveBeenCalled()
  })

  it('says why when the balance is not paid out yet', async () => {
    const user = userEvent.setup()
    const auth = fakeAuthService(fakeUser({ profile: { givenName: 'Anna', email: 'anna@example.com' } }))
    await renderApp('/profile/help/account', { api: closeApi(apiError(409, 'account_has_balance')), auth })
    await user.click(await screen.findByRole('button', { name: 'Close account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Close your Pactum account?' })
    await user.type(within(dialog).getByRole('textbox', { name: /your e-mail address/i }), 'anna@example.com')
    await user.click(within(dialog).getByRole('button', { name: 'Close account' }))
    expect((await within(dialog).findByTestId('close-account-refused')).textContent).toContain('Your balance has not been paid out yet')
  })
})

describe('account page: changing the e-mail address', () => {
  function changeApi(answer: unknown = { email: 'anna.new@example.com' }) {
    return fakeApiClient({
      ...defaultApiRoutes(),
      'POST /me/email': () => {
        if (answer instanceof Error) throw answer
        return answer
      },
    })
  }

  it('checks the fields, sends the new address with the password, and says where the link went', async () => {
    const user = userEvent.setup()
    const api = changeApi()
    await renderApp('/profile/help/account', { api })
    const form = await screen.findByTestId('change-email')
    await user.type(within(form).getByRole('textbox', { name: /new e-mail address/i }), 'not-an-address')
    await user.click(within(form).getByRole('button', { name: 'Send the link' }))
    expect(await within(form).findByText('Enter a valid e-mail address.')).toBeTruthy()
    expect(within(form).getByText('Enter your current password.')).toBeTruthy()
    expect(api.request.mock.calls.some(([path]) => path === '/me/email')).toBe(false)

    await user.clear(within(form).getByRole('textbox', { name: /new e-mail address/i }))
    await user.type(within(form).getByRole('textbox', { name: /new e-mail address/i }), 'Anna.New@Example.com')
    await user.type(within(form).getByLabelText(/current password/i), 'correct horse 42')
    await user.click(within(form).getByRole('button', { name: 'Send the link' }))
    expect((await within(form).findByTestId('change-email-sent')).textContent).toBe(
      'We sent a link to anna.new@example.com. Your address changes when you open it.',
    )
    expect(api.request).toHaveBeenCalledWith('/me/email', {
      method: 'POST',
      body: { new_email: 'anna.new@example.com', current_password: 'correct horse 42' },
    })
  })

  it('says a wrong password next to its field', async () => {
    const user = userEvent.setup()
    await renderApp('/profile/help/account', { api: changeApi(apiError(403, 'incorrect_password')) })
    const form = await screen.findByTestId('change-email')
    await user.type(within(form).getByRole('textbox', { name: /new e-mail address/i }), 'anna.new@example.com')
    const password = within(form).getByLabelText(/current password/i)
    await user.type(password, 'wrong horse 42')
    await user.click(within(form).getByRole('button', { name: 'Send the link' }))
    expect(await within(form).findByText('The password is not right.')).toBeTruthy()
    expect(password.getAttribute('aria-invalid')).toBe('true')
  })
})

describe('account page: e-mail confirmation', () => {
  const signedIn = (emailVerified: boolean | undefined) =>
    fakeAuthService(fakeUser({ profile: { givenName: 'Anna', email: 'anna@example.com', emailVerified } }))

  it('says a confirmed address is confirmed, and offers nothing to send', async () => {
    await renderApp('/profile/help/account', { auth: signedIn(true) })
    expect((await screen.findByTestId('email-confirmed')).textContent).toBe('Confirmed')
    expect(screen.queryByRole('button', { name: 'Send the link again' })).toBeNull()
  })

  it('sends the link again once, and says where it went', async () => {
    const user = userEvent.setup()
    const api = fakeApiClient({ ...defaultApiRoutes(), 'POST /me/email_confirmation': () => ({ email: 'anna@example.com' }) })
    await renderApp('/profile/help/account', { auth: signedIn(false), api })
    expect(await screen.findByText('Not confirmed yet')).toBeTruthy()
    const button = screen.getByRole('button', { name: 'Send the link again' })
    await user.click(button)
    expect((await screen.findByTestId('email-confirmation-sent')).textContent).toBe(
      'We have sent a new link to anna@example.com. It works for 7 days.',
    )
    expect(api.request).toHaveBeenCalledWith('/me/email_confirmation', { method: 'POST' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
  })

  it('explains a refusal in the interface language', async () => {
    const user = userEvent.setup()
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'POST /me/email_confirmation': () => {
        throw apiError(409, 'email_already_confirmed')
      },
    })
    await renderApp('/profile/help/account', { auth: signedIn(false), api, locale: 'pl_pl' })
    await user.click(await screen.findByRole('button', { name: 'Wyślij link ponownie' }))
    expect((await screen.findByTestId('email-confirmation-error')).textContent).toBe(
      'Twój adres e-mail jest już potwierdzony. Pactum pokaże to po następnym zalogowaniu.',
    )
  })
})

describe('FAQ', () => {
  it('covers fees, the complaint window and face-to-face sales', async () => {
    await renderApp('/profile/help/faq')
    expect(await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'What does the buyer pay?' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Does the seller pay a fee?' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Who can complain if something goes wrong?' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'How does a face-to-face sale work?' })).toBeTruthy()
    expect(screen.getByText(/within 24 hours of the item arriving/)).toBeTruthy()
  })
})

describe('terms of service (/terms)', () => {
  it('is public, in English, with one h1 and the clauses the spec requires', async () => {
    const { auth } = await renderApp('/terms')
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of service' })).toBeTruthy()
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    const text = screen.getByTestId('terms-of-service').textContent ?? ''
    expect(text).toMatch(/over 18 years of age/)
    expect(text).toMatch(/summary resolution within 3 business days/)
    expect(text).toMatch(/final response within 8 weeks/)
    expect(text).toMatch(/two months' notice/)
    expect(text).toMatch(/13 months/)
    expect(text).toMatch(/24 hours/)
    expect(screen.getByTestId('terms-of-service').closest('[lang="en"]')).toBeTruthy()
    expect(auth.signIn).not.toHaveBeenCalled()
  })
})
