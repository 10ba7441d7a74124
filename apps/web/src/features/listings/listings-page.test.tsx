import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const lamp = {
  id: '3f2b8c1e-0a4d-4e6f-9b7a-2c1d0e9f8a7b',
  code: 'K7M2Q-9QHDX',
  listing_type: 'single_use',
  type: 'online',
  price: 12_000,
  currency: 'eur',
  description: 'A reading lamp',
  status: 'open',
  url: 'http://localhost:3000/join-transaction/listing/3f2b8c1e-0a4d-4e6f-9b7a-2c1d0e9f8a7b',
  reserved: false,
  purchases: { awaiting_acceptance: 0, in_progress: 0, completed: 0 },
}

describe('the listings page', () => {
  it('is reached from My transactions and says when there are none', async () => {
    const { router } = await renderApp('/transactions', { api: fakeApiClient({ 'GET /me/transactions': [], 'GET /me/listings': [] }) })
    await userEvent.click(await screen.findByTestId('to-listings'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/listings'))
    expect((await screen.findByTestId('listings-empty')).textContent).toMatch(/No listings yet/)
  })

  it('shows each listing with its link and code, and closes one after confirming', async () => {
    const api = fakeApiClient({
      'GET /me/listings': [lamp],
      [`POST /me/listings/${lamp.id}/close`]: { ...lamp, status: 'closed' },
    })
    await renderApp('/transactions/listings', { api })
    const card = await screen.findByTestId(`listing-${lamp.id}`)
    expect(within(card).getByTestId('listing-description').textContent).toBe('A reading lamp')
    expect((within(card).getByTestId('listing-link') as HTMLInputElement).value).toBe(
      `${window.location.origin}/join-transaction/listing/${lamp.id}`,
    )
    // The short code buyers can type, not the 36-character id (issue 33 item 9).
    expect((within(card).getByTestId('listing-code') as HTMLInputElement).value).toBe('K7M2Q-9QHDX')
    await userEvent.click(within(card).getByTestId('listing-copy-code'))
    expect(await navigator.clipboard.readText()).toBe('K7M2Q-9QHDX')
    expect(within(card).getByText('€120.00')).toBeTruthy()
    await userEvent.click(within(card).getByTestId('listing-close'))
    await userEvent.click(within(await screen.findByTestId('listing-close-dialog')).getByRole('button', { name: 'Close listing' }))
    await waitFor(() => expect(api.request).toHaveBeenCalledWith(`/me/listings/${lamp.id}/close`, { method: 'POST', body: {} }))
  })

  it('tells its seller that a purchase holds a single-use listing, and counts its purchases (issue 33 item 9)', async () => {
    const held = { ...lamp, reserved: true, purchases: { awaiting_acceptance: 1, in_progress: 2, completed: 5 } }
    await renderApp('/transactions/listings', { api: fakeApiClient({ 'GET /me/listings': [held] }) })
    const card = await screen.findByTestId(`listing-${lamp.id}`)
    expect(within(card).getByTestId('listing-status').textContent).toBe('Reserved')
    expect(within(card).getByTestId('listing-purchases').textContent).toBe(
      'Purchases: 1 waiting for your answer · 2 in progress · 5 completed',
    )
  })

  it('creates a listing through the form, refusing a price below the minimum first', async () => {
    const api = fakeApiClient({
      'GET /me/listings': [],
      'GET /me/supported_currencies': ['eur', 'sek'],
      'POST /me/listings': lamp,
    })
    await renderApp('/transactions/listings', { api })
    await screen.findByTestId('listings-empty')
    await userEvent.click(screen.getByTestId('listing-new'))
    const dialog = await screen.findByTestId('listing-form')
    await userEvent.click(within(dialog).getByTestId('listing-multi-use'))
    await userEvent.type(within(dialog).getByTestId('listing-description'), 'A reading lamp')
    await userEvent.type(within(dialog).getByTestId('listing-price'), '0.5')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create listing' }))
    expect(await within(dialog).findByText('The lowest amount is €1.00.')).toBeTruthy()
    await userEvent.clear(within(dialog).getByTestId('listing-price'))
    await userEvent.type(within(dialog).getByTestId('listing-price'), '120')
    // Another currency keeps the amount typed; the picker names each currency.
    const currency = within(dialog).getByTestId('listing-currency')
    expect(within(currency).getByRole('option', { name: 'SEK – Swedish Krona' })).toBeTruthy()
    await userEvent.selectOptions(currency, 'sek')
    expect((within(dialog).getByTestId('listing-price') as HTMLInputElement).value).toBe('120.00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create listing' }))
    await waitFor(() =>
      expect(api.request).toHaveBeenCalledWith('/me/listings', {
        method: 'POST',
        body: { listing_type: 'multi_use', type: 'online', currency: 'sek', description: 'A reading lamp', price: 12_000 },
      }),
    )
  })

  it('offers a retry when the listings cannot be loaded', async () => {
    await renderApp('/transactions/listings', {
      api: fakeApiClient({
        'GET /me/listings': () => {
          throw apiError(503, 'service_unavailable')
        },
      }),
    })
    expect(await screen.findByTestId('listings-error')).toBeTruthy()
  })
})
