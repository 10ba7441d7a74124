import type { LongHolds } from '@pactum/contracts/admin'
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApiClient } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = { ...adminRoutes(), 'GET /admin/ledger/verify': { ok: true, breaches: [] } }

const holds: LongHolds = {
  alert_days: 60,
  holds: [
    {
      transaction_id: '0190f1a2-0000-7000-8000-0000000000c1',
      type: 'online',
      status: 'complained',
      amount: 10340,
      currency: 'eur',
      held_since: '2026-09-01T10:00:00.000Z',
      days_held: 88,
      last_change_at: '2026-09-03T10:00:00.000Z',
      case: 'with_admin',
    },
    {
      transaction_id: '0190f1a2-0000-7000-8000-0000000000c2',
      type: 'f2f',
      status: 'deposit_paid',
      amount: 2590,
      currency: 'pln',
      held_since: '2026-09-20T10:00:00.000Z',
      days_held: 69,
      last_change_at: '2026-09-20T10:00:00.000Z',
      case: null,
    },
  ],
}

describe('money held a long time, on the Ledger page (issue 34)', () => {
  it('lists each sale with what is held, since when, and why, linking to it', async () => {
    await renderApp('/admin/ledger', { api: fakeApiClient({ ...admin, 'GET /admin/long_holds': holds }) })
    const rows = await screen.findAllByTestId('long-hold-row')
    const section = screen.getByTestId('long-holds')
    expect(within(section).getByRole('heading', { level: 2 }).textContent).toBe('Money held longer than 60 days')
    expect(rows.map((row) => row.dataset.id)).toEqual(holds.holds.map((hold) => hold.transaction_id))
    expect(rows[0]!.textContent).toContain('€103.40')
    expect(rows[0]!.textContent).toContain('88 days')
    expect(within(rows[0]!).getByTestId('long-hold-why').textContent).toMatch(/case waiting for an admin’s decision/)
    expect(within(rows[1]!).getByTestId('long-hold-why').textContent).not.toMatch(/case/)
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe(`/admin/transactions/${holds.holds[0]!.transaction_id}`)
  })

  it('says so when nothing has been held that long', async () => {
    await renderApp('/admin/ledger', { api: fakeApiClient({ ...admin, 'GET /admin/long_holds': { alert_days: 30, holds: [] } }) })
    expect((await screen.findByTestId('long-holds-none')).textContent).toBe('No money has been held longer than 30 days.')
  })
})
