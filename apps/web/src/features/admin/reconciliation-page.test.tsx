import type { ReconciliationDay, ReconciliationDifference } from '@pactum/contracts/reconciliation'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'
import { yesterdayUtc } from './reconciliation-page.tsx'

const admin = adminRoutes()
const differenceId = '0190f1a2-0000-4000-8000-000000000001'

const stray: ReconciliationDifference = {
  id: differenceId,
  kind: 'missing_in_ledger',
  movement: 'transfer',
  provider_id: 'tr_stray',
  transaction_id: null,
  ledger: null,
  provider: { amount: 700, currency: 'eur' },
  status: 'open',
  reason: null,
  explained_by: null,
  explained_at: null,
  found_at: '2026-11-21T02:00:00.000Z',
}

const totals = (charged: number) => ({ currency: 'eur', charged, refunded: 0, transferred: 0, disputed: 0, paid_out: 0, fees: 0 })

const day = (differences: ReconciliationDifference[]): ReconciliationDay => ({
  date: '2026-11-20',
  reconciled: true,
  reconciled_at: '2026-11-21T02:00:00.000Z',
  provider: 'sandbox',
  totals: { ledger: [totals(10340)], provider: [totals(10340)] },
  differences,
})

describe('the reconciliation page', () => {
  it('asks for yesterday (UTC) first, and says when a day was never compared', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/reconciliation': ({ query }: ApiRequest) => ({ ...day([]), date: query?.date, reconciled: false, reconciled_at: null }),
    })
    await renderApp('/admin/reconciliation', { api })
    expect(await screen.findByTestId('reconciliation-not-run')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: 'Reconciliation' })).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/admin/reconciliation', expect.objectContaining({ query: { date: yesterdayUtc() } }))
  })

  it('opens on the day a link names (the audit log’s)', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/reconciliation': ({ query }: ApiRequest) => ({ ...day([]), date: query?.date, reconciled: false, reconciled_at: null }),
    })
    await renderApp('/admin/reconciliation?date=2026-11-20', { api })
    expect(await screen.findByTestId('reconciliation-not-run')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/admin/reconciliation', expect.objectContaining({ query: { date: '2026-11-20' } }))
    expect((screen.getByTestId('reconciliation-date') as HTMLInputElement).value).toBe('2026-11-20')
  })

  it('shows a day’s differences with both sides, and explains one with a reason', async () => {
    let explained = false
    const api = fakeApiClient({
      ...admin,
      'GET /admin/reconciliation': () =>
        day([
          explained
            ? {
                ...stray,
                status: 'explained',
                reason: 'A test transfer',
                explained_by: 'ops@example.com',
                explained_at: '2026-11-21T09:00:00Z',
              }
            : stray,
        ]),
      [`POST /admin/reconciliation/differences/${differenceId}/explain`]: ({ body }: ApiRequest) => {
        explained = true
        return { ...stray, status: 'explained', reason: (body as { reason: string }).reason }
      },
    })
    await renderApp('/admin/reconciliation', { api })
    fireEvent.change(await screen.findByTestId('reconciliation-date'), { target: { value: '2026-11-20' } })
    await userEvent.click(screen.getByRole('button', { name: 'Show' }))
    await waitFor(() =>
      expect(api.request).toHaveBeenLastCalledWith('/admin/reconciliation', expect.objectContaining({ query: { date: '2026-11-20' } })),
    )
    expect((await screen.findByTestId('reconciliation-summary')).textContent).toContain('Open differences: 1')
    const row = screen.getByTestId('reconciliation-difference')
    expect(within(row).getByText('Missing in the ledger · transfer')).toBeTruthy()
    expect(within(row).getByText('tr_stray')).toBeTruthy()
    expect(within(row).getByText('nothing')).toBeTruthy()
    expect(within(row).getByText('€7.00')).toBeTruthy()

    await userEvent.click(within(row).getByRole('button', { name: 'Explain' }))
    const dialog = await screen.findByTestId('reconciliation-explain-dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark explained' }))
    expect(await within(dialog).findByText('Give the reason.')).toBeTruthy()
    await userEvent.type(within(dialog).getByTestId('reconciliation-reason'), 'A test transfer')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark explained' }))
    await waitFor(() => expect(screen.queryByTestId('reconciliation-explain-dialog')).toBeNull())
    expect(api.request).toHaveBeenCalledWith(
      `/admin/reconciliation/differences/${differenceId}/explain`,
      expect.objectContaining({ method: 'POST', body: { reason: 'A test transfer' } }),
    )
    expect(await screen.findByText('Explained')).toBeTruthy()
    expect(screen.getByText('No open difference. Compared', { exact: false })).toBeTruthy()
  })

  it('says so when someone explained the difference first', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/reconciliation': () => day([stray]),
      [`POST /admin/reconciliation/differences/${differenceId}/explain`]: () => {
        throw apiError(409, 'difference_already_explained')
      },
    })
    await renderApp('/admin/reconciliation', { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Explain' }))
    const dialog = await screen.findByTestId('reconciliation-explain-dialog')
    await userEvent.type(within(dialog).getByTestId('reconciliation-reason'), 'Mine')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark explained' }))
    expect(await within(dialog).findByText('Someone explained this difference already; the first reason stands.')).toBeTruthy()
  })
})
