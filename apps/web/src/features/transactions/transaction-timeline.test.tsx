import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const shipped = {
  role: 'buyer',
  buyer_id: 'user-2',
  joined: '2026-11-01T11:00:00.000Z',
  paid: '2026-11-01T12:00:00.000Z',
  tracked: '2026-11-02T09:00:00.000Z',
} as const

async function history(overrides: Parameters<typeof fakeTransaction>[0]) {
  await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ ...shipped, ...overrides }) }) })
  // The first render loads the lazy page: give it more than the default second on a busy machine.
  return within(await screen.findByTestId('transaction-timeline', {}, { timeout: 5000 })).getAllByRole('listitem')
}

describe('transaction history', () => {
  it('shows the carrier’s "in transit" step with its time while the parcel is on its way', async () => {
    const steps = await history({ status: 'tracked', in_transit: '2026-11-02T15:30:00.000Z' })
    expect(steps.map((step) => step.getAttribute('data-state'))).toEqual(['created', 'joined', 'paid', 'tracked', 'in_transit'])
    const inTransit = steps[4]
    expect(inTransit?.textContent).toContain('Parcel in transit')
    expect(inTransit?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-02T15:30:00.000Z')
  })

  it('keeps it between tracking added and delivered once the parcel has arrived', async () => {
    const steps = await history({ status: 'delivered', in_transit: '2026-11-02T09:00:00.000Z', delivered: '2026-11-03T09:00:00.000Z' })
    // Reported at the very moment tracking was added: the natural order decides.
    expect(steps.map((step) => step.getAttribute('data-state'))).toEqual([
      'created',
      'joined',
      'paid',
      'tracked',
      'in_transit',
      'delivered',
    ])
  })

  it('has no such step until the carrier reports it', async () => {
    const steps = await history({ status: 'tracked', in_transit: null })
    expect(steps.map((step) => step.getAttribute('data-state'))).toEqual(['created', 'joined', 'paid', 'tracked'])
    expect(screen.queryByText('Parcel in transit')).toBeNull()
  })

  it('names a case settled on a split as such, and a plain release as a release', async () => {
    const ended = {
      status: 'funds_released',
      delivered: '2026-11-03T09:00:00.000Z',
      complained: '2026-11-03T10:00:00.000Z',
      funds_released: '2026-11-04T10:00:00.000Z',
      complaint: { description: 'cracked' },
      amount_released: 7_000,
    } as const
    const split = await history({ ...ended, amount_refunded: 3_102 })
    expect(split.at(-1)?.textContent).toContain('Settled: part refunded to the buyer, part released to the seller')
  })

  it('keeps "released to the seller" when nothing went back', async () => {
    const steps = await history({ status: 'funds_released', funds_released: '2026-11-04T10:00:00.000Z', amount_released: 10_000 })
    expect(steps.at(-1)?.textContent).toContain('Money released to the seller')
  })
})
