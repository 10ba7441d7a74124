import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeTransactionSummary } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { listQuery } from './transactions-api.ts'

const page = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) =>
    fakeTransactionSummary({ id: `tx-${from + index}`, description: `Item ${from + index}`, status: 'paid', role: 'buyer' }),
  )

describe('list query', () => {
  it('asks for 50 summaries at a time with keyset pagination, the filter and the search', () => {
    expect(listQuery('all', '  ')).toEqual({ limit: 50, after_id: undefined, filter: undefined, search: undefined, view: 'summary' })
    expect(listQuery('inputRequired', ' bike ', 'tx-50')).toEqual({
      limit: 50,
      after_id: 'tx-50',
      filter: 'inputRequired',
      search: 'bike',
      view: 'summary',
    })
  })
})

describe('my transactions', () => {
  it('lists transactions with their status, price and role, and loads more after the last id', async () => {
    const api = fakeApiClient({
      'GET /me/transactions': ({ query }: ApiRequest) => (query?.after_id ? page(51, 3) : page(1, 50)),
    })
    await renderApp('/transactions', { api })
    const rows = await screen.findAllByTestId('transaction-row')
    expect(rows).toHaveLength(50)
    expect(rows[0]?.getAttribute('href')).toBe('/transactions/tx-1')
    expect(rows[0]?.textContent).toContain('Item 1')
    expect(rows[0]?.textContent).toContain('Buyer · 1 Nov 2026')
    expect(rows[0]?.textContent).toContain('€12.34')
    expect(screen.getAllByTestId('transaction-status')[0]?.textContent).toBe('Paid, waiting for shipping')

    await userEvent.click(screen.getByTestId('load-more'))
    await waitFor(() => expect(screen.getAllByTestId('transaction-row')).toHaveLength(53))
    expect(api.request).toHaveBeenLastCalledWith(
      '/me/transactions',
      expect.objectContaining({ query: { limit: 50, after_id: 'tx-50', filter: undefined, search: undefined, view: 'summary' } }),
    )
    expect(screen.queryByTestId('load-more')).toBeNull()
  })

  it('shows a face-to-face row as one, with the amount the server names for it', async () => {
    const row = fakeTransactionSummary({
      id: 'f2f-1',
      type: 'f2f',
      status: 'deposit_paid',
      role: 'seller',
      description: 'Sofa',
      amount: 25_000,
    })
    await renderApp('/transactions', { api: fakeApiClient({ 'GET /me/transactions': [row] }) })
    const [shown] = await screen.findAllByTestId('transaction-row')
    expect(shown?.textContent).toContain('Seller · face to face · 1 Nov 2026')
    expect(shown?.textContent).toContain('€250.00')
    expect(screen.getByTestId('transaction-status').getAttribute('data-status')).toBe('deposit_paid')
  })

  it('names the other party from the reader’s side, and no one before they joined', async () => {
    const rows = [
      fakeTransactionSummary({ id: 'tx-1', role: 'seller', status: 'joined', counterparty_name: 'Bea K.' }),
      fakeTransactionSummary({ id: 'tx-2', role: 'buyer', status: 'paid', counterparty_name: 'Sam S.' }),
      fakeTransactionSummary({ id: 'tx-3', role: 'seller', status: 'created', counterparty_name: null }),
    ]
    await renderApp('/transactions', { api: fakeApiClient({ 'GET /me/transactions': rows }) })
    await screen.findAllByTestId('transaction-row')
    expect(screen.getAllByTestId('transaction-row-counterparty').map((name) => name.textContent)).toEqual([
      'You sell to Bea K.',
      'You buy from Sam S.',
    ])
  })

  it('filters and searches on the server', async () => {
    const api = fakeApiClient({ 'GET /me/transactions': page(1, 2) })
    await renderApp('/transactions', { api })
    await screen.findAllByTestId('transaction-row')

    await userEvent.click(screen.getByTestId('filter-inputRequired'))
    expect(screen.getByTestId('filter-inputRequired').getAttribute('aria-pressed')).toBe('true')
    await waitFor(() =>
      expect(api.request).toHaveBeenLastCalledWith(
        '/me/transactions',
        expect.objectContaining({ query: expect.objectContaining({ filter: 'inputRequired' }) }),
      ),
    )

    await userEvent.type(screen.getByTestId('transactions-search'), 'ABCD')
    await waitFor(() =>
      expect(api.request).toHaveBeenLastCalledWith(
        '/me/transactions',
        expect.objectContaining({ query: expect.objectContaining({ filter: 'inputRequired', search: 'ABCD' }) }),
      ),
    )
    // Debounced: one request for the whole word, not one per letter.
    const searches = api.request.mock.calls.filter(([, init]) => init?.query?.search !== undefined)
    expect(searches).toHaveLength(1)
  })

  it('says when nothing matches a filter, and shows the empty state when there is nothing at all', async () => {
    const api = fakeApiClient({
      'GET /me/transactions': ({ query }: ApiRequest) => (query?.filter ? [] : page(1, 1)),
    })
    await renderApp('/transactions', { api })
    await screen.findAllByTestId('transaction-row')
    await userEvent.click(screen.getByTestId('filter-cancelled'))
    expect(await screen.findByTestId('transactions-no-match')).toBeTruthy()
  })

  it('offers a retry when the list cannot be loaded', async () => {
    let calls = 0
    const api = fakeApiClient({
      'GET /me/transactions': () => {
        calls += 1
        if (calls === 1) throw apiError(0 as number, 'internal_error')
        return page(1, 1)
      },
    })
    await renderApp('/transactions', { api })
    expect((await screen.findByTestId('transactions-error')).textContent).toContain('Something went wrong on our side')
    await userEvent.click(await screen.findByTestId('transactions-retry'))
    expect(await screen.findByTestId('transaction-row')).toBeTruthy()
  })
})
