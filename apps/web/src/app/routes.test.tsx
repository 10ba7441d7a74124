import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fakeAuthService } from '../test/fake-auth-service.ts'
import { defaultApiRoutes, fakeApiClient } from '../test/fake-api-client.ts'
import { renderApp } from '../test/render-app.tsx'

async function expectPage(path: string, expectedPath: string, title: string) {
  const { router } = await renderApp(path)
  expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy()
  expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
  expect(router.state.location.pathname).toBe(expectedPath)
  return router
}

describe('route table (spec §2)', () => {
  it.each([
    ['/transactions', 'My transactions'],
    ['/transactions/tx-42', 'Transaction status'],
    ['/create-transaction', 'Create transaction'],
    ['/build-transaction', 'Create transaction'],
    ['/join-transaction', 'Join transaction'],
    ['/join-transaction/ABCD2345', 'Join transaction'],
    ['/join-transaction/listing/listing-7', 'Buy from a listing'],
    ['/join-guest-transaction/s3cret/online', 'Claim your transaction'],
    ['/join-guest-transaction-as-seller/s3cret/f2f', 'Claim your transaction'],
    ['/profile/details', 'Personal details'],
    ['/profile/payment/bank-details', 'Bank details'],
    ['/profile/balance', 'Balance and payouts'],
    ['/profile/help/account', 'Account'],
    ['/profile/help/faq', 'Frequently asked questions'],
    ['/profile/help/contact-us', 'Contact us'],
  ])('%s renders its page', async (path, title) => {
    await expectPage(path, path, title)
  })

  it.each([
    ['/', '/transactions', 'My transactions'],
    ['/profile', '/profile/details', 'Personal details'],
    ['/profile/personal', '/profile/details', 'Personal details'],
    ['/profile/account', '/profile/help/account', 'Account'],
    ['/profile/payout', '/profile/details', 'Personal details'],
    ['/profile/payout/personal', '/profile/details', 'Personal details'],
    ['/profile/payout/payment', '/profile/details', 'Personal details'],
    ['/profile/payout/id-document', '/profile/details', 'Personal details'],
    ['/profile/payment', '/profile/details', 'Personal details'],
    ['/profile/payment/card-details', '/profile/details', 'Personal details'],
    ['/profile/id-document', '/profile/details', 'Personal details'],
    ['/profile/help', '/profile/help/account', 'Account'],
    ['/no/such/page', '/transactions', 'My transactions'],
    ['/profile/unknown', '/transactions', 'My transactions'],
  ])('%s redirects to %s', async (path, expectedPath, title) => {
    await expectPage(path, expectedPath, title)
  })

  it('keeps the query through a redirect', async () => {
    const router = await expectPage('/profile?client_id=shop', '/profile/details', 'Personal details')
    expect(router.state.location.search).toBe('?client_id=shop')
  })

  it('shows the transaction id, the join code and the listing id from the path', async () => {
    await renderApp('/transactions/tx-42')
    expect((await screen.findByTestId('transaction-id')).textContent).toBe('tx-42')
  })

  it('shows an empty state with ways to create or join on /transactions', async () => {
    await renderApp('/transactions')
    expect(await screen.findByText('You have no transactions yet')).toBeTruthy()
    const main = screen.getByRole('main')
    expect(main.querySelector('a[href="/create-transaction"]')).toBeTruthy()
    expect(main.querySelector('a[href="/join-transaction"]')).toBeTruthy()
  })

  it('starts the create screen online, at step 1', async () => {
    await renderApp('/build-transaction')
    expect((await screen.findByTestId('step-counter')).textContent).toBe('Step 1 of 3')
    expect(screen.getByTestId('mode-online').getAttribute('aria-pressed')).toBe('true')
    await userEvent.click(screen.getByTestId('mode-face'))
    expect(screen.getByTestId('mode-face').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByText('Deposit')).toBeTruthy()
  })

  it('opens the bank form with ?edit=true', async () => {
    await renderApp('/profile/payment/bank-details?edit=true', {
      api: fakeApiClient({
        ...defaultApiRoutes(),
        'GET /me/personal': { details_submitted: true, address: { country_code: 'fi' }, tos_acceptance: { unix_timestamp: 1 } },
        'GET /me/personal/payout_requirements': { status: 'not_due', requirements: { personal: [], other: [] }, details_submitted: true },
        'GET /me/debit_account': { bank_account: null, card: null },
      }),
    })
    expect(await screen.findByTestId('bank-details-form')).toBeTruthy()
    expect(screen.getByLabelText(/IBAN/)).toBeTruthy()
  })

  it('shows the e-mail and language on the account page, and the support address on contact us', async () => {
    await renderApp('/profile/help/account')
    expect((await screen.findByTestId('account-email')).textContent).toBe('anna@example.com')
    expect(screen.getByTestId('account-language').textContent).toBe('English (UK)')
    await renderApp('/profile/help/contact-us')
    expect((await screen.findByTestId('support-email')).getAttribute('href')).toBe('mailto:support@pactum.test')
  })

  it('lists real FAQ entries with the 24-hour complaint window', async () => {
    await renderApp('/profile/help/faq')
    await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(4)
    expect(screen.getAllByText(/within 24 hours/).length).toBeGreaterThan(0)
  })
})

describe('join by code', () => {
  it('reads the code whole (any case, separators left out) and continues to /join-transaction/:code', async () => {
    const { router } = await renderApp('/join-transaction')
    const input = await screen.findByTestId('join-code-input')
    // Kept as typed, so that a pasted listing code or link fits too.
    await userEvent.type(input, 'ab-cd 2345')
    expect((input as HTMLInputElement).value).toBe('ab-cd 2345')
    await userEvent.click(screen.getByTestId('join-continue'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/join-transaction/ABCD2345'))
    expect((await screen.findByTestId('join-code')).textContent).toBe('ABCD2345')
  })

  it('refuses an incomplete code with the invalid-form snackbar', async () => {
    const { router } = await renderApp('/join-transaction')
    await userEvent.type(await screen.findByTestId('join-code-input'), 'abc')
    expect(screen.getByText('5 characters to go')).toBeTruthy()
    await userEvent.click(screen.getByTestId('join-continue'))
    expect(await screen.findByText('The information you provided is invalid. Please try again.')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/join-transaction')
  })
})

describe('sign-in routes', () => {
  it('sends a visitor without a session to sign-in, remembering where they were going', async () => {
    const auth = fakeAuthService(null)
    await renderApp('/create-transaction?user=seller', { auth })
    await waitFor(() => expect(auth.signIn).toHaveBeenCalled())
    expect(auth.signIn.mock.calls[0]?.[0]).toMatchObject({ returnTo: '/create-transaction?user=seller', uiLocales: 'en-GB' })
    expect(screen.queryByRole('navigation')).toBeNull()
  })

  it('/login starts sign-in and /register starts registration, in the current language', async () => {
    const login = fakeAuthService(null)
    await renderApp('/login', { auth: login, locale: 'pl_pl' })
    await waitFor(() => expect(login.signIn).toHaveBeenCalled())
    expect(login.signIn.mock.calls[0]?.[0]).toMatchObject({ register: false, uiLocales: 'pl-PL' })

    const register = fakeAuthService(null)
    await renderApp('/register', { auth: register })
    await waitFor(() => expect(register.signIn).toHaveBeenCalled())
    expect(register.signIn.mock.calls[0]?.[0]).toMatchObject({ register: true })
  })

  it('/login with a session goes straight to my transactions', async () => {
    const auth = fakeAuthService()
    const { router } = await renderApp('/login', { auth })
    await screen.findByRole('heading', { level: 1, name: 'My transactions' })
    expect(router.state.location.pathname).toBe('/transactions')
    expect(auth.signIn).not.toHaveBeenCalled()
  })

  it('/auth/callback completes sign-in and returns to the saved page', async () => {
    const auth = fakeAuthService(null)
    auth.completeSignIn.mockResolvedValue({
      user: { accessToken: 't', expiresAt: undefined, profile: { givenName: 'Ola' } },
      returnTo: '/profile/help/faq',
    })
    const { router } = await renderApp('/auth/callback?code=abc&state=xyz', { auth })
    await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })
    expect(router.state.location.pathname).toBe('/profile/help/faq')
    expect(auth.completeSignIn.mock.calls[0]?.[0]).toMatch(/\/auth\/callback\?code=abc&state=xyz$/)
    expect(screen.getByTestId('welcome-line').textContent).toBe('Welcome, Ola!')
  })
})
