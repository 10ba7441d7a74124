import { waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fakeTransaction } from '../../test/fake-api-client.ts'
import { checkoutQuote, joinedAsBuyer, openCheckoutDialog } from '../../test/checkout.ts'

/** A joined sale whose creator chose `payment_method`; the buyer opens the checkout and reaches the method step. */
async function openMethodStep(paymentMethod: 'card' | 'sepa' | 'p24', supported: string[], currency = 'eur') {
  const { api, dialog } = await openCheckoutDialog({
    'GET /transactions/tx-1': joinedAsBuyer({ payment_method: paymentMethod, currency }),
    'GET /charge': checkoutQuote,
    'GET /me/supported_payment_methods': supported,
    'POST /transactions/tx-1/shipping_details': { name: 'Ola Nowak' },
    'POST /transactions/tx-1/set_payment_method': fakeTransaction({ status: 'joined', role: 'buyer', payment_method: 'card' }),
    'POST /transactions/tx-1/pay': { payment_intent_id: 'pi_1', client_secret: 'pi_1_secret', charge: 78 },
  })
  await userEvent.type(within(dialog).getByLabelText(/Full name/), 'Ola Nowak')
  await userEvent.type(within(dialog).getByLabelText(/Address line 1/), 'Długa 1')
  await userEvent.type(within(dialog).getByLabelText(/Postcode/), '00-001')
  await userEvent.type(within(dialog).getByLabelText(/Town or city/), 'Warszawa')
  await userEvent.selectOptions(within(dialog).getByLabelText(/Country/), 'pl')
  await userEvent.click(within(dialog).getByTestId('checkout-next'))
  await within(dialog).findByTestId('checkout-method-card')
  return { api, dialog }
}

describe('checkout payment methods', () => {
  it('never offers an ordinary buyer SEPA, even when the seller chose it, and switches to a card before paying', async () => {
    const { api, dialog } = await openMethodStep('sepa', ['card', 'p24'])
    expect(within(dialog).queryByTestId('checkout-method-sepa')).toBeNull()
    expect((within(dialog).getByTestId('checkout-method-card') as HTMLInputElement).checked).toBe(true)
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    await waitFor(() => expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/pay', expect.anything()))
    expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/set_payment_method', { method: 'POST', body: { payment_method: 'card' } })
  })

  it('offers only the methods that take the sale’s currency: no P24 or SEPA for a sale in pounds', async () => {
    const { dialog } = await openMethodStep('p24', ['card', 'p24', 'sepa'], 'gbp')
    expect(within(dialog).queryByTestId('checkout-method-p24')).toBeNull()
    expect(within(dialog).queryByTestId('checkout-method-sepa')).toBeNull()
    expect((within(dialog).getByTestId('checkout-method-card') as HTMLInputElement).checked).toBe(true)
  })

  it('keeps SEPA for a buyer who may use it', async () => {
    const { dialog } = await openMethodStep('sepa', ['card', 'p24', 'sepa'])
    await waitFor(() => expect((within(dialog).getByTestId('checkout-method-sepa') as HTMLInputElement).checked).toBe(true))
  })
})
