import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const open = {
  status: 'needs_response',
  amount: 10_340,
  reason: 'fraudulent',
  evidence_due_by: '2026-12-20T10:00:00.000Z',
  frozen: true,
} as const

describe('a card dispute on the status page (decision 109)', () => {
  it('tells the seller the sale is paused, with the amount and when Pactum answers the bank', async () => {
    await renderApp('/transactions/tx-1', {
      api: fakeApiClient({
        'GET /transactions/tx-1': fakeTransaction({
          status: 'paid',
          role: 'seller',
          chargeback: open,
          tracking_deadline: '2026-12-10T10:00:00.000Z',
        }),
      }),
    })
    const notice = await screen.findByTestId('chargeback-notice')
    expect(notice.textContent).toContain('Card dispute: €103.40, the sale is paused')
    expect(notice.textContent).toContain('nothing is released and no deadline runs')
    expect(screen.getByTestId('chargeback-due').textContent).toContain('Pactum answers the bank by')
    // No countdown runs while the sale is paused.
    expect(screen.queryByTestId('tracking-deadline')).toBeNull()
  })

  it('tells the buyer what the bank did once it decided, without the deadline', async () => {
    const lost = fakeTransaction({ status: 'payment_refunded', role: 'buyer', chargeback: { ...open, status: 'lost', frozen: false } })
    const view = await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': lost }) })
    const notice = await screen.findByTestId('chargeback-notice')
    expect(notice.textContent).toContain('The card dispute was decided for the buyer')
    expect(notice.textContent).toContain('Your bank returned the disputed amount to your card')
    expect(screen.queryByTestId('chargeback-due')).toBeNull()
    view.unmount()
    const won = fakeF2fTransaction({ status: 'deposit_paid', role: 'seller', chargeback: { ...open, status: 'won', frozen: false } })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': won }) })
    expect((await screen.findByTestId('chargeback-notice')).textContent).toContain('The bank returned the money')
  })

  it('shows nothing without a dispute', async () => {
    await renderApp('/transactions/tx-1', {
      api: fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ status: 'paid', role: 'buyer' }) }),
    })
    await screen.findByTestId('transaction-status')
    expect(screen.queryByTestId('chargeback-notice')).toBeNull()
  })
})
