import type { AdminChargeback } from '@pactum/contracts/chargebacks'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()
const transactionId = '0190f1a2-0000-4000-8000-000000000002'

const dispute = (overrides: Partial<AdminChargeback> = {}): AdminChargeback => ({
  id: 'dp_1',
  transaction_id: transactionId,
  transaction_type: 'online',
  description: 'Vintage camera',
  currency: 'eur',
  transaction_status: 'funds_released',
  payment_intent_id: 'pi_1',
  status: 'needs_response',
  amount: 10340,
  reason: 'fraudulent',
  evidence_due_by: new Date(Date.now() + 86_400_000).toISOString(),
  frozen: false,
  opened_at: '2026-11-20T10:00:00.000Z',
  closed_at: null,
  evidence_submitted_at: null,
  fee: { amount: 1500, currency: 'eur' },
  recovered: 0,
  recoverable: 0,
  ...overrides,
})

describe('the chargebacks page', () => {
  it('lists the open chargebacks, marks evidence due soon, links to the sale', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/chargebacks': () => [dispute(), dispute({ id: 'dp_2', evidence_due_by: null, status: 'under_review' })],
    })
    await renderApp('/admin/chargebacks', { api })
    const rows = await screen.findAllByTestId('chargeback-row')
    expect(rows).toHaveLength(2)
    expect(screen.getByRole('heading', { level: 1, name: 'Chargebacks' })).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/admin/chargebacks', expect.objectContaining({ query: { state: 'open' } }))
    const [first, second] = rows as [HTMLElement, HTMLElement]
    expect(within(first).getByRole('link', { name: 'Vintage camera' }).getAttribute('href')).toBe(`/admin/transactions/${transactionId}`)
    expect(within(first).getByText('€103.40')).toBeTruthy()
    expect(within(first).getByText('fraudulent')).toBeTruthy()
    expect(within(first).getByText('Needs a response')).toBeTruthy()
    expect(within(first).getByTestId('chargeback-due-soon')).toBeTruthy()
    expect(within(first).getByText('€15.00')).toBeTruthy()
    expect(within(second).queryByTestId('chargeback-due-soon')).toBeNull()
    expect(within(second).queryByRole('button', { name: 'Send evidence' })).toBeNull()
  })

  it('says when there is none', async () => {
    const api = fakeApiClient({ ...admin, 'GET /admin/chargebacks': [] })
    await renderApp('/admin/chargebacks', { api })
    expect(await screen.findByTestId('chargebacks-empty')).toBeTruthy()
  })

  it('sends the evidence with a reason, and re-reads the list', async () => {
    let submitted = false
    const api = fakeApiClient({
      ...admin,
      'GET /admin/chargebacks': () => [submitted ? dispute({ status: 'under_review' }) : dispute()],
      'POST /admin/chargebacks/dp_1/evidence': () => {
        submitted = true
        return dispute({ status: 'under_review' })
      },
    })
    await renderApp('/admin/chargebacks', { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Send evidence' }))
    const dialog = await screen.findByTestId('chargeback-evidence-dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send evidence' }))
    expect(await within(dialog).findByText('Give the reason.')).toBeTruthy()
    await userEvent.type(within(dialog).getByTestId('chargeback-reason'), 'Tracked delivery signed by the buyer')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send evidence' }))
    await waitFor(() => expect(screen.queryByTestId('chargeback-evidence-dialog')).toBeNull())
    expect(api.request).toHaveBeenCalledWith(
      '/admin/chargebacks/dp_1/evidence',
      expect.objectContaining({ method: 'POST', body: { reason: 'Tracked delivery signed by the buyer' } }),
    )
    expect(await screen.findByText('Under review')).toBeTruthy()
  })

  it('recovers no more than is recoverable, in minor units', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/chargebacks': () => [dispute({ status: 'lost', closed_at: '2026-11-25T10:00:00.000Z', recoverable: 5000 })],
      'POST /admin/chargebacks/dp_1/recover': ({ body }: ApiRequest) => dispute({ recovered: (body as { amount: number }).amount }),
    })
    await renderApp('/admin/chargebacks', { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Recover' }))
    const dialog = await screen.findByTestId('chargeback-recover-dialog')
    const amount = within(dialog).getByTestId('chargeback-recover-amount')
    await userEvent.type(amount, '60')
    await userEvent.type(within(dialog).getByTestId('chargeback-reason'), 'Seller agreed')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recover' }))
    expect(await within(dialog).findByText('At most €50.00 can be recovered.')).toBeTruthy()
    await userEvent.clear(amount)
    await userEvent.type(amount, 'abc')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recover' }))
    expect(await within(dialog).findByText('Enter an amount.')).toBeTruthy()
    expect(api.request).not.toHaveBeenCalledWith('/admin/chargebacks/dp_1/recover', expect.anything())
    await userEvent.clear(amount)
    await userEvent.type(amount, '40.50')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recover' }))
    await waitFor(() => expect(screen.queryByTestId('chargeback-recover-dialog')).toBeNull())
    expect(api.request).toHaveBeenCalledWith(
      '/admin/chargebacks/dp_1/recover',
      expect.objectContaining({ method: 'POST', body: { reason: 'Seller agreed', amount: 4050 } }),
    )
  })

  it('says deciding is for the sandbox when the provider is real', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/chargebacks': () => [dispute()],
      'POST /admin/sandbox/disputes/dp_1/decide': () => {
        throw apiError(404, 'not_found')
      },
    })
    await renderApp('/admin/chargebacks', { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Decide (sandbox)' }))
    const dialog = await screen.findByTestId('chargeback-decide-dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decide' }))
    expect(await within(dialog).findByTestId('chargeback-decide-unavailable')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith(
      '/admin/sandbox/disputes/dp_1/decide',
      expect.objectContaining({ method: 'POST', body: { outcome: 'won' } }),
    )
  })
})
