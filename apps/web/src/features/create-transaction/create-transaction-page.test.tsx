import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, defaultApiRoutes, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

function quoteRoute(fee: () => number) {
  return ({ query }: ApiRequest) => {
    if (query?.payment_method === 'sepa') throw apiError(400, 'invalid_payment_method')
    return {
      price: Number(query?.price),
      currency: query?.currency,
      payment_method: query?.payment_method,
      charge: fee(),
      charge_seller: 0,
      charge_calculator_version: fee(),
    }
  }
}

describe('create transaction (online)', () => {
  it('walks the three steps from a link, shows the fee, re-quotes after incorrect_charge and shows the join code', async () => {
    let fee = 78
    let creates = 0
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /charge': quoteRoute(() => fee),
      'POST /me/transactions': ({ body }: ApiRequest) => {
        creates += 1
        if (creates === 1) {
          fee = 90 // the schedule changed on the server
          throw apiError(409, 'incorrect_charge')
        }
        return fakeTransaction({ ...(body as object), join_code: 'ABCD2345', status: 'created' })
      },
    })
    await renderApp('/create-transaction?user=SELLER&model=online&cur=EUR&price=12.34&desc=Red%20Bike', { api })

    expect((await screen.findByTestId('step-counter')).textContent).toBe('Step 1 of 3')
    expect((screen.getByTestId('role-seller') as HTMLInputElement).checked).toBe(true)
    expect(screen.queryByTestId('prefill-invalid')).toBeNull()
    await userEvent.click(screen.getByTestId('create-next'))

    expect(screen.getByTestId('step-counter').textContent).toBe('Step 2 of 3')
    expect((screen.getByTestId('description-input') as HTMLTextAreaElement).value).toBe('Red Bike')
    expect((screen.getByTestId('price-input') as HTMLInputElement).value).toBe('12.34')
    expect((await screen.findByTestId('fee-preview')).textContent).toBe('Buyer protection fee: €0.78')
    await userEvent.click(screen.getByTestId('create-next'))

    expect(screen.getByTestId('step-counter').textContent).toBe('Step 3 of 3')
    expect(screen.getByTestId('amount-price').textContent).toBe('€12.34')
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€0.78'))
    expect(screen.getByTestId('amount-total').textContent).toBe('€13.12')

    await userEvent.click(screen.getByTestId('create-submit'))
    expect(await screen.findByTestId('fee-changed')).toBeTruthy()
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€0.90'))
    expect(screen.getByTestId('amount-total').textContent).toBe('€13.24')

    await userEvent.click(screen.getByTestId('create-submit'))
    expect((await screen.findByTestId('created-join-code')).textContent).toBe('ABCD2345')
    expect((screen.getByTestId('join-link') as HTMLInputElement).value).toMatch(/\/join-transaction\/ABCD2345$/)
    expect(screen.getByTestId('go-to-status').getAttribute('href')).toBe('/transactions/tx-1')

    const creates409 = api.request.mock.calls.filter(([path]) => path === '/me/transactions')
    expect(creates409).toHaveLength(2)
    expect(creates409[0]?.[1]?.body).toEqual({
      role: 'seller',
      price: 1234,
      currency: 'eur',
      description: 'Red Bike',
      payment_method: 'card',
      charge: 78,
      charge_calculator_version: 78,
    })
    expect(creates409[1]?.[1]?.body).toMatchObject({ charge: 90, charge_calculator_version: 90 })
  })

  it('tells the person which link parameters were ignored', async () => {
    await renderApp('/build-transaction?user=admin&cur=xyz&price=abc&desc=Lamp', {
      api: fakeApiClient({ 'GET /me/supported_currencies': ['eur', 'pln'] }),
    })
    const alert = await screen.findByTestId('prefill-invalid')
    expect(alert.textContent).toContain('role, currency and price')
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByTestId('prefill-invalid')).toBeNull()
  })

  it('refuses to continue without a role, and checks the price', async () => {
    await renderApp('/create-transaction', { api: fakeApiClient({ 'GET /charge': quoteRoute(() => 40) }) })
    await userEvent.click(await screen.findByTestId('create-next'))
    expect(screen.getByText('Choose whether you are the buyer or the seller.')).toBeTruthy()
    await userEvent.click(screen.getByTestId('role-buyer'))
    await userEvent.click(screen.getByTestId('create-next'))
    await userEvent.type(screen.getByTestId('description-input'), 'Lamp')
    await userEvent.type(screen.getByTestId('price-input'), '12.345')
    await userEvent.click(screen.getByTestId('create-next'))
    expect(screen.getByText('Use at most 2 decimal places.')).toBeTruthy()
    await userEvent.clear(screen.getByTestId('price-input'))
    await userEvent.type(screen.getByTestId('price-input'), '0.50')
    await userEvent.click(screen.getByTestId('create-next'))
    expect(screen.getByText('The lowest price is €1.00.')).toBeTruthy()
    expect(screen.getByTestId('step-counter').textContent).toBe('Step 2 of 3')
  })

  it('reads a Polish price with a decimal comma and the złoty after the amount', async () => {
    await renderApp('/create-transaction?user=buyer&cur=pln', {
      locale: 'pl_pl',
      api: fakeApiClient({ 'GET /charge': quoteRoute(() => 170) }),
    })
    await userEvent.click(await screen.findByTestId('create-next'))
    const price = screen.getByTestId('price-input')
    expect(price.parentElement?.textContent).toContain('zł')
    await userEvent.type(screen.getByTestId('description-input'), 'Rower')
    await userEvent.type(price, '1234,5')
    await userEvent.click(screen.getByTestId('create-next'))
    expect(screen.getByTestId('step-counter').textContent).toBe('Krok 3 z 3')
    expect(screen.getByTestId('amount-price').textContent).toBe('1234,50\u00a0zł')
  })
})

describe('create transaction: payment methods', () => {
  const quotes = () => ({ ...defaultApiRoutes(), 'GET /charge': quoteRoute(() => 78) })

  async function reachDetails(api: ReturnType<typeof fakeApiClient>) {
    await renderApp('/create-transaction?user=seller&cur=eur&price=12.34&desc=Lamp', { api })
    await userEvent.click(await screen.findByTestId('create-next'))
    await waitFor(() => expect(api.request).toHaveBeenCalledWith('/me/supported_payment_methods', expect.anything()))
  }

  it('offers only the methods the server says this user may use', async () => {
    const api = fakeApiClient({ ...quotes(), 'GET /me/supported_payment_methods': ['card', 'p24'] })
    await reachDetails(api)
    expect(screen.getByTestId('method-card')).toBeTruthy()
    expect(screen.getByTestId('method-p24')).toBeTruthy()
    expect(screen.queryByTestId('method-sepa')).toBeNull()
    // The offer no longer depends on probing the public fee quote with SEPA.
    expect(api.request.mock.calls.some(([, init]) => init?.query?.payment_method === 'sepa')).toBe(false)
  })

  it('offers only the methods that take the currency: P24 in złoty, neither P24 nor SEPA in pounds', async () => {
    const api = fakeApiClient({ ...quotes(), 'GET /me/supported_payment_methods': ['card', 'p24', 'sepa'] })
    await renderApp('/create-transaction?user=seller&cur=pln&price=12.34&desc=Lamp', { api })
    await userEvent.click(await screen.findByTestId('create-next'))
    await waitFor(() => expect(screen.getByTestId('method-p24')).toBeTruthy())
    expect(screen.queryByTestId('method-sepa')).toBeNull()
    cleanup()

    await renderApp('/create-transaction?user=seller&cur=gbp&price=12.34&desc=Lamp', { api })
    await userEvent.click(await screen.findByTestId('create-next'))
    await waitFor(() => expect(screen.getByTestId('method-card')).toBeTruthy())
    expect(screen.queryByTestId('method-p24')).toBeNull()
    expect(screen.queryByTestId('method-sepa')).toBeNull()
    // Never asked for a fee the server would refuse as an unsupported combination.
    expect(api.request.mock.calls.some(([, init]) => init?.query?.currency === 'gbp' && init.query.payment_method !== 'card')).toBe(false)
  })

  it('offers SEPA to a user the server allows it', async () => {
    const api = fakeApiClient({ ...quotes(), 'GET /me/supported_payment_methods': ['card', 'p24', 'sepa'] })
    await reachDetails(api)
    expect(await screen.findByTestId('method-sepa')).toBeTruthy()
  })
})
