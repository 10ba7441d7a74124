import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

describe('what the seller receives (issue 33 item 3)', () => {
  it('tells the seller of an online sale the payout, their fee taken off, and tells the buyer nothing of it', async () => {
    const sale = { status: 'paid', price: 10_000, charge: 340, charge_seller: 200 } as const
    const view = await renderApp('/transactions/tx-1', {
      api: fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ ...sale, role: 'seller' }) }),
    })
    expect((await screen.findByTestId('seller-receives')).textContent).toBe(
      'You receive €98.00 once the money is released, your fee taken off.',
    )
    view.unmount()
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ ...sale, role: 'buyer' }) }) })
    await screen.findByTestId('transaction-status')
    expect(screen.queryByTestId('seller-receives')).toBeNull()
  })

  it('face to face: the deposit until the price is set, then the whole price less both fees', async () => {
    const deposit = { price: 5_000, charge: 190, charge_seller: 100 }
    const view = await renderApp('/transactions/tx-1', {
      api: fakeApiClient({
        'GET /transactions/tx-1': fakeF2fTransaction({ role: 'seller', status: 'deposit_paid', deposit_pricing: deposit }),
      }),
    })
    expect((await screen.findByTestId('seller-receives')).textContent).toContain('You receive €49.00 for the deposit')
    view.unmount()
    const priced = fakeF2fTransaction({
      role: 'seller',
      status: 'priced',
      deposit_pricing: deposit,
      pricing: { price: 20_000, charge: 490, charge_seller: 300 },
    })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': priced }) })
    expect((await screen.findByTestId('seller-receives')).textContent).toBe(
      'You receive €196.00 once the money is released, your fee taken off.',
    )
  })
})
