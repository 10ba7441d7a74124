import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { fakeCase } from '../../test/fake-case.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()
const id = '019a0000-0000-7000-8000-00000000ca5e'

const escalated = fakeCase({
  transaction_id: id,
  state: 'escalated',
  escalated_at: '2026-11-26T10:00:00.000Z',
  offers: [
    {
      id: '0190a1b2-0000-7000-8000-000000000001',
      by: 'seller',
      refund_to_buyer: 2_000,
      release_to_seller: 8_000,
      note: '',
      made_at: '2026-11-24T10:00:00.000Z',
      outcome: 'declined',
      answered_at: '2026-11-24T11:00:00.000Z',
    },
  ],
})

const detail: AdminTransactionDetail = {
  transaction: fakeTransaction({ id, status: 'complained', price: 10_000, charge: 340, role: null, complaint: { description: 'x' } }),
  case: escalated,
  buyer_email: 'buyer@example.com',
  seller_email: 'seller@example.com',
  fraud_warning: null,
  available_steps: ['decide', 'release_to_seller', 'refund_buyer'],
  events: [],
  ledger_entries: [],
  provider_events: [],
  notifications: [],
}

describe('the admins’ cases', () => {
  it('lists the cases waiting for a decision, oldest first, each opening its transaction', async () => {
    const api = fakeApiClient({ ...admin, 'GET /admin/cases': [escalated] })
    await renderApp('/admin/cases', { api })
    const row = await screen.findByTestId('admin-case-row')
    expect(row.textContent).toContain('Damaged')
    expect(row.textContent).toContain('The frame arrived cracked')
    expect(row.textContent).toContain('€100.00')
    expect(within(row).getByRole('link').getAttribute('href')).toBe(`/admin/transactions/${id}`)
  })

  it('says so when no case waits', async () => {
    await renderApp('/admin/cases', { api: fakeApiClient({ ...admin, 'GET /admin/cases': [] }) })
    expect(await screen.findByText('No case is waiting for a decision.')).toBeTruthy()
  })

  it('decides a split with a reason, showing the seller’s part and the offers made', async () => {
    const calls: ApiRequest[] = []
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail,
      [`POST /admin/transactions/${id}/decide`]: (request: ApiRequest) => {
        calls.push(request)
        return fakeTransaction({ id, status: 'funds_released' })
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    expect((await screen.findByTestId('admin-case')).textContent).toContain('The seller: €20.00 back to the buyer, €80.00 to the seller')
    await userEvent.click(screen.getByTestId('admin-decide'))
    const dialog = await screen.findByTestId('admin-decide-dialog')
    await userEvent.type(within(dialog).getByTestId('admin-decide-refund'), '50')
    expect(within(dialog).getByTestId('admin-decide-release').textContent).toBe('To the seller: €50.00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decide' }))
    expect(await within(dialog).findByText('Give a reason')).toBeTruthy()
    expect(calls).toHaveLength(0)
    await userEvent.type(within(dialog).getByTestId('admin-decide-reason'), 'Both photos show a crack')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decide' }))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toMatchObject({
      body: { reason: 'Both photos show a crack', refund_to_buyer: 5_000, release_to_seller: 5_000 },
      headers: { 'Idempotency-Key': expect.any(String) },
    })
  })
})
