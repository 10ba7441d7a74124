import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const seller = { first_name: 'Sam', last_name: 'Seller', email: 'sam@example.com' }
const buyer = { first_name: 'Bea', last_name: 'Buyer', email: 'bea@example.com' }

async function counterparty(routes: Record<string, unknown>) {
  const api = fakeApiClient(routes)
  await renderApp('/transactions/tx-1', { api })
  // The first render loads the lazy page: give it more than the default second on a busy machine.
  return { api, card: await screen.findByTestId('counterparty', {}, { timeout: 5000 }) }
}

describe('the other party on the status page', () => {
  it('shows the buyer the seller’s name and e-mail', async () => {
    const { card } = await counterparty({
      'GET /transactions/tx-1': fakeTransaction({ status: 'joined', role: 'buyer', buyer_id: 'user-2', seller_id: 'user-1' }),
      'GET /transactions/tx-1/seller_details': seller,
    })
    expect(card.getAttribute('data-party')).toBe('seller')
    expect(within(card).getByRole('heading').textContent).toBe('Seller')
    expect((await within(card).findByTestId('counterparty-name')).textContent).toBe('Sam Seller')
    expect(within(card).getByRole('link', { name: 'sam@example.com' }).getAttribute('href')).toBe('mailto:sam@example.com')
  })

  it('shows the seller the buyer’s details, through the face-to-face path for a face-to-face sale', async () => {
    const { card, api } = await counterparty({
      'GET /transactions/tx-1': fakeF2fTransaction({ status: 'joined', role: 'seller', buyer_id: 'user-2' }),
      'GET /p2p/transactions/tx-1/buyer_details': buyer,
    })
    expect(within(card).getByRole('heading').textContent).toBe('Buyer')
    expect((await within(card).findByTestId('counterparty-name')).textContent).toBe('Bea Buyer')
    expect(api.request.mock.calls.map(([path]) => path)).toContain('/p2p/transactions/tx-1/buyer_details')
  })

  it('says nobody has joined yet, without asking the server, while the other party is open', async () => {
    const { card, api } = await counterparty({
      'GET /transactions/tx-1': fakeTransaction({
        status: 'created',
        role: 'seller',
        buyer_id: null,
        join_code: 'ABCD2345',
        available_actions: ['update', 'cancel'],
      }),
    })
    expect(within(card).getByTestId('counterparty-placeholder').textContent).toBe('No buyer has joined yet.')
    expect(api.request.mock.calls.some(([path]) => String(path).endsWith('_details'))).toBe(false)
  })

  it('keeps the placeholder when the server has no details yet (nulls)', async () => {
    const { card } = await counterparty({
      'GET /transactions/tx-1': fakeTransaction({ status: 'joined', role: 'buyer', buyer_id: 'user-2', seller_id: 'user-1' }),
      'GET /transactions/tx-1/seller_details': { first_name: null, last_name: null, email: null },
    })
    expect((await within(card).findByTestId('counterparty-placeholder')).textContent).toBe('No seller has joined yet.')
  })

  it('shows the e-mail alone for someone who gave no name', async () => {
    const { card } = await counterparty({
      'GET /transactions/tx-1': fakeTransaction({ status: 'joined', role: 'buyer', buyer_id: 'user-2', seller_id: 'user-1' }),
      'GET /transactions/tx-1/seller_details': { first_name: null, last_name: null, email: 'anon@example.com' },
    })
    expect((await within(card).findByTestId('counterparty-email')).textContent).toBe('anon@example.com')
    expect(within(card).queryByTestId('counterparty-name')).toBeNull()
  })
})
