import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { defaultApiRoutes, fakeApiClient, fakeF2fTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { chargeQuoteRoute } from '../../test/fake-charge-quote.ts'

const depositQuote = chargeQuoteRoute(190)

describe('create transaction (face to face)', () => {
  it('walks role and item, then the deposit with its fee, and shows the join code', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /p2p/charge': depositQuote,
      'POST /p2p/me/transactions': ({ body }: ApiRequest) =>
        fakeF2fTransaction({
          id: 'tx-5',
          description: (body as { description: string }).description,
          join_code: 'ABCD2345',
          available_actions: ['cancel_with_description'],
        }),
    })
    await renderApp('/create-transaction?model=f2f&user=seller&deposit=50&desc=Cargo%20bike', { api })
    expect((await screen.findByTestId('step-counter')).textContent).toBe('Step 1 of 3')
    expect((screen.getByTestId('role-seller') as HTMLInputElement).checked).toBe(true)
    expect((screen.getByTestId('description-input') as HTMLTextAreaElement).value).toBe('Cargo bike')
    await userEvent.click(screen.getByTestId('create-next'))

    expect(screen.getByTestId('step-counter').textContent).toBe('Step 2 of 3')
    expect((screen.getByTestId('deposit-input') as HTMLInputElement).value).toBe('50.00')
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€1.90'))
    expect(screen.getByTestId('amount-total').textContent).toBe('€51.90')
    await userEvent.click(screen.getByTestId('create-submit'))

    expect((await screen.findByTestId('created-join-code')).textContent).toBe('ABCD2345')
    const call = api.request.mock.calls.find(([path]) => path === '/p2p/me/transactions')
    expect(call?.[1]?.body).toEqual({
      role: 'seller',
      currency: 'eur',
      description: 'Cargo bike',
      deposit_price: 5_000,
      deposit_charge: 190,
      charge_calculator_version: 1,
    })
  })

  it('names each missing or wrong field, step by step', async () => {
    await renderApp('/create-transaction?model=f2f', { api: fakeApiClient({ ...defaultApiRoutes(), 'GET /p2p/charge': depositQuote }) })
    await userEvent.click(await screen.findByTestId('create-next'))
    expect(await screen.findByText('Choose whether you are the buyer or the seller.')).toBeTruthy()
    expect(screen.getByText('Describe the item.')).toBeTruthy()
    expect(screen.getByTestId('step-counter').textContent).toBe('Step 1 of 3')
    await userEvent.click(screen.getByTestId('role-buyer'))
    await userEvent.type(screen.getByTestId('description-input'), 'Lamp')
    await userEvent.click(screen.getByTestId('create-next'))
    expect(screen.getByTestId('step-counter').textContent).toBe('Step 2 of 3')
    await userEvent.type(screen.getByTestId('deposit-input'), '0.50')
    await userEvent.click(screen.getByTestId('create-submit'))
    expect(await screen.findByText('The lowest deposit is €1.00.')).toBeTruthy()
  })
})
