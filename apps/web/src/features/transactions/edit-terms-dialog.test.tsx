import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

/** `GET /charge` as the server answers it: 5% of the price, schedule version 1. */
const quote = ({ query }: ApiRequest) => ({
  price: Number(query?.price),
  currency: query?.currency,
  payment_method: query?.payment_method,
  charge: Math.round(Number(query?.price) * 0.05),
  charge_seller: 0,
  charge_buyer_client: 0,
  charge_seller_client: 0,
  charge_calculator_version: 1,
})

const open = fakeTransaction({ status: 'created', role: 'seller', join_code: 'ABCD2345', available_actions: ['update', 'cancel'] })

function refusal(
  code: 'price_too_low' | 'validation_failed' | 'incorrect_charge' | 'already_joined',
  details: Record<string, unknown>,
  status = 400,
) {
  return new ApiError({ status, code, message: code, details, requestId: 'test' })
}

async function openEdit(routes: Record<string, unknown>) {
  const api = fakeApiClient({
    'GET /me/supported_currencies': ['eur', 'gbp', 'pln'],
    'GET /charge': quote,
    'GET /p2p/charge': quote,
    ...routes,
  })
  await renderApp('/transactions/tx-1', { api })
  // The first render loads the lazy page: give it more than the default second on a busy machine.
  await userEvent.click(await screen.findByTestId('action-update', {}, { timeout: 5000 }))
  const dialog = await screen.findByRole('dialog', { name: 'Edit the offer' })
  await waitFor(() => expect((within(dialog).getByTestId('edit-currency') as HTMLSelectElement).disabled).toBe(false))
  return { api, dialog }
}

const patches = (api: ReturnType<typeof fakeApiClient>) => api.request.mock.calls.filter(([, init]) => init?.method === 'PATCH')

// Typing into several fields takes a while on a busy machine.
describe('editing the offer before anyone joined', { timeout: 20_000 }, () => {
  it.each([
    ['the creator before anyone joined', open, true],
    [
      'the creator once someone joined',
      fakeTransaction({ status: 'joined', role: 'seller', buyer_id: 'user-2', available_actions: ['cancel'] }),
      false,
    ],
    [
      'the other party',
      fakeTransaction({ status: 'joined', role: 'buyer', buyer_id: 'user-2', available_actions: ['cancel', 'set_payment_method', 'pay'] }),
      false,
    ],
    [
      'the face-to-face creator before anyone joined',
      fakeF2fTransaction({ join_code: 'ABCD2345', available_actions: ['update', 'cancel_with_description'] }),
      true,
    ],
  ] as const)('is offered (or not) to %s', async (_, transaction, offered) => {
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': transaction }) })
    await screen.findByTestId('transaction-actions', {}, { timeout: 5000 })
    expect(screen.queryByTestId('action-update') !== null).toBe(offered)
  })

  it('offers only the user’s currencies, and saves a new price with the fee it showed', async () => {
    const updated = fakeTransaction({ ...open, description: 'Blue bicycle', price: 20_000, currency: 'gbp', charge: 1_000 })
    const { api, dialog } = await openEdit({ 'GET /transactions/tx-1': open, 'PATCH /transactions/tx-1': updated })
    const currency = within(dialog).getByTestId('edit-currency') as HTMLSelectElement
    expect([...currency.options].map((option) => option.value)).toEqual(['eur', 'gbp', 'pln'])
    expect((within(dialog).getByTestId('edit-price') as HTMLInputElement).value).toBe('12.34')

    const description = within(dialog).getByTestId('edit-description')
    await userEvent.clear(description)
    await userEvent.type(description, 'Blue bicycle')
    await userEvent.selectOptions(currency, 'gbp')
    const price = within(dialog).getByTestId('edit-price')
    await userEvent.clear(price)
    await userEvent.type(price, '200')
    // The new fee is on screen before saving.
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('£10.00'))
    expect(within(dialog).getByTestId('amount-total').textContent).toBe('£210.00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))

    expect(await screen.findByText('Success!')).toBeTruthy()
    expect(patches(api)).toEqual([
      [
        '/transactions/tx-1',
        {
          method: 'PATCH',
          body: { description: 'Blue bicycle', price: 20_000, currency: 'gbp', charge: 1_000, charge_calculator_version: 1 },
        },
      ],
    ])
    expect(
      api.request.mock.calls.some(([path, init]) => path === '/charge' && init?.query?.price === 20_000 && init.query.currency === 'gbp'),
    ).toBe(true)
    // The page shows the saved terms.
    await waitFor(() => expect(screen.getByTestId('transaction-description').textContent).toBe('Blue bicycle'))
    expect(screen.getAllByTestId('amount-total')[0]?.textContent).toBe('£210.00')
  })

  it('sends a new description alone, without a fee', async () => {
    const { api, dialog } = await openEdit({
      'GET /transactions/tx-1': open,
      'PATCH /transactions/tx-1': fakeTransaction({ ...open, description: 'Red bike' }),
    })
    const description = within(dialog).getByTestId('edit-description')
    await userEvent.clear(description)
    await userEvent.type(description, '  Red bike ')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Success!')).toBeTruthy()
    expect(patches(api)).toEqual([['/transactions/tx-1', { method: 'PATCH', body: { description: 'Red bike' } }]])
  })

  it('checks the form with the contract’s rules before sending anything', async () => {
    const { api, dialog } = await openEdit({ 'GET /transactions/tx-1': open })
    await userEvent.clear(within(dialog).getByTestId('edit-description'))
    await userEvent.clear(within(dialog).getByTestId('edit-price'))
    await userEvent.type(within(dialog).getByTestId('edit-price'), '0.50')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect(await within(dialog).findByText('Describe the item.')).toBeTruthy()
    expect(within(dialog).getByText('The lowest price is €1.00.')).toBeTruthy()
    expect(patches(api)).toEqual([])
  })

  it('shows the server’s refusal on the field it names, and keeps the dialog open', async () => {
    const { dialog } = await openEdit({
      'GET /transactions/tx-1': open,
      'PATCH /transactions/tx-1': () => {
        throw refusal('validation_failed', { field: 'body.description', fields: [{ field: 'body.description', message: 'too long' }] })
      },
    })
    const description = within(dialog).getByTestId('edit-description')
    await userEvent.type(description, ' with a bell')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    const field = description.closest('.MuiFormControl-root') as HTMLElement
    expect(await within(field).findByText('Some of the information is not valid. Check it and try again.')).toBeTruthy()
    expect(description.getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(description)
    expect(screen.getByRole('dialog', { name: 'Edit the offer' })).toBeTruthy()
  })

  it('puts a refused price under the price', async () => {
    const { dialog } = await openEdit({
      'GET /transactions/tx-1': open,
      'PATCH /transactions/tx-1': () => {
        throw refusal('price_too_low', { field: 'price', minimum: 100 })
      },
    })
    const price = within(dialog).getByTestId('edit-price')
    await userEvent.clear(price)
    await userEvent.type(price, '30')
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€1.50'))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(price.getAttribute('aria-invalid')).toBe('true'))
    const field = price.closest('.MuiFormControl-root') as HTMLElement
    expect(field.textContent).toContain('The price is too low.')
  })

  it('shows the new fee when the schedule moved under the creator, and saves with it', async () => {
    let calls = 0
    const { api, dialog } = await openEdit({
      'GET /transactions/tx-1': open,
      'PATCH /transactions/tx-1': () => {
        calls += 1
        if (calls === 1) throw refusal('incorrect_charge', { charge: 150, charge_calculator_version: 1 }, 409)
        return fakeTransaction({ ...open, price: 3_000, charge: 150 })
      },
    })
    const price = within(dialog).getByTestId('edit-price')
    await userEvent.clear(price)
    await userEvent.type(price, '30')
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€1.50'))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect((await within(dialog).findByTestId('edit-fee-changed')).textContent).toBe(
      'The fee has changed in the meantime. Check the new total and save again.',
    )
    await waitFor(() => expect((within(dialog).getByRole('button', { name: 'Save changes' }) as HTMLButtonElement).disabled).toBe(false))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Success!')).toBeTruthy()
    expect(patches(api)).toHaveLength(2)
  })

  it('edits a face-to-face deposit through its own paths and names', async () => {
    const f2f = fakeF2fTransaction({ join_code: 'ABCD2345', available_actions: ['update', 'cancel_with_description'] })
    const updated = fakeF2fTransaction({ ...f2f, deposit_pricing: { price: 8_000, charge: 400, charge_seller: 0 } })
    const { api, dialog } = await openEdit({ 'GET /transactions/tx-1': f2f, 'PATCH /p2p/transactions/tx-1': updated })
    expect(within(dialog).getByLabelText(/Deposit/)).toBe(within(dialog).getByTestId('edit-price'))
    const price = within(dialog).getByTestId('edit-price')
    await userEvent.clear(price)
    await userEvent.type(price, '80')
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€4.00'))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Success!')).toBeTruthy()
    expect(api.request.mock.calls.some(([path, init]) => path === '/p2p/charge' && init?.query?.price === 8_000)).toBe(true)
    expect(patches(api)).toEqual([
      [
        '/p2p/transactions/tx-1',
        { method: 'PATCH', body: { deposit_price: 8_000, currency: 'eur', deposit_charge: 400, charge_calculator_version: 1 } },
      ],
    ])
    await waitFor(() => expect(within(screen.getByTestId('deposit-amounts')).getByTestId('amount-price').textContent).toBe('€80.00'))
  })
})
