import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { PlaidLinkOptionsWithLinkToken } from 'react-plaid-link'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { expectSavedInPlace } from '../../test/expect-saved-in-place.ts'

/** react-plaid-link replaced: the test plays Plaid Link through the options the page gave it. */
const plaid = vi.hoisted(() => ({
  options: [] as PlaidLinkOptionsWithLinkToken[],
  open: vi.fn(),
  ready: true,
  error: null as ErrorEvent | null,
}))
vi.mock('react-plaid-link', () => ({
  usePlaidLink: (options: PlaidLinkOptionsWithLinkToken) => {
    plaid.options.push(options)
    return { open: plaid.open, exit: vi.fn(), ready: plaid.ready, error: plaid.error, submit: vi.fn() }
  },
}))

const usProfile: PersonalProfile = {
  details_submitted: true,
  business_type: 'individual',
  name: { first: 'Ada', last: 'Lovelace' },
  address: { line1: '1 Main Street', city: 'Town', state: 'NY', postal_code: '12345', country_code: 'us' },
  dob: { day: 10, month: 12, year: 1985 },
  tos_acceptance: { unix_timestamp: 1_790_000_000 },
}
const linkedAccount = {
  id: 'ba_9',
  account_holder_name: 'Ada Lovelace',
  country: 'us',
  currency: 'usd',
  last4: '0000',
  bank_name: 'First Platypus Bank',
  account_type: 'checking',
}

function setupApi(routes: Record<string, unknown> = {}) {
  return fakeApiClient({
    ...defaultApiRoutes(),
    'GET /me/personal': usProfile,
    'GET /me/personal/payout_requirements': {
      status: 'due',
      requirements: { personal: [], other: ['credit_account'] },
      details_submitted: true,
    },
    'GET /me/debit_account': { bank_account: null, card: null },
    'GET /me/plaid/link_token': { link_token: 'link-sandbox-plaid-1', provider: 'plaid' },
    'POST /me/plaid/link_bank_details': { bank_account: linkedAccount },
    ...routes,
  })
}

const latestOptions = () => {
  const options = plaid.options.at(-1)
  if (!options) throw new Error('Plaid Link was never set up')
  return options
}
const paths = (api: ReturnType<typeof fakeApiClient>) => api.request.mock.calls.map(([path]) => path)

async function startLink(api: ReturnType<typeof fakeApiClient>) {
  await renderApp('/profile/payment/bank-details', { api })
  await userEvent.click(await screen.findByTestId('bank-link-start'))
  await waitFor(() => expect(plaid.open).toHaveBeenCalled())
}

beforeEach(() => {
  plaid.options.length = 0
  plaid.open.mockReset()
  plaid.ready = true
  plaid.error = null
})

describe('the US bank step when the server’s bank link is Plaid', () => {
  it('opens Plaid Link with the server’s link token, not the sandbox’s screen', async () => {
    const api = setupApi()
    await startLink(api)
    expect(latestOptions().token).toBe('link-sandbox-plaid-1')
    expect(screen.queryByTestId('sandbox-link-dialog')).toBeNull()
    expect(paths(api).some((path) => path.startsWith('/sandbox/'))).toBe(false)
  })

  it('posts the public token and the chosen account when Link succeeds, and says the bank is linked', async () => {
    const api = setupApi()
    await startLink(api)
    act(() =>
      latestOptions().onSuccess('public-sandbox-abc', {
        institution: { name: 'First Platypus Bank', institution_id: 'ins_109508' },
        accounts: [
          {
            id: 'acc-checking',
            name: 'Plaid Checking',
            mask: '0000',
            type: 'depository',
            subtype: 'checking',
            verification_status: null,
            class_type: null,
          },
        ],
        link_session_id: 'session-1',
      }),
    )
    await expectSavedInPlace('Your bank account has been linked.')
    const posted = api.request.mock.calls.find(([path]) => path === '/me/plaid/link_bank_details')
    expect(posted?.[1]).toEqual({ method: 'POST', body: { public_token: 'public-sandbox-abc', account_id: 'acc-checking' } })
  })

  it('does nothing more when the seller closes Link, and lets them start again', async () => {
    const api = setupApi()
    await startLink(api)
    act(() =>
      latestOptions().onExit?.(null, {
        institution: null,
        status: 'choose_institution',
        link_session_id: 'session-2',
        request_id: 'req-2',
      }),
    )
    await waitFor(() => expect((screen.getByTestId('bank-link-start') as HTMLButtonElement).disabled).toBe(false))
    expect(paths(api)).not.toContain('/me/plaid/link_bank_details')
    expect(screen.queryByRole('dialog', { name: 'Error!' })).toBeNull()
  })

  it('shows the support message when Link ends with the bank’s error', async () => {
    const api = setupApi()
    await startLink(api)
    act(() =>
      latestOptions().onExit?.(
        {
          error_type: 'ITEM_ERROR',
          error_code: 'INVALID_CREDENTIALS',
          error_message: 'the provided credentials were not correct',
          display_message: null,
        },
        { institution: null, status: 'requires_credentials', link_session_id: 'session-3', request_id: 'req-3' },
      ),
    )
    expect(await screen.findByRole('dialog', { name: 'Error!' })).toBeTruthy()
    expect(paths(api)).not.toContain('/me/plaid/link_bank_details')
  })

  it('shows the support message when Plaid’s script cannot load', async () => {
    plaid.ready = false
    plaid.error = new ErrorEvent('error')
    const api = setupApi()
    await renderApp('/profile/payment/bank-details', { api })
    await userEvent.click(await screen.findByTestId('bank-link-start'))
    expect(await screen.findByRole('dialog', { name: 'Error!' })).toBeTruthy()
    expect(plaid.open).not.toHaveBeenCalled()
  })
})
