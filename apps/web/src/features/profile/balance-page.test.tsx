import type { Balance, Payout } from '@pactum/contracts/payouts'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiError, defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { payoutPollMs } from './balance-api.ts'

function payout(overrides: Partial<Payout> = {}): Payout {
  return {
    id: 'po_1',
    amount: 10_000,
    currency: 'eur',
    status: 'paid',
    created: '2026-11-02T10:00:00.000Z',
    arrival_date: '2026-11-04T10:00:00.000Z',
    bank_account_last4: '4242',
    failure_message: null,
    failure_code: null,
    next_step: null,
    ...overrides,
  }
}

const emptyBalance: Balance = { available: [], pending: [] }

function setupApi(routes: Record<string, unknown> = {}) {
  return fakeApiClient({
    ...defaultApiRoutes(),
    'GET /app_api/balance': emptyBalance,
    'GET /app_api/payouts': [],
    ...routes,
  })
}

type Api = ReturnType<typeof fakeApiClient>
const count = (api: Api, path: string) => api.request.mock.calls.filter(([called]) => called === path).length

afterEach(() => {
  vi.useRealTimers()
})

describe('balance and payouts page', () => {
  it('shows the available and pending balance per currency, with the currency decimals', async () => {
    const api = setupApi({
      'GET /app_api/balance': {
        available: [
          { amount: 123_456, currency: 'eur' },
          { amount: 5000, currency: 'jpy' },
        ],
        pending: [{ amount: 250, currency: 'eur' }],
      },
    })
    await renderApp('/profile/balance', { api })
    expect(await screen.findByRole('heading', { level: 1, name: 'Balance and payouts' })).toBeTruthy()
    await screen.findByTestId('balance-card')
    expect(screen.getByTestId('balance-available-eur').textContent).toBe('€1,234.56')
    expect(screen.getByTestId('balance-available-jpy').textContent).toBe('JP¥5,000')
    expect(screen.getByTestId('balance-pending-eur').textContent).toBe('€2.50')
    expect(screen.getByTestId('balance-pending-jpy').textContent).toBe('JP¥0')
    expect(screen.getByText('Money released to you lands here and is paid out to your bank account automatically.')).toBeTruthy()
    // Both live under /app_api at the site root, not under the API base.
    expect(api.request).toHaveBeenCalledWith('/app_api/balance', expect.objectContaining({ fromSiteRoot: true }))
    expect(api.request).toHaveBeenCalledWith('/app_api/payouts', expect.objectContaining({ fromSiteRoot: true }))
  })

  it('shows a negative balance as such, and says it will be taken from the next payouts', async () => {
    const api = setupApi({
      'GET /app_api/balance': {
        available: [
          { amount: -2_550, currency: 'eur' },
          { amount: 1_000, currency: 'gbp' },
        ],
        pending: [],
      },
    })
    await renderApp('/profile/balance', { api })
    await screen.findByTestId('balance-card')
    expect(screen.getByTestId('balance-available-eur').textContent).toBe('-€25.50')
    expect(screen.getByTestId('balance-negative-eur').textContent).toBe(
      'Your balance is €25.50 below zero: a refund or a dispute came after the money had been paid out to you. This amount will be taken from your next payouts.',
    )
    expect(screen.queryByTestId('balance-negative-gbp')).toBeNull()
  })

  it('lists payouts with their translated status, dates, bank account and why one failed', async () => {
    const api = setupApi({
      'GET /app_api/payouts': [
        payout({ id: 'po_3', status: 'in_transit', amount: 2500, arrival_date: '2026-11-09T10:00:00.000Z' }),
        payout({ id: 'po_2', status: 'failed', arrival_date: null, failure_message: 'The bank account is closed.' }),
        payout({ id: 'po_1', status: 'paid', currency: 'gbp', amount: 9999 }),
      ],
    })
    await renderApp('/profile/balance', { api })
    const table = await screen.findByRole('table', { name: 'Payouts' })
    const rows = within(table).getAllByTestId('payout-row')
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['po_3', 'po_2', 'po_1'])

    const [inTransit, failed, paid] = rows as [HTMLElement, HTMLElement, HTMLElement]
    expect(within(inTransit).getByTestId('payout-status').textContent).toBe('On its way')
    expect(within(inTransit).getByTestId('payout-amount').textContent).toBe('€25.00')
    expect(within(inTransit).getByText('Expected 9 Nov 2026')).toBeTruthy()
    expect(within(failed).getByTestId('payout-status').textContent).toBe('Failed')
    expect(within(failed).getByTestId('payout-failure').textContent).toBe('The bank account is closed.')
    expect(within(paid).getByTestId('payout-status').textContent).toBe('Paid')
    expect(within(paid).getByTestId('payout-amount').textContent).toBe('£99.99')
    expect(within(paid).getByText('Arrived 4 Nov 2026')).toBeTruthy()
    expect(within(paid).getByText('2 Nov 2026')).toBeTruthy()
    expect(within(paid).getByText('Account ending in 4242')).toBeTruthy()
    expect(within(paid).queryByTestId('payout-failure')).toBeNull()
  })

  it('tells the seller why a payout failed and to update the bank account, then that the next payout takes it', async () => {
    const failed = payout({
      id: 'po_2',
      status: 'failed',
      failure_code: 'no_account',
      failure_message: 'The bank account details on file are probably incorrect.',
      next_step: 'update_bank_account',
    })
    const api = setupApi({ 'GET /app_api/payouts': [failed] })
    await renderApp('/profile/balance', { api })
    const row = await screen.findByTestId('payout-row')
    expect(within(row).getByTestId('payout-failure').textContent).toBe('The bank found no account with these details.')
    expect(within(row).getByTestId('payout-next-step').textContent).toContain(
      'Payouts are paused until you update your bank account; then it is paid out again.',
    )
    const link = within(row).getByRole('link', { name: 'Update your bank account' })
    expect(link.getAttribute('href')).toBe('/profile/payment/bank-details')
    // The page's own words replace the provider's English message.
    expect(within(row).queryByText('The bank account details on file are probably incorrect.')).toBeNull()
  })

  it('says the amount goes out again once the bank account was replaced, and nothing for a failure made good', async () => {
    const api = setupApi({
      'GET /app_api/payouts': [
        payout({
          id: 'po_3',
          status: 'failed',
          failure_code: 'could_not_process',
          failure_message: 'The bank could not process it.',
          next_step: 'waiting_for_next_payout',
        }),
        payout({ id: 'po_2', status: 'failed', failure_code: 'account_closed', failure_message: 'Closed.', next_step: null }),
      ],
    })
    await renderApp('/profile/balance', { api })
    const [waiting, madeGood] = (await screen.findAllByTestId('payout-row')) as [HTMLElement, HTMLElement]
    expect(within(waiting).getByTestId('payout-failure').textContent).toBe('The bank could not process it.')
    expect(within(waiting).getByTestId('payout-next-step').textContent).toBe(
      'You updated your bank account: this amount is paid out again with the next payout.',
    )
    expect(within(waiting).queryByRole('link')).toBeNull()
    expect(within(madeGood).getByTestId('payout-failure').textContent).toBe('The bank account has been closed.')
    expect(within(madeGood).queryByTestId('payout-next-step')).toBeNull()
  })

  it('says so when there is no balance and no payout yet', async () => {
    await renderApp('/profile/balance', { api: setupApi() })
    expect((await screen.findByTestId('balance-empty')).textContent).toContain('Your balance is empty')
    expect(screen.getByTestId('payouts-empty').textContent).toBe(
      'No payouts yet. When money is paid out to your bank account, it is listed here.',
    )
    expect(screen.queryByRole('table')).toBeNull()
  })

  it('shows a progress message while loading', async () => {
    const api = setupApi({ 'GET /app_api/balance': () => new Promise(() => undefined) })
    await renderApp('/profile/balance', { api })
    const card = await screen.findByTestId('balance-loading')
    expect(within(card).getByRole('status').textContent).toBe('Loading your balance…')
  })

  it('shows a load error with retry, and reads again on retry', async () => {
    let failing = true
    const api = setupApi({
      'GET /app_api/payouts': () => {
        if (failing) throw apiError(500, 'internal_error')
        return [payout()]
      },
    })
    await renderApp('/profile/balance', { api })
    const card = await screen.findByTestId('balance-error', {}, { timeout: 4000 })
    expect(within(card).getByText('Your balance and payouts could not be loaded.')).toBeTruthy()
    failing = false
    await userEvent.click(within(card).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('payout-row')).toBeTruthy()
  })

  it('reads the balance and payouts again every 5 s while a payout is on its way, until it is paid', async () => {
    let status: Payout['status'] = 'in_transit'
    const api = setupApi({
      'GET /app_api/payouts': () => [payout({ status })],
      'GET /app_api/balance': () => ({ available: [], pending: status === 'paid' ? [] : [{ amount: 10_000, currency: 'eur' }] }),
    })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await renderApp('/profile/balance', { api })
    expect((await screen.findByTestId('payout-status')).textContent).toBe('On its way')
    const before = { balance: count(api, '/app_api/balance'), payouts: count(api, '/app_api/payouts') }

    status = 'paid'
    await act(() => vi.advanceTimersByTimeAsync(payoutPollMs + 100))
    await waitFor(() => expect(screen.getByTestId('payout-status').textContent).toBe('Paid'))
    expect(count(api, '/app_api/payouts')).toBe(before.payouts + 1)
    await waitFor(() => expect(count(api, '/app_api/balance')).toBeGreaterThan(before.balance))
    await waitFor(() => expect(screen.getByTestId('balance-empty')).toBeTruthy())

    // Nothing is moving any more: no further reads.
    const settled = count(api, '/app_api/payouts')
    await act(() => vi.advanceTimersByTimeAsync(payoutPollMs * 2))
    expect(count(api, '/app_api/payouts')).toBe(settled)
  })

  it('has its own tab in the profile sections', async () => {
    await renderApp('/profile/balance', { api: setupApi() })
    const nav = await screen.findByRole('navigation', { name: 'Profile sections' })
    const tab = within(nav).getByRole('link', { name: 'Balance and payouts' })
    expect(tab.getAttribute('href')).toBe('/profile/balance')
    expect(tab.getAttribute('aria-current')).toBe('page')
  })
})
