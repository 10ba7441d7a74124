import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { debitAccountBody, emptyValues, serverBankErrors, validateBankForm } from './bank-details-model.ts'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { expectSavedInPlace } from '../../test/expect-saved-in-place.ts'

function profile(country: string): PersonalProfile {
  return {
    details_submitted: true,
    business_type: 'individual',
    name: { first: 'Ada', last: 'Lovelace' },
    address: { line1: '1 Main Street', city: 'Town', postal_code: '12345', country_code: country },
    dob: { day: 10, month: 12, year: 1985 },
    tos_acceptance: { unix_timestamp: 1_790_000_000 },
  }
}

const notDue = { status: 'due', requirements: { personal: [], other: ['credit_account'] }, details_submitted: true }
const storedAccount = {
  id: 'ba_1',
  account_holder_name: 'Ada Lovelace',
  country: 'gb',
  currency: 'gbp',
  last4: '5678',
  bank_name: 'Test Bank',
  routing_number: '123456',
}

function setupApi(country: string, routes: Record<string, unknown> = {}) {
  return fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/personal': profile(country),
    'GET /me/personal/payout_requirements': notDue,
    'GET /me/debit_account': { bank_account: null, card: null },
    ...routes,
  })
}

type Api = ReturnType<typeof fakeApiClient>
const calls = (api: Api) => api.request.mock.calls.map(([path, init]) => `${init?.method ?? 'GET'} ${path}`)
const count = (api: Api, call: string) => calls(api).filter((entry) => entry === call).length
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement

afterEach(() => {
  vi.useRealTimers()
})

/** Opens the page on the GB form, types `sortCode` and an account number, and saves. */
async function saveGbAccount(api: Api, sortCode: string) {
  await renderApp('/profile/payment/bank-details', { api })
  await screen.findByTestId('bank-manual-form')
  const user = userEvent.setup()
  await user.type(input('bank-sort-code'), sortCode)
  await user.type(input('bank-account-number'), '87654321')
  await user.click(screen.getByTestId('bank-save'))
}

/** Opens the page of a US seller and starts the bank link, on fake timers that still follow the clock: the result dialogs close after 3 s. */
async function startBankLink(api: Api) {
  await renderApp('/profile/payment/bank-details', { api })
  vi.useFakeTimers({ shouldAdvanceTime: true })
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
  await user.click(await screen.findByTestId('bank-link-start'))
  return user
}

describe('bank details page', () => {
  it('shows the stored account masked, with an Edit link to ?edit=true', async () => {
    const api = setupApi('gb', { 'GET /me/debit_account': { bank_account: storedAccount, card: null } })
    await renderApp('/profile/payment/bank-details', { api })
    await screen.findByTestId('bank-details-stored')
    expect(screen.getByTestId('bank-stored-holder').textContent).toBe('Ada Lovelace')
    expect(screen.getByTestId('bank-stored-number').textContent).toBe('···· 5678')
    expect(screen.getByTestId('bank-stored-routing').textContent).toBe('123456')
    expect(screen.getByTestId('bank-stored-currency').textContent).toBe('GBP')
    expect(screen.getByTestId('bank-edit').getAttribute('href')).toBe('/profile/payment/bank-details?edit=true')
    expect(screen.queryByTestId('bank-details-form')).toBeNull()
  })

  it('opens the form over a stored account with ?edit=true, with a cancel link', async () => {
    const api = setupApi('gb', { 'GET /me/debit_account': { bank_account: storedAccount, card: null } })
    await renderApp('/profile/payment/bank-details?edit=true', { api })
    await screen.findByTestId('bank-details-form')
    expect(screen.getByLabelText(/^Sort code/)).toBe(input('bank-sort-code'))
    expect(screen.getByTestId('bank-cancel').getAttribute('href')).toBe('/profile/payment/bank-details')
  })

  it('shows a load error with retry', async () => {
    const api = setupApi('gb', {
      'GET /me/debit_account': () => {
        throw apiError(500, 'internal_error')
      },
    })
    await renderApp('/profile/payment/bank-details', { api })
    const card = await screen.findByTestId('bank-details-error', {}, { timeout: 4000 })
    expect(within(card).getByRole('button', { name: 'Try again' })).toBeTruthy()
  })

  it('SEPA: shows an IBAN field and the checksum error next to it without sending', async () => {
    const api = setupApi('fi')
    await renderApp('/profile/payment/bank-details', { api })
    await screen.findByTestId('bank-manual-form')
    expect(screen.queryByTestId('bank-link-start')).toBeNull()
    expect(input('bank-account-holder-name').value).toBe('Ada Lovelace')
    const user = userEvent.setup()
    await user.type(screen.getByLabelText(/^IBAN/), 'FI21 1234 5600 0007 86')
    await user.click(screen.getByTestId('bank-save'))
    expect(await screen.findByText('The check digits do not match: check for typing mistakes')).toBeTruthy()
    expect(input('bank-iban').getAttribute('aria-invalid')).toBe('true')
    expect(count(api, 'POST /me/debit_account')).toBe(0)
  })

  it('GB: submits the sort code and account number, then confirms it in place', async () => {
    const api = setupApi('gb', {
      'POST /me/debit_account': { bank_account: { ...storedAccount, last4: '4321' }, card: null },
    })
    await saveGbAccount(api, '12-34-56')
    await expectSavedInPlace('Your bank details have been saved.')
    const post = api.request.mock.calls.find(([path, init]) => path === '/me/debit_account' && init?.method === 'POST')
    expect(post?.[1]?.body).toEqual({ account_holder_name: 'Ada Lovelace', sort_code: '12-34-56', account_number: '87654321' })
  })

  it('maps server field errors back to the fields', async () => {
    const api = setupApi('gb', {
      'POST /me/debit_account': () => {
        throw apiError(400, 'validation_failed', 'x', { fields: [{ field: 'body.sort_code', problem: 'invalid_format', message: 'x' }] })
      },
    })
    await saveGbAccount(api, '123456')
    await waitFor(() => expect(input('bank-sort-code').getAttribute('aria-invalid')).toBe('true'))
    expect(screen.getByText('The format is not right: check for typing mistakes')).toBeTruthy()
  })

  it('US: offers the two buttons, and manual entry shows routing, account and type', async () => {
    const api = setupApi('us')
    await renderApp('/profile/payment/bank-details', { api })
    expect((await screen.findByTestId('bank-link-start')).textContent).toBe('Link your bank')
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Enter details manually' }))
    expect(screen.getByLabelText(/^Routing number/)).toBeTruthy()
    expect(screen.getByLabelText(/^Account number/)).toBeTruthy()
    expect(screen.getByLabelText(/^Account type/)).toBeTruthy()
  })

  it('US link success: calls the three endpoints in order, says so in place for 3 s, then refetches', async () => {
    const api = setupApi('us', {
      'GET /me/plaid/link_token': { link_token: 'link-tok-1', provider: 'sandbox' },
      'POST /sandbox/plaid/link/link-tok-1/complete': {
        public_token: 'public-1',
        accounts: [{ id: 'acc-1', name: 'Checking', mask: '0000', subtype: 'checking' }],
      },
      'POST /me/plaid/link_bank_details': { bank_account: { ...storedAccount, country: 'us', currency: 'usd', last4: '0000' } },
    })
    const user = await startBankLink(api)
    const dialog = await screen.findByRole('dialog', { name: 'Sandbox bank' })
    await user.click(within(dialog).getByRole('button', { name: 'Link test account' }))
    await expectSavedInPlace('Your bank account has been linked.')
    // The fake clock also moves with real time (shouldAdvanceTime): the 3 s are
    // counted from here, not from whenever the checks below are done.
    const shownAt = Date.now()

    const flow = calls(api).filter((entry) => /plaid/.test(entry))
    expect(flow).toEqual(['GET /me/plaid/link_token', 'POST /sandbox/plaid/link/link-tok-1/complete', 'POST /me/plaid/link_bank_details'])
    const complete = api.request.mock.calls.find(([path]) => path.startsWith('/sandbox/'))
    expect(complete?.[1]).toMatchObject({ method: 'POST', body: { institution: 'success' }, fromSiteRoot: true })
    const link = api.request.mock.calls.find(([path]) => path === '/me/plaid/link_bank_details')
    expect(link?.[1]?.body).toEqual({ public_token: 'public-1', account_id: 'acc-1' })

    const requirementsBefore = count(api, 'GET /me/personal/payout_requirements')
    const accountBefore = count(api, 'GET /me/debit_account')
    // Not before 3 s (checked at 2.7 s after the dialog was seen, which may be a poll after it opened)…
    await act(() => vi.advanceTimersByTimeAsync(Math.max(0, shownAt + 2700 - Date.now())))
    expect(count(api, 'GET /me/personal/payout_requirements')).toBe(requirementsBefore)
    expect(count(api, 'GET /me/debit_account')).toBe(accountBefore)
    // …and once they have passed.
    await act(() => vi.advanceTimersByTimeAsync(400))
    await waitFor(() => expect(count(api, 'GET /me/personal/payout_requirements')).toBe(requirementsBefore + 1))
    await waitFor(() => expect(count(api, 'GET /me/debit_account')).toBe(accountBefore + 1))
  })

  it('US link failure: shows the support message for 3 s', async () => {
    const api = setupApi('us', {
      'GET /me/plaid/link_token': { link_token: 'link-tok-2', provider: 'sandbox' },
      'POST /sandbox/plaid/link/link-tok-2/complete': {
        public_token: 'public-bad',
        accounts: [{ id: 'acc-9', name: 'Checking', mask: '9999', subtype: 'checking' }],
      },
      'POST /me/plaid/link_bank_details': () => {
        throw apiError(400, 'validation_failed')
      },
    })
    const user = await startBankLink(api)
    await user.click(await screen.findByTestId('sandbox-link-failure'))
    expect(await screen.findByRole('dialog', { name: 'Error!' })).toBeTruthy()
    expect(screen.getByText('Something went wrong. Please contact support at support@pactum.test.')).toBeTruthy()
    const complete = api.request.mock.calls.find(([path]) => path.startsWith('/sandbox/'))
    expect(complete?.[1]?.body).toEqual({ institution: 'failure' })
    await act(() => vi.advanceTimersByTimeAsync(3100))
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Error!' })).toBeNull())
  })

  it('US link failure: says what is known before the support message (issue 33 item 4)', async () => {
    const refused = { fields: [{ field: 'body.public_token', problem: 'institution_error', message: 'x' }] }
    const api = setupApi('us', {
      'GET /me/plaid/link_token': { link_token: 'link-tok-3', provider: 'sandbox' },
      'POST /sandbox/plaid/link/link-tok-3/complete': {
        public_token: 'public-refused',
        accounts: [{ id: 'acc-9', name: 'Checking', mask: '9999', subtype: 'checking' }],
      },
      'POST /me/plaid/link_bank_details': () => {
        throw apiError(400, 'validation_failed', 'x', refused)
      },
    })
    const user = await startBankLink(api)
    await user.click(await screen.findByTestId('sandbox-link-failure'))
    expect(await screen.findByRole('dialog', { name: 'Error!' })).toBeTruthy()
    expect(
      screen.getByText('Your bank refused the connection. Something went wrong. Please contact support at support@pactum.test.'),
    ).toBeTruthy()
  })

  it('US link that cannot start: says so before the support message', async () => {
    const api = setupApi('us', {
      'GET /me/plaid/link_token': () => {
        throw apiError(503, 'service_unavailable')
      },
    })
    await startBankLink(api)
    expect(
      await screen.findByText(
        'The bank connection could not be started. Something went wrong. Please contact support at support@pactum.test.',
      ),
    ).toBeTruthy()
  })
})

describe('bank details model', () => {
  it('validates per country with the domain rules', () => {
    expect(validateBankForm({ ...emptyValues('Ada'), iban: 'FI2112345600000785' }, 'fi')).toEqual({})
    expect(validateBankForm({ ...emptyValues(''), iban: 'FI2112345600000786' }, 'fi')).toEqual({
      account_holder_name: 'required',
      iban: 'invalid_checksum',
    })
    expect(validateBankForm({ ...emptyValues('Ada'), bank_code: 'NOPE', account_number: '1234567890' }, 'my')).toEqual({
      bank_code: 'unknown_bank',
    })
    expect(
      validateBankForm({ ...emptyValues('Ada'), transit_number: '12345', institution_number: '123', account_number: '1234567' }, 'ca'),
    ).toEqual({})
    expect(validateBankForm({ ...emptyValues('Ada'), bank_code: 'AB12', account_number: '1234' }, 'jp')).toEqual({})
  })

  it('sends only the fields of the country', () => {
    expect(debitAccountBody({ ...emptyValues(' Ada '), bsb: '123-456', account_number: '12345', iban: 'x' }, 'au')).toEqual({
      account_holder_name: 'Ada',
      bsb: '123-456',
      account_number: '12345',
    })
  })

  it('reads server field errors', () => {
    expect(
      serverBankErrors({
        fields: [{ field: 'body.iban', problem: 'invalid_checksum' }, { field: 'body.other' }, { field: 'body.bsb', problem: '??' }],
      }),
    ).toEqual({
      iban: 'invalid_checksum',
      bsb: 'server',
    })
  })
})
