import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { F2fTransaction } from '@pactum/contracts/f2f-transactions'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeF2fTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

/** The page's sale: both parties in place, as every test here has them. */
function f2f(overrides: Partial<F2fTransaction> = {}): F2fTransaction {
  return fakeF2fTransaction({ id: 'tx-2', buyer_id: 'b', seller_id: 's', ...overrides })
}

const shown = () => screen.getByTestId('transaction-actions').querySelectorAll('button')

describe('face-to-face status page', () => {
  it('shows the deposit and exactly the buttons the server offers', async () => {
    const transaction = f2f({
      status: 'deposit_paid',
      deposit_paid: '2026-11-01T11:00:00.000Z',
      available_actions: ['cancel_with_description', 'accept_deposit'],
    })
    await renderApp('/transactions/tx-2', { api: fakeApiClient({ 'GET /transactions/tx-2': transaction }) })
    // The seller reads it as their step (issue 33 item 1).
    expect((await screen.findByTestId('transaction-status')).textContent).toBe('Deposit paid: accept it')
    expect(screen.getByTestId('deposit-amounts').textContent).toContain('€51.90')
    expect([...shown()].map((button) => button.getAttribute('data-testid'))).toEqual(['action-accept-deposit', 'action-cancel'])
    const history = within(screen.getByTestId('transaction-timeline')).getAllByRole('listitem')
    expect(history.map((item) => item.getAttribute('data-state'))).toEqual(['created', 'deposit_paid'])
  })

  it('sets the total with the remainder’s fee, explaining a total below deposit + 1.00', async () => {
    const transaction = f2f({ status: 'deposit_accepted', available_actions: ['cancel_with_description', 'set_price', 'skip_remainder'] })
    const api = fakeApiClient({
      'GET /transactions/tx-2': transaction,
      'GET /p2p/transactions/tx-2/charge': ({ query }: ApiRequest) => ({
        price: Number(query?.price),
        currency: 'eur',
        payment_method: 'card',
        charge: 490,
        charge_seller: 0,
        charge_calculator_version: 1,
      }),
      'POST /p2p/transactions/tx-2/set_price': f2f({ status: 'priced', pricing: { price: 20_000, charge: 490, charge_seller: 0 } }),
    })
    await renderApp('/transactions/tx-2', { api })
    await userEvent.click(await screen.findByTestId('action-set-price'))
    const dialog = await screen.findByTestId('dialog-set-price')
    await userEvent.type(within(dialog).getByTestId('set-price-total'), '50.50')
    await userEvent.click(within(dialog).getByTestId('dialog-set-price-confirm'))
    expect(await within(dialog).findByText('The total must be at least €51.00: the deposit plus the smallest remainder.')).toBeTruthy()
    await userEvent.clear(within(dialog).getByTestId('set-price-total'))
    await userEvent.type(within(dialog).getByTestId('set-price-total'), '200')
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€4.90'))
    expect(within(dialog).getByTestId('amount-price').textContent).toBe('€150.00')
    await userEvent.click(within(dialog).getByTestId('dialog-set-price-confirm'))
    expect(await screen.findByText('Success!')).toBeTruthy()
    const call = api.request.mock.calls.find(([path]) => path === '/p2p/transactions/tx-2/set_price')
    expect(call?.[1]).toMatchObject({ method: 'POST', body: { price: 20_000, charge: 490, charge_calculator_version: 1 } })
  })

  it('shows the server’s remainder_too_low on the field', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-2': f2f({ status: 'deposit_accepted', available_actions: ['set_price'] }),
      'GET /p2p/transactions/tx-2/charge': ({ query }: ApiRequest) => ({
        price: Number(query?.price),
        currency: 'eur',
        payment_method: 'card',
        charge: 43,
        charge_seller: 0,
        charge_calculator_version: 1,
      }),
      'POST /p2p/transactions/tx-2/set_price': () => {
        throw apiError(400, 'remainder_too_low')
      },
    })
    await renderApp('/transactions/tx-2', { api })
    await userEvent.click(await screen.findByTestId('action-set-price'))
    const dialog = await screen.findByTestId('dialog-set-price')
    await userEvent.type(within(dialog).getByTestId('set-price-total'), '60')
    await userEvent.click(within(dialog).getByTestId('dialog-set-price-confirm'))
    expect(await within(dialog).findByText(/The total must be at least €51\.00/)).toBeTruthy()
  })

  it('cancels as the creator with the fixed description', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-2': f2f({ status: 'created', join_code: 'ABCD2345', available_actions: ['cancel_with_description'] }),
      'POST /p2p/transactions/tx-2/cancel_with_description': f2f({
        status: 'cancelled',
        cancellation: { description: 'cancelled by creator' },
      }),
    })
    await renderApp('/transactions/tx-2', { api })
    expect((await screen.findByTestId('status-join-code-value')).textContent).toBe('ABCD2345')
    await userEvent.click(screen.getByTestId('action-cancel'))
    await userEvent.click(await screen.findByTestId('dialog-cancel-confirm'))
    expect(await screen.findByText('Success!')).toBeTruthy()
    const call = api.request.mock.calls.find(([path]) => path === '/p2p/transactions/tx-2/cancel_with_description')
    expect(call?.[1]?.body).toEqual({ description: 'cancelled by creator' })
  })

  it('tells a buyer who confirmed first that the seller’s confirmation starts the window', async () => {
    await renderApp('/transactions/tx-2', {
      api: fakeApiClient({ 'GET /transactions/tx-2': f2f({ status: 'buyer_handover_confirmed', role: 'buyer', available_actions: [] }) }),
    })
    expect((await screen.findByTestId('status-explanation')).textContent).toBe(
      'You confirmed that you have the item. Once the seller confirms the handover too, your complaint window starts.',
    )
  })

  it('shows both what went back to the buyer and what was released, when a skipped remainder was paid and sent back', async () => {
    await renderApp('/transactions/tx-2', {
      api: fakeApiClient({
        'GET /transactions/tx-2': f2f({
          status: 'funds_released',
          role: 'buyer',
          amount_refunded: 15_490,
          amount_released: 5_000,
          available_actions: [],
        }),
      }),
    })
    expect((await screen.findByTestId('settled-amount')).textContent).toBe(
      'Refunded to the buyer: €154.90 · Released to the seller: €50.00',
    )
  })
})
