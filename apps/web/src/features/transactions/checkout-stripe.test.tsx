import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { type fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { checkoutQuote, joinedAsBuyer, openCheckoutDialog } from '../../test/checkout.ts'
import { buyerProfile } from '../../test/fake-personal-profile.ts'

/**
 * The checkout's Stripe path, with Stripe.js replaced by a stand-in that
 * behaves like it towards @stripe/react-stripe-js (the real bindings run):
 * `elements(options)` records how the form was mounted, the Payment Element
 * says `ready` when the test lets it, `confirmPayment` answers as told.
 */
const stripe = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown) => void>()
  const element = {
    mount: vi.fn(),
    destroy: vi.fn(),
    update: vi.fn(),
    on: vi.fn((event: string, handler: (event: unknown) => void) => {
      handlers.set(event, handler)
      return element
    }),
    off: vi.fn((event: string) => {
      handlers.delete(event)
      return element
    }),
  }
  const elements = { create: vi.fn(() => element), update: vi.fn(), getElement: vi.fn(() => null), fetchUpdates: vi.fn() }
  const instance = {
    elements: vi.fn(() => elements),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardPayment: vi.fn(),
    confirmPayment: vi.fn(),
    _registerWrapper: vi.fn(),
    registerAppInfo: vi.fn(),
  }
  return { instance, elements, element, handlers, loadStripe: vi.fn(async () => instance) }
})
vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }))

const address = { name: 'Ola Nowak', line1: 'Długa 1', line2: '', city: 'Warszawa', postal_code: '00-001', country_code: 'pl', state: null }

function routes(publishableKey: string, overrides: Record<string, unknown> = {}) {
  return {
    'GET /transactions/tx-1': joinedAsBuyer(),
    'GET /charge': checkoutQuote,
    'GET /me/personal': buyerProfile('pl'),
    'GET /me/last_shipping_details': { shipping_details: address },
    'GET /transactions/tx-1/stripe_publishable_key': { publishable_key: publishableKey },
    'POST /transactions/tx-1/shipping_details': address,
    'POST /transactions/tx-1/pay': { payment_intent_id: 'pi_3Q1', client_secret: 'pi_3Q1_secret_abc', charge: 78 },
    'POST /transactions/tx-1/confirm_payment': fakeTransaction({ status: 'paid', role: 'buyer', available_actions: [] }),
    ...overrides,
  }
}

async function openPayStage(publishableKey: string) {
  const { api, dialog } = await openCheckoutDialog(routes(publishableKey))
  await waitFor(() => expect((within(dialog).getByLabelText(/Address line 1/) as HTMLInputElement).value).toBe('Długa 1'))
  await userEvent.click(within(dialog).getByTestId('checkout-next'))
  await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€0.78'))
  await userEvent.click(within(dialog).getByTestId('checkout-next'))
  return { api, dialog }
}

/** Stripe's iframe has loaded: the Payment Element says so. */
async function paymentElementReady() {
  await waitFor(() => expect(stripe.handlers.has('ready')).toBe(true))
  act(() => stripe.handlers.get('ready')?.({ elementType: 'payment' }))
}

const paths = (api: ReturnType<typeof fakeApiClient>) => api.request.mock.calls.map(([path]) => path)

beforeEach(() => {
  stripe.instance.confirmPayment.mockReset()
  stripe.instance.elements.mockClear()
  stripe.handlers.clear()
})

describe('checkout with a Stripe publishable key', () => {
  it('mounts Stripe’s Payment Element with the payment’s client secret, in the buyer’s language, instead of the sandbox form', async () => {
    const { dialog } = await openPayStage('pk_test_51Habc')
    expect(await within(dialog).findByTestId('stripe-payment-form')).toBeTruthy()
    expect(within(dialog).getByTestId('payment-form-loading').textContent).toContain('Loading the payment form')
    expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_51Habc')
    await waitFor(() => expect(stripe.elements.create).toHaveBeenCalledWith('payment', expect.anything()))
    expect(stripe.instance.elements).toHaveBeenCalledWith(expect.objectContaining({ clientSecret: 'pi_3Q1_secret_abc', locale: 'en-GB' }))
    expect(stripe.element.mount).toHaveBeenCalled()
    expect(within(dialog).queryByTestId('card-number-input')).toBeNull()
    expect(within(dialog).queryByTestId('test-cards')).toBeNull()
    await paymentElementReady()
    await waitFor(() => expect(within(dialog).queryByTestId('payment-form-loading')).toBeNull())
  })

  it('confirms with stripe.confirmPayment, returning to the transaction’s page, then tells the server', async () => {
    const { api, dialog } = await openPayStage('pk_test_51Habc')
    await within(dialog).findByTestId('stripe-payment-form')
    await paymentElementReady()
    stripe.instance.confirmPayment.mockResolvedValue({ paymentIntent: { id: 'pi_3Q1', status: 'succeeded' } })
    await userEvent.click(within(dialog).getByTestId('pay-submit'))

    await waitFor(() => expect(stripe.instance.confirmPayment).toHaveBeenCalledTimes(1))
    const [options] = stripe.instance.confirmPayment.mock.calls[0] as [
      { elements: unknown; confirmParams: { return_url: string }; redirect: string },
    ]
    expect(options.elements).toBe(stripe.elements)
    expect(options.redirect).toBe('if_required')
    expect(options.confirmParams.return_url).toBe(new URL('/transactions/tx-1', window.location.origin).href)
    await waitFor(() =>
      expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/confirm_payment', {
        method: 'POST',
        body: { payment_intent_id: 'pi_3Q1' },
      }),
    )
    expect(await screen.findByText(/Your payment was successful/)).toBeTruthy()
  })

  it('shows Stripe’s decline on the form and keeps the payment open for another card', async () => {
    const { api, dialog } = await openPayStage('pk_test_51Habc')
    await within(dialog).findByTestId('stripe-payment-form')
    await paymentElementReady()
    stripe.instance.confirmPayment.mockResolvedValueOnce({
      error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
    })
    await userEvent.click(within(dialog).getByTestId('pay-submit'))
    expect((await within(dialog).findByTestId('payment-error')).textContent).toContain('Your card was declined.')
    expect(paths(api)).not.toContain('/transactions/tx-1/confirm_payment')
    expect(within(dialog).getByTestId('stripe-payment-form')).toBeTruthy()

    stripe.instance.confirmPayment.mockResolvedValueOnce({ paymentIntent: { id: 'pi_3Q1', status: 'succeeded' } })
    await userEvent.click(within(dialog).getByTestId('pay-submit'))
    await waitFor(() => expect(paths(api)).toContain('/transactions/tx-1/confirm_payment'))
    expect(paths(api).filter((path) => path === '/transactions/tx-1/pay')).toHaveLength(1)
  })

  it('says so in its own words when Stripe fails for another reason than the card', async () => {
    const { dialog } = await openPayStage('pk_live_51Habc')
    await within(dialog).findByTestId('stripe-payment-form')
    await paymentElementReady()
    stripe.instance.confirmPayment.mockResolvedValueOnce({
      error: { type: 'api_connection_error', message: 'Network error: ECONNRESET at api.stripe.com' },
    })
    await userEvent.click(within(dialog).getByTestId('pay-submit'))
    const problem = await within(dialog).findByTestId('payment-error')
    expect(problem.textContent).toContain('The payment could not be completed')
    expect(problem.textContent).not.toContain('ECONNRESET')
  })
})

describe('checkout with a Stripe key whose form cannot load', () => {
  it('says the payment form could not be loaded', async () => {
    const { dialog } = await openPayStage('pk_test_51Habc')
    await within(dialog).findByTestId('stripe-payment-form')
    await waitFor(() => expect(stripe.handlers.has('loaderror')).toBe(true))
    act(() => stripe.handlers.get('loaderror')?.({ elementType: 'payment', error: { type: 'invalid_request_error' } }))
    expect((await within(dialog).findByTestId('stripe-form-error')).textContent).toContain('The payment form could not be loaded.')
    expect(within(dialog).queryByTestId('payment-form-loading')).toBeNull()
  })
})

describe('checkout when Stripe.js cannot be reached', () => {
  it('says the payment form could not be loaded', async () => {
    stripe.loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js'))
    const { dialog } = await openPayStage('pk_test_unreachable')
    expect((await within(dialog).findByTestId('stripe-form-error')).textContent).toContain('The payment form could not be loaded.')
  })
})

describe('checkout with the sandbox key', () => {
  it('shows the sandbox card form and never loads Stripe.js', async () => {
    stripe.loadStripe.mockClear()
    const { dialog } = await openPayStage('pk_sandbox_pactum')
    expect(await within(dialog).findByTestId('card-number-input')).toBeTruthy()
    expect(within(dialog).queryByTestId('stripe-payment-form')).toBeNull()
    expect(stripe.loadStripe).not.toHaveBeenCalled()
  })
})
