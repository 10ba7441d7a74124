import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ApiRequest } from '../lib/api/api-client.ts'
import type { Transaction } from '@pactum/contracts/transactions'
import { fakeApiClient, fakeTransaction } from './fake-api-client.ts'
import { renderApp } from './render-app.tsx'

/** GET /transactions/tx-1 for a buyer who has joined and has yet to pay. */
export function joinedAsBuyer(overrides: Partial<Transaction> = {}): Transaction {
  return fakeTransaction({ status: 'joined', role: 'buyer', available_actions: ['cancel', 'set_payment_method', 'pay'], ...overrides })
}

/** A GET /charge route: €12.34 with a €0.78 charge, in whichever payment method was asked. */
export function checkoutQuote({ query }: ApiRequest) {
  return {
    price: 1234,
    currency: 'eur',
    payment_method: query?.payment_method,
    charge: 78,
    charge_seller: 0,
    charge_calculator_version: 1,
  }
}

/** Renders the buyer's sale tx-1 on `routes` and opens its checkout. */
export async function openCheckoutDialog(routes: Record<string, unknown>) {
  const api = fakeApiClient(routes)
  const { queryClient } = await renderApp('/transactions/tx-1', { api })
  await userEvent.click(await screen.findByTestId('action-pay'))
  const dialog = await screen.findByRole('dialog', { name: /Pay for the item/ })
  return { api, dialog, queryClient }
}
