import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Transaction } from '@pactum/contracts/transactions'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { fakeListingPreview } from '../../test/fake-listing-preview.ts'
import { renderApp } from '../../test/render-app.tsx'
import { expectTexts } from '../../test/expect-fields.ts'

const id = '3f2b8c1e-0a4d-4e6f-9b7a-2c1d0e9f8a7b'
const preview = fakeListingPreview({ id })

/** The sale tx-9 that buying from the listing made, waiting for the seller to accept it. */
const purchase = (overrides: Partial<Transaction>) => fakeTransaction({ id: 'tx-9', status: 'created', listing_id: id, ...overrides })

describe('buying from a listing', () => {
  it('shows the offer with its fee, buys at that fee, and opens the purchase waiting for the seller', async () => {
    const bought = purchase({ role: 'buyer', available_actions: ['cancel'], description: 'Vintage camera' })
    const api = fakeApiClient({
      [`GET /listings/${id}`]: preview,
      [`POST /multi_use_listings/${id}/create_transaction`]: bought,
      'GET /transactions/tx-9': bought,
    })
    const { router } = await renderApp(`/join-transaction/listing/${id}`, { api })

    await screen.findByTestId('listing-preview')
    expectTexts({
      'listing-preview-description': 'Vintage camera',
      'listing-preview-seller': 'Offered by Marta',
      'amount-price': '€50.00',
      'amount-fee': '€1.90',
      'amount-total': '€51.90',
    })

    await userEvent.click(screen.getByRole('button', { name: 'Buy' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx-9'))
    expect(api.request).toHaveBeenCalledWith(`/multi_use_listings/${id}/create_transaction`, {
      method: 'POST',
      body: { charge: 190, charge_calculator_version: 1 },
    })
    expect((await screen.findByTestId('listing-acceptance-explanation')).textContent).toMatch(
      /The seller has to accept it before you can pay/,
    )
    expect(screen.queryByTestId('action-accept-listing')).toBeNull()
  })

  it('says plainly that a closed listing cannot be bought', async () => {
    await renderApp(`/join-transaction/listing/${id}`, {
      api: fakeApiClient({
        [`GET /listings/${id}`]: { ...preview, listing_type: 'single_use', status: 'closed', available: false },
      }),
    })
    expect((await screen.findByTestId('listing-closed')).textContent).toMatch(/This listing is no longer available/)
    expect(screen.queryByRole('button', { name: 'Buy' })).toBeNull()
  })

  it('says plainly that an unknown listing does not exist, after one look-up of either type', async () => {
    const api = fakeApiClient({})
    await renderApp(`/join-transaction/listing/${id}`, { api })
    expect((await screen.findByTestId('listing-not-found')).textContent).toMatch(/There is no such listing/)
    expect(api.request.mock.calls.map(([path]) => path).filter((path) => path.includes(id))).toEqual([`/listings/${id}`])
  })

  it('tells the second buyer of a single-use listing that it is gone, and shows it so', async () => {
    let previews = 0
    const api = fakeApiClient({
      [`GET /listings/${id}`]: () => {
        previews += 1
        return previews === 1 ? { ...preview, listing_type: 'single_use' } : { ...preview, listing_type: 'single_use', available: false }
      },
      [`POST /single_use_listings/${id}/create_transaction`]: () => {
        throw apiError(409, 'listing_closed')
      },
    })
    await renderApp(`/join-transaction/listing/${id}`, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Buy' }))
    expect(await screen.findByText(/another buyer is waiting for the seller/)).toBeTruthy()
    await waitFor(() => expect(previews).toBe(2))
  })
})

describe('the seller of a purchase from a listing', () => {
  it('accepts the buyer from the status page, as the server offers it', async () => {
    const waiting = purchase({
      role: 'seller',
      buyer_id: 'user-2',
      available_actions: ['accept_listing_transaction', 'reject_listing_transaction'],
    })
    const api = fakeApiClient({
      'GET /transactions/tx-9': waiting,
      'POST /transactions/tx-9/accept_listing_transaction': fakeTransaction({
        ...waiting,
        status: 'joined',
        available_actions: ['cancel'],
      }),
    })
    await renderApp('/transactions/tx-9', { api })
    expect((await screen.findByTestId('listing-acceptance-explanation')).textContent).toMatch(
      /A buyer started this purchase from your listing/,
    )
    expect(screen.getByTestId('action-reject-listing')).toBeTruthy()
    await userEvent.click(screen.getByTestId('action-accept-listing'))
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }))
    await waitFor(() =>
      expect(api.request).toHaveBeenCalledWith(
        '/transactions/tx-9/accept_listing_transaction',
        expect.objectContaining({ method: 'POST' }),
      ),
    )
  })
})
