import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()
const id = '019a0000-0000-7000-8000-00000000cb01'

function detail(overrides: Partial<AdminTransactionDetail> = {}): AdminTransactionDetail {
  return {
    transaction: fakeTransaction({ id, status: 'paid', price: 10_000, charge: 340, currency: 'eur', role: null }),
    case: null,
    buyer_email: 'buyer@example.com',
    seller_email: 'seller@example.com',
    fraud_warning: null,
    available_steps: ['release_to_seller', 'refund_buyer'],
    events: [],
    ledger_entries: [
      {
        id: 'e-1',
        kind: 'hold',
        part: 'payment',
        reason: 'payment succeeded',
        created_at: '2026-11-01T10:00:00Z',
        postings: [
          { account: 'buyer_funding', amount: -10_340, currency: 'eur' },
          { account: `escrow:${id}`, amount: 10_340, currency: 'eur' },
        ],
      },
    ],
    provider_events: [],
    notifications: [],
    ...overrides,
  }
}

const frozenDispute = {
  status: 'needs_response' as const,
  amount: 10_340,
  reason: 'fraudulent',
  evidence_due_by: '2026-12-20T10:00:00.000Z',
  frozen: true,
}

describe('the admin transaction page with a card dispute or a fraud warning', () => {
  it('shows the dispute with its status, amount, reason and deadline, links to the Chargebacks tab, and offers no step while frozen', async () => {
    const transaction = fakeTransaction({ id, status: 'paid', currency: 'eur', role: null, chargeback: frozenDispute })
    const api = fakeApiClient({ ...admin, [`GET /admin/transactions/${id}`]: detail({ transaction, available_steps: [] }) })
    await renderApp(`/admin/transactions/${id}`, { api })
    const fact = await screen.findByTestId('admin-chargeback')
    expect(fact.textContent).toContain('Needs a response: €103.40, network reason “fraudulent”')
    expect(fact.textContent).toContain('Money frozen')
    expect(fact.textContent).toContain('evidence due by')
    expect(within(fact).getByRole('link', { name: 'Chargebacks' }).getAttribute('href')).toBe('/admin/chargebacks')
    // The sale is frozen: the engine refuses a release or a refund, and the server offers none.
    expect(screen.queryByTestId('admin-actions')).toBeNull()
    // A sale already disputed gets no second dispute from the sandbox panel.
    expect(screen.queryByTestId('admin-sandbox-dispute')).toBeNull()
  })

  it('clears an open fraud warning only with a reason, says the parties are not told, and offers the release again', async () => {
    const calls: ApiRequest[] = []
    const warning = { id: 'issfr_1', fraud_type: 'made_with_stolen_card', received_at: '2026-11-01T11:00:00Z', cleared_at: null }
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: () =>
        calls.length > 0
          ? detail({ fraud_warning: { ...warning, cleared_at: '2026-11-02T09:00:00Z' } })
          : detail({ fraud_warning: warning, available_steps: ['refund_buyer', 'clear_fraud_warning'] }),
      [`POST /admin/transactions/${id}/clear_fraud_warning`]: (request: ApiRequest) => {
        calls.push(request)
        return fakeTransaction({ id, status: 'paid' })
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    const fact = await screen.findByTestId('admin-fraud-warning')
    expect(fact.textContent).toMatch(/^made_with_stolen_card, received .*2026.*\. Nothing is released until an admin clears it\.$/)
    // The warning refuses whatever would pay the seller: the server offers only the refund beside clearing it.
    expect(screen.queryByTestId('admin-release-seller')).toBeNull()
    expect(screen.getByTestId('admin-release-buyer')).toBeTruthy()
    await userEvent.click(screen.getByTestId('admin-clear-fraud-warning'))
    const dialog = await screen.findByTestId('admin-action-dialog')
    expect(within(dialog).getByTestId('admin-action-summary').textContent).toContain('no longer hold back the €103.40 in escrow')
    expect(dialog.textContent).toContain('The parties are not told')
    await userEvent.click(within(dialog).getByTestId('admin-action-dialog-confirm'))
    expect(await within(dialog).findByText('Give a reason')).toBeTruthy()
    expect(calls).toHaveLength(0)

    await userEvent.type(within(dialog).getByTestId('admin-action-reason'), 'Buyer confirmed the payment by phone')
    await userEvent.click(within(dialog).getByTestId('admin-action-dialog-confirm'))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toMatchObject({ method: 'POST', body: { reason: 'Buyer confirmed the payment by phone' } })
    await waitFor(() => expect(screen.queryByTestId('admin-action-dialog')).toBeNull())
    await waitFor(() => expect(screen.getByTestId('admin-fraud-warning').textContent).toContain('cleared'))
    expect(screen.queryByTestId('admin-clear-fraud-warning')).toBeNull()
    expect(screen.getByTestId('admin-release-seller')).toBeTruthy()
  })

  it('opens a sandbox dispute on the payment, refusing more than was paid', async () => {
    const calls: ApiRequest[] = []
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail(),
      'POST /admin/sandbox/disputes': (request: ApiRequest) => {
        calls.push(request)
        return { id: 'dp_1', status: 'needs_response', amount: 5_000, currency: 'eur' }
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('admin-sandbox-dispute-open'))
    const dialog = await screen.findByTestId('admin-sandbox-dispute-dialog')
    // An online sale has one payment: nothing to choose.
    expect(within(dialog).queryByTestId('admin-sandbox-dispute-payment')).toBeNull()
    const amount = within(dialog).getByTestId('admin-sandbox-dispute-amount')
    await userEvent.type(amount, '200')
    await userEvent.click(within(dialog).getByTestId('admin-sandbox-dispute-dialog-confirm'))
    expect(await within(dialog).findByText('At most the whole payment, €103.40.')).toBeTruthy()
    expect(calls).toHaveLength(0)

    await userEvent.clear(amount)
    await userEvent.type(amount, '50')
    await userEvent.click(within(dialog).getByTestId('admin-sandbox-dispute-dialog-confirm'))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]?.body).toEqual({ transaction_id: id, payment: 'payment', reason: 'fraudulent', amount: 5_000 })
    await waitFor(() => expect(screen.queryByTestId('admin-sandbox-dispute-dialog')).toBeNull())
  })

  it('says a real payment provider opens no dispute from here', async () => {
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail(),
      'POST /admin/sandbox/disputes': () => {
        throw apiError(404, 'not_found')
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('admin-sandbox-dispute-open'))
    const dialog = await screen.findByTestId('admin-sandbox-dispute-dialog')
    await userEvent.click(within(dialog).getByTestId('admin-sandbox-dispute-dialog-confirm'))
    expect((await within(dialog).findByTestId('admin-sandbox-dispute-unavailable')).textContent).toContain(
      'not available with a real payment provider',
    )
    expect(api.request).toHaveBeenCalledWith(
      '/admin/sandbox/disputes',
      expect.objectContaining({ body: expect.not.objectContaining({ amount: expect.anything() }) }),
    )
  })

  it('offers no sandbox dispute before anything was paid', async () => {
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail({ transaction: fakeTransaction({ id, status: 'joined', role: null }), ledger_entries: [] }),
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await screen.findByTestId('admin-history')
    expect(screen.queryByTestId('admin-sandbox-dispute')).toBeNull()
  })
})
