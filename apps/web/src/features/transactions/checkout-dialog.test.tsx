import { waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError } from '../../test/fake-api-client.ts'
import { checkoutQuote, joinedAsBuyer, openCheckoutDialog } from '../../test/checkout.ts'
import { buyerProfile } from '../../test/fake-personal-profile.ts'

const quote = (request: ApiRequest) => {
  if (request.query?.payment_method === 'sepa') throw new Error('not offered')
  return checkoutQuote(request)
}

const profile = buyerProfile('pl')
const lastAddress = {
  name: 'Ola Nowak',
  line1: 'Długa 1',
  line2: 'm. 4',
  city: 'Warszawa',
  postal_code: '00-001',
  country_code: 'pl',
  state: null,
}

function checkoutRoutes(overrides: Record<string, unknown> = {}) {
  return {
    'GET /transactions/tx-1': joinedAsBuyer(),
    'GET /charge': quote,
    'GET /me/personal': profile,
    'GET /me/last_shipping_details': { shipping_details: lastAddress },
    'GET /transactions/tx-1/stripe_publishable_key': { publishable_key: 'pk_sandbox_pactum' },
    'POST /transactions/tx-1/shipping_details': lastAddress,
    'POST /transactions/tx-1/pay': { payment_intent_id: 'pi_1', client_secret: 'pi_1_secret', charge: 78 },
    ...overrides,
  }
}

const valueOf = (dialog: HTMLElement, label: RegExp) => (within(dialog).getByLabelText(label) as HTMLInputElement | HTMLSelectElement).value

describe('checkout prefill', () => {
  it('offers the address the buyer gave last, which they can send as it is', async () => {
    const { api, dialog } = await openCheckoutDialog(checkoutRoutes())
    await waitFor(() => expect(valueOf(dialog, /Address line 1/)).toBe('Długa 1'))
    expect(valueOf(dialog, /Full name/)).toBe('Ola Nowak')
    expect(valueOf(dialog, /Address line 2/)).toBe('m. 4')
    expect(valueOf(dialog, /Postcode/)).toBe('00-001')
    expect(valueOf(dialog, /Town or city/)).toBe('Warszawa')
    expect(valueOf(dialog, /Country/)).toBe('pl')
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    await within(dialog).findByTestId('checkout-method-card')
    expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/shipping_details', {
      method: 'POST',
      body: { name: 'Ola Nowak', line1: 'Długa 1', line2: 'm. 4', city: 'Warszawa', postal_code: '00-001', country_code: 'pl' },
    })
  })

  it('offers the profile’s name and country before the first checkout, and keeps what the buyer already typed', async () => {
    let answerLast: (value: unknown) => void = () => {}
    let country = 'pl'
    const { dialog, queryClient } = await openCheckoutDialog(
      checkoutRoutes({
        'GET /me/last_shipping_details': () => new Promise((resolve) => (answerLast = resolve)),
        'GET /me/personal': () => buyerProfile(country),
      }),
    )
    const name = within(dialog).getByLabelText(/Full name/)
    await userEvent.type(name, 'Jan Kowalski')
    answerLast({ shipping_details: null })
    await waitFor(() => expect(valueOf(dialog, /Country/)).toBe('pl'))
    expect(valueOf(dialog, /Full name/)).toBe('Jan Kowalski')
    expect(valueOf(dialog, /Address line 1/)).toBe('')
    expect(valueOf(dialog, /Town or city/)).toBe('')

    // A field the buyer empties stays empty, even when the profile is read again meanwhile.
    await userEvent.selectOptions(within(dialog).getByLabelText(/Country/), '')
    country = 'de'
    await queryClient.refetchQueries({ queryKey: ['me', 'personal'] })
    await waitFor(() => expect(queryClient.getQueryData<typeof profile>(['me', 'personal'])?.address?.country_code).toBe('de'))
    expect(valueOf(dialog, /Country/)).toBe('')
  })

  it('leaves the form empty when neither answer comes', async () => {
    const { dialog } = await openCheckoutDialog(
      checkoutRoutes({
        'GET /me/personal': () => {
          throw apiError(409, 'active_country_not_set')
        },
        'GET /me/last_shipping_details': () => {
          throw apiError(500, 'internal_error')
        },
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(valueOf(dialog, /Full name/)).toBe('')
    expect(valueOf(dialog, /Country/)).toBe('')
  })
})

describe('checkout payment form', () => {
  async function toPayStage(dialog: HTMLElement) {
    await waitFor(() => expect(valueOf(dialog, /Address line 1/)).toBe('Długa 1'))
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€0.78'))
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
  }

  it('takes the user’s publishable key when the transaction’s cannot be had, and shows the sandbox form for it', async () => {
    const { api, dialog } = await openCheckoutDialog(
      checkoutRoutes({
        'GET /transactions/tx-1/stripe_publishable_key': () => {
          throw apiError(503, 'service_unavailable')
        },
        'GET /me/personal/stripe_publishable_key': { publishable_key: 'pk_sandbox_pactum' },
      }),
    )
    await toPayStage(dialog)
    expect(await within(dialog).findByTestId('card-number-input')).toBeTruthy()
    expect(within(dialog).getByTestId('test-cards').textContent).toContain('4242 4242 4242 4242')
    expect(api.request.mock.calls.map(([path]) => path)).toContain('/me/personal/stripe_publishable_key')
  })

  it('shows no payment form, and cannot pay, while no key can be had; a retry that gets one shows it', async () => {
    let keyAnswers = 0
    const { dialog } = await openCheckoutDialog(
      checkoutRoutes({
        'GET /transactions/tx-1/stripe_publishable_key': () => {
          keyAnswers += 1
          if (keyAnswers === 1) throw apiError(503, 'service_unavailable')
          return { publishable_key: 'pk_sandbox_pactum' }
        },
        'GET /me/personal/stripe_publishable_key': () => {
          throw apiError(503, 'service_unavailable')
        },
      }),
    )
    await toPayStage(dialog)
    const problem = await within(dialog).findByTestId('payment-form-error')
    expect(problem.textContent).toContain('The payment form could not be loaded.')
    expect(within(dialog).queryByTestId('card-number-input')).toBeNull()
    expect((within(dialog).getByTestId('pay-submit') as HTMLButtonElement).disabled).toBe(true)

    await userEvent.click(within(problem).getByRole('button', { name: 'Try again' }))
    expect(await within(dialog).findByTestId('card-number-input')).toBeTruthy()
    expect((within(dialog).getByTestId('pay-submit') as HTMLButtonElement).disabled).toBe(false)
  })
})

describe('checkout checks', () => {
  it('names each missing or wrong field, clears a message once the field is right, and sends nothing before', async () => {
    const user = userEvent.setup()
    const { api, dialog } = await openCheckoutDialog(
      checkoutRoutes({
        'GET /me/last_shipping_details': { shipping_details: null },
        'GET /me/personal': { ...profile, name: null, address: null },
      }),
    )
    await user.click(within(dialog).getByTestId('checkout-next'))
    expect(await within(dialog).findAllByText('This field is required.')).toHaveLength(5)
    await user.type(within(dialog).getByLabelText(/Full name/), 'Ola Nowak')
    await waitFor(() => expect(within(dialog).getAllByText('This field is required.')).toHaveLength(4))
    await user.type(within(dialog).getByLabelText(/Address line 1/), 'Długa 1')
    await user.type(within(dialog).getByLabelText(/Postcode/), '00#001')
    await user.type(within(dialog).getByLabelText(/Town or city/), 'Warszawa')
    await user.selectOptions(within(dialog).getByLabelText(/Country/), 'pl')
    await user.click(within(dialog).getByTestId('checkout-next'))
    expect(await within(dialog).findByText('Check this entry.')).toBeTruthy()
    expect(api.request.mock.calls.map(([path]) => path)).not.toContain('/transactions/tx-1/shipping_details')

    await user.clear(within(dialog).getByLabelText(/Postcode/))
    await user.type(within(dialog).getByLabelText(/Postcode/), '00-001')
    await user.click(within(dialog).getByTestId('checkout-next'))
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€0.78'))
    await user.click(within(dialog).getByTestId('checkout-next'))
    await user.type(await within(dialog).findByTestId('card-number-input'), '4242')
    await user.click(within(dialog).getByTestId('pay-submit'))
    expect(await within(dialog).findByText('Enter the full card number.')).toBeTruthy()
    expect(api.request.mock.calls.map(([path]) => path)).not.toContain('/transactions/tx-1/confirm_payment')
  })
})
