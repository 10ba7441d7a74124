import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../lib/api/api-error.ts'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const preview = {
  id: 'tx-9',
  type: 'online',
  status: 'created',
  price: 5000,
  charge: 190,
  currency: 'eur',
  description: 'Vintage camera',
  payment_method: 'card',
  high_value: false,
  creator_role: 'seller',
  creator_first_name: 'Marta',
}

describe('join by code', () => {
  it('shows the new terms when the creator changed the offer after the preview', async () => {
    let previews = 0
    const api = fakeApiClient({
      'GET /transactions': () => {
        previews += 1
        return previews === 1 ? preview : { ...preview, price: 7000 }
      },
      'PUT /transactions': () => {
        throw apiError(409, 'incorrect_charge')
      },
    })
    await renderApp('/join-transaction/abcd2345', { api })
    await screen.findByTestId('join-preview')
    await userEvent.click(screen.getByRole('button', { name: 'Join as buyer' }))
    await waitFor(() => expect(previews).toBe(2))
    await waitFor(() => expect(screen.getByTestId('amount-price').textContent).toBe('€70.00'))
  })

  it('leads the person who already joined with this code to their transaction, with nothing to join', async () => {
    const api = fakeApiClient({
      'GET /transactions': { ...preview, status: 'joined', joined_by_you: true },
      'GET /transactions/tx-9': fakeTransaction({ id: 'tx-9', status: 'joined', role: 'buyer', description: 'Vintage camera' }),
    })
    const { router } = await renderApp('/join-transaction/abcd2345', { api })

    const note = await screen.findByTestId('join-already-yours')
    expect(note.textContent).toContain('You have already joined this transaction.')
    expect(screen.getByText('You joined the transaction with this code.')).toBeTruthy()
    expect(screen.queryByText('You are about to join the transaction with this code.')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Join as buyer' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Not for me' })).toBeNull()
    await userEvent.click(within(note).getByRole('link', { name: 'Open it' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx-9'))
  })

  it('previews the transaction and joins as the other role, then opens its status page', async () => {
    const api = fakeApiClient({
      'GET /transactions': preview,
      'PUT /transactions': fakeTransaction({ id: 'tx-9', status: 'joined', role: 'buyer', description: 'Vintage camera' }),
      'GET /transactions/tx-9': fakeTransaction({ id: 'tx-9', status: 'joined', role: 'buyer', description: 'Vintage camera' }),
    })
    const { router } = await renderApp('/join-transaction/abcd2345', { api })

    const card = await screen.findByTestId('join-preview')
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe('Vintage camera')
    expect(screen.getByTestId('preview-creator').textContent).toBe('Marta is selling this item.')
    expect(screen.getByTestId('amount-price').textContent).toBe('€50.00')
    expect(screen.getByTestId('amount-fee').textContent).toBe('€1.90')
    expect(screen.getByTestId('amount-total').textContent).toBe('€51.90')
    expect(api.request).toHaveBeenCalledWith('/transactions', expect.objectContaining({ query: { join_code: 'ABCD2345' } }))

    await userEvent.click(screen.getByRole('button', { name: 'Join as buyer' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx-9'))
    // The terms shown in the preview go along, so a changed offer is refused rather than joined.
    expect(api.request).toHaveBeenCalledWith('/transactions', {
      method: 'PUT',
      query: { join_code: 'ABCD2345', price: String(preview.price), charge: String(preview.charge), currency: preview.currency },
    })
    expect((await screen.findByTestId('transaction-status')).getAttribute('data-status')).toBe('joined')
  })

  it('offers to join as seller when the creator is the buyer', async () => {
    await renderApp('/join-transaction/ABCD2345', {
      api: fakeApiClient({ 'GET /transactions': { ...preview, creator_role: 'buyer' } }),
    })
    expect((await screen.findByTestId('join-submit')).textContent).toBe('Join as seller')
    expect(screen.getByTestId('preview-creator').textContent).toBe('Marta wants to buy this item.')
  })

  it('explains an unknown code in the interface language, after one look-up of either kind', async () => {
    const api = fakeApiClient({
      'GET /transactions': () => {
        throw apiError(404, 'join_code_not_found')
      },
    })
    await renderApp('/join-transaction/ABCD2345', { locale: 'pl_pl', api })
    const problem = await screen.findByTestId('join-error')
    expect(problem.textContent).toContain('Nie ma transakcji z tym kodem')
    // Nothing above it says the person is about to join (issue 33 item 6).
    expect(document.body.textContent).not.toContain('Za chwilę dołączysz do transakcji z tym kodem.')
    expect(api.request.mock.calls.map(([path]) => path).filter((path) => path.includes('transactions'))).toEqual(['/transactions'])
    // Asking again would find nothing again: another code, or back to my transactions.
    expect(within(problem).queryByTestId('error-retry')).toBeNull()
    expect(within(problem).getByRole('link', { name: 'Wpisz inny kod' }).getAttribute('href')).toBe('/join-transaction')
    expect(within(problem).getByRole('link', { name: 'Moje transakcje' }).getAttribute('href')).toBe('/transactions')
  })

  it('sends the creator who opens their own join link back to my transactions, without a retry', async () => {
    const api = fakeApiClient({
      'GET /transactions': () => {
        throw apiError(403, 'cannot_join_own_transaction')
      },
      'GET /me/transactions': [],
    })
    const { router } = await renderApp('/join-transaction/ABCD2345', { api })
    const problem = await screen.findByTestId('join-error')
    expect(problem.textContent).toContain('You created this transaction, so you cannot join it.')
    expect(within(problem).queryByRole('button', { name: 'Try again' })).toBeNull()
    await userEvent.click(within(problem).getByRole('link', { name: 'My transactions' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions'))
  })

  it('offers another try when Pactum could not be reached, and it can work', async () => {
    let attempts = 0
    const api = fakeApiClient({
      'GET /transactions': () => {
        attempts += 1
        if (attempts === 1) throw new ApiError({ status: 0, code: 'network_error', message: 'offline', requestId: 'r' })
        return preview
      },
    })
    await renderApp('/join-transaction/ABCD2345', { api })
    const problem = await screen.findByTestId('join-error')
    expect(within(problem).queryByTestId('error-to-transactions')).toBeNull()
    await userEvent.click(within(problem).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('join-preview')).toBeTruthy()
  })

  it('says a link whose code has characters outside the alphabet is not valid, and looks nothing up', async () => {
    const api = fakeApiClient({})
    await renderApp('/join-transaction/NOTACODE', { api })
    const invalid = await screen.findByTestId('join-code-invalid')
    expect(within(invalid).getByRole('heading', { level: 2 }).textContent).toBe('This code is not valid')
    expect(screen.getByTestId('join-code-invalid-characters').textContent).toBe('Not allowed in a join code: O')
    // Not the mangled NTACDE.
    expect(screen.queryByTestId('join-code')).toBeNull()
    expect(within(invalid).getByRole('link', { name: 'Enter a code' }).getAttribute('href')).toBe('/join-transaction')
    expect(within(invalid).getByRole('link', { name: 'My transactions' }).getAttribute('href')).toBe('/transactions')
    expect(api.request.mock.calls.map(([path]) => path).filter((path) => path.includes('join_code') || path === '/transactions')).toEqual(
      [],
    )
  })

  it('says so in the interface language, also for a code of the wrong length', async () => {
    const api = fakeApiClient({})
    await renderApp('/join-transaction/ABC', { locale: 'sv_se', api })
    const invalid = await screen.findByTestId('join-code-invalid')
    expect(invalid.textContent).toContain('Den här koden är inte giltig')
    expect(invalid.textContent).toContain('En anslutningskod har 8 bokstäver och siffror')
    expect(screen.queryByTestId('join-code-invalid-characters')).toBeNull()
  })

  it('reads a link’s code in any case and with a separator', async () => {
    const api = fakeApiClient({ 'GET /transactions': preview })
    await renderApp('/join-transaction/abcd-2345', { api })
    expect((await screen.findByTestId('join-code')).textContent).toBe('ABCD2345')
    await screen.findByTestId('join-preview')
    expect(api.request).toHaveBeenCalledWith('/transactions', expect.objectContaining({ query: { join_code: 'ABCD2345' } }))
  })

  it('previews a face-to-face sale by the one look-up, and joins it by its own call', async () => {
    const api = fakeApiClient({
      'GET /transactions': {
        id: 'tx-7',
        type: 'f2f',
        status: 'created',
        currency: 'eur',
        description: 'Cargo bike',
        deposit_pricing: { price: 5_000, charge: 190, charge_seller: 0 },
        payment_method: 'card',
        high_value: false,
        creator_role: 'seller',
        creator_first_name: 'Sam',
      },
      'POST /p2p/transactions_by_join_code/ABCD2345/join': { id: 'tx-7' },
    })
    const { router } = await renderApp('/join-transaction/ABCD2345', { api })
    expect((await screen.findByTestId('preview-kind')).textContent).toBe('Face to face · deposit requested')
    expect(screen.getByTestId('amount-total').textContent).toBe('€51.90')
    // Named a deposit, never "Price": a joining seller must not read it as the item's price (issue 33 item 2).
    const amounts = screen.getByTestId('amount-price').closest('dl')?.textContent ?? ''
    expect(amounts).toContain('Deposit€50.00')
    expect(amounts).toContain('Buyer pays for the deposit€51.90')
    expect(amounts).not.toContain('Price')
    await userEvent.click(screen.getByTestId('join-submit'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx-7'))
  })

  it('shows the error of a refused join', async () => {
    await renderApp('/join-transaction/ABCD2345', {
      api: fakeApiClient({
        'GET /transactions': preview,
        'PUT /transactions': () => {
          throw apiError(403, 'cannot_join_own_transaction')
        },
      }),
    })
    await userEvent.click(await screen.findByTestId('join-submit'))
    expect(await screen.findByText('Error!')).toBeTruthy()
    expect(screen.getByText(/You created this transaction, so you cannot join it/)).toBeTruthy()
  })

  it('rejects after a confirmation and returns to my transactions', async () => {
    const api = fakeApiClient({
      'GET /transactions': preview,
      'POST /transactions/tx-9/reject': fakeTransaction({ id: 'tx-9', status: 'rejected' }),
      'GET /me/transactions': [],
    })
    const { router } = await renderApp('/join-transaction/ABCD2345', { api })
    await userEvent.click(await screen.findByTestId('join-reject'))
    const dialog = await screen.findByRole('dialog', { name: 'Reject this transaction?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions'))
    expect(api.request).toHaveBeenCalledWith('/transactions/tx-9/reject', {
      method: 'POST',
      body: { join_code: 'ABCD2345' },
    })
  })

  it('opens the listing when the link carries a listing code instead of a join code', async () => {
    const listing = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'
    const { router } = await renderApp(`/join-transaction/${listing.toUpperCase()}`, { api: fakeApiClient({}) })
    await waitFor(() => expect(router.state.location.pathname).toBe(`/join-transaction/listing/${listing}`))
  })
})
