import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import type { Transaction } from '@pactum/contracts/transactions'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const allActions = [
  'action-pay',
  'action-track',
  'action-confirm-delivery',
  'action-complain',
  'action-submit-order-issue',
  'action-end-complaint-period',
  'action-accept-complaint',
  'action-update',
  'action-cancel',
]

function shownActions() {
  return allActions.filter((id) => screen.queryByTestId(id) !== null)
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString()

const quote = ({ query }: ApiRequest) => {
  if (query?.payment_method === 'sepa') throw new Error('not offered')
  return { price: 1234, currency: 'eur', payment_method: query?.payment_method, charge: 78, charge_seller: 0, charge_calculator_version: 1 }
}

afterEach(() => vi.unstubAllGlobals())

/** The checkout's first step: a Polish shipping address. */
async function fillShippingAddress(dialog: HTMLElement) {
  await userEvent.type(within(dialog).getByLabelText(/Full name/), 'Ola Nowak')
  await userEvent.type(within(dialog).getByLabelText(/Address line 1/), 'Długa 1')
  await userEvent.type(within(dialog).getByLabelText(/Postcode/), '00-001')
  await userEvent.type(within(dialog).getByLabelText(/Town or city/), 'Warszawa')
  await userEvent.selectOptions(within(dialog).getByLabelText(/Country/), 'pl')
}

describe('transaction status page', () => {
  it('shows the summary, status chip, history and exactly the buyer actions after delivery, with the countdown', async () => {
    const transaction = fakeTransaction({
      status: 'delivered',
      role: 'buyer',
      joined: '2026-11-01T11:00:00.000Z',
      paid: '2026-11-01T12:00:00.000Z',
      tracked: '2026-11-02T09:00:00.000Z',
      delivered: '2026-11-03T09:00:00.000Z',
      complaint_period_deadline: inHours(2),
      available_actions: ['complain_with_description', 'end_complaint_period'],
    })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': transaction }) })

    const chip = await screen.findByTestId('transaction-status')
    expect(chip.getAttribute('data-status')).toBe('delivered')
    expect(chip.textContent).toBe('Delivered')
    expect(screen.getByTestId('transaction-description').textContent).toBe('Red bicycle')
    expect(screen.getByTestId('transaction-role').textContent).toBe('You are the buyer')
    expect(screen.getByTestId('amount-total').textContent).toBe('€13.12')
    expect(shownActions()).toEqual(['action-complain', 'action-end-complaint-period'])
    expect(screen.getByTestId('complaint-deadline').textContent).toMatch(/The complaint window closes in (1 hr 59 mins|2 hrs)/)
    const history = within(screen.getByTestId('transaction-timeline')).getAllByRole('listitem')
    expect(history.map((item) => item.getAttribute('data-state'))).toEqual(['created', 'joined', 'paid', 'tracked', 'delivered'])
    expect(history[0]?.textContent).toContain('Transaction created')
  })

  // The server's available_actions (as the domain computes them for that state and role), and the buttons they become.
  it.each([
    ['created', 'seller', ['cancel', 'update'], ['action-update', 'action-cancel']],
    ['joined', 'buyer', ['cancel', 'set_payment_method', 'pay'], ['action-pay', 'action-cancel']],
    ['joined', 'seller', ['cancel'], ['action-cancel']],
    ['paid', 'seller', ['cancel', 'track'], ['action-track', 'action-cancel']],
    ['paid', 'buyer', ['submit_order_issue'], ['action-submit-order-issue']],
    ['tracked', 'buyer', ['confirm_delivery'], ['action-confirm-delivery']],
    ['tracked', 'seller', [], []],
    ['complained', 'seller', ['accept_complaint'], ['action-accept-complaint']],
    ['funds_released', 'seller', [], []],
  ] as const)('%s as %s offered %j shows %j', async (status, role, offered, expected) => {
    const transaction = fakeTransaction({
      status,
      role,
      available_actions: [...offered],
      join_code: status === 'created' ? 'ABCD2345' : null,
      tracking_deadline: status === 'paid' ? inHours(90) : null,
    })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': transaction }) })
    await screen.findByTestId('transaction-status')
    expect(shownActions()).toEqual(expected)
    if (status === 'created') expect(screen.getByTestId('status-join-code-value').textContent).toBe('ABCD2345')
    if (status === 'paid' && role === 'seller') {
      expect(screen.getByTestId('tracking-deadline').textContent).toMatch(/Add the tracking details within 3 days/)
    }
  })

  it('shows what went back to the buyer of a cancelled sale whose payment arrived too late', async () => {
    const cancelled = fakeTransaction({ status: 'cancelled', role: 'buyer', amount_refunded: 10_340, available_actions: [] })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': cancelled }) })
    expect((await screen.findByTestId('settled-amount')).textContent).toBe('Refunded to the buyer: €103.40')
  })

  it('names a purchase from a listing as waiting for the seller, not for someone to join', async () => {
    const waiting = fakeTransaction({ status: 'created', role: 'buyer', listing_id: 'listing-1', buyer_id: 'user-2' })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': waiting }) })
    expect((await screen.findByTestId('transaction-status')).textContent).toBe('Waiting for the seller to accept')
  })

  it('adds tracking through its dialog and says Success!', async () => {
    const paid = fakeTransaction({ status: 'paid', role: 'seller', tracking_deadline: inHours(90), available_actions: ['cancel', 'track'] })
    const tracked = fakeTransaction({
      status: 'tracked',
      role: 'seller',
      tracking: { carrier: 'dhl', tracking_code: 'AB-123', tracking_url: null },
    })
    const api = fakeApiClient({
      'GET /transactions/tx-1': paid,
      'GET /supported_carriers': [
        { slug: 'dhl', name: 'DHL' },
        { slug: 'ups', name: 'UPS' },
      ],
      'POST /transactions/tx-1/track': tracked,
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-track'))
    const dialog = await screen.findByRole('dialog', { name: 'Add tracking details' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add tracking' }))
    expect(within(dialog).getByText('Choose the carrier.')).toBeTruthy()
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'DHL' })).toBeTruthy())
    await userEvent.selectOptions(within(dialog).getByLabelText(/Carrier/), 'dhl')
    await userEvent.type(within(dialog).getByLabelText(/Tracking code/), 'AB-123')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add tracking' }))

    expect(await screen.findByText('Success!')).toBeTruthy()
    const call = api.request.mock.calls.find(([path]) => path === '/transactions/tx-1/track')
    expect(call?.[1]).toMatchObject({ method: 'POST', body: { carrier: 'dhl', tracking_code: 'AB-123' } })
    expect(call?.[1]?.headers?.['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("links the tracking code to the carrier's page in a new tab, and leaves it plain text without one", async () => {
    const url = 'https://www.ups.com/track?tracknum=1Z999'
    const tracked = fakeTransaction({
      status: 'tracked',
      role: 'buyer',
      tracking: { carrier: 'ups', tracking_code: '1Z999', tracking_url: url },
    })
    const carriers = [{ slug: 'ups', name: 'UPS' }]
    const view = await renderApp('/transactions/tx-1', {
      api: fakeApiClient({ 'GET /transactions/tx-1': tracked, 'GET /supported_carriers': carriers }),
    })
    const link = await screen.findByRole('link', { name: "Follow 1Z999 on UPS's website (opens in a new tab)" })
    expect(link.getAttribute('href')).toBe(url)
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
    view.unmount()

    const plain = fakeTransaction({
      status: 'tracked',
      role: 'buyer',
      tracking: { carrier: 'postnl', tracking_code: 'JD1', tracking_url: null },
    })
    await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': plain, 'GET /supported_carriers': [] }) })
    expect((await screen.findByTestId('tracking-info')).textContent).toBe('postnl · JD1')
    expect(screen.queryByTestId('tracking-link')).toBeNull()
  })

  it('says so when the parcel is already on another buyer’s sale', async () => {
    const paid = fakeTransaction({ status: 'paid', role: 'seller', tracking_deadline: inHours(90), available_actions: ['cancel', 'track'] })
    const api = fakeApiClient({
      'GET /transactions/tx-1': paid,
      'GET /supported_carriers': [{ slug: 'dhl', name: 'DHL' }],
      'POST /transactions/tx-1/track': () => {
        throw apiError(409, 'tracking_code_in_use')
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-track'))
    const dialog = await screen.findByRole('dialog', { name: 'Add tracking details' })
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'DHL' })).toBeTruthy())
    await userEvent.selectOptions(within(dialog).getByLabelText(/Carrier/), 'dhl')
    await userEvent.type(within(dialog).getByLabelText(/Tracking code/), 'AB-123')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add tracking' }))
    expect(await screen.findByText(/already on another buyer’s transaction/)).toBeTruthy()
  })

  it('pays by card: a declined card shows a clear message, another card succeeds', async () => {
    const sandbox = vi
      .fn()
      .mockResolvedValueOnce(
        new Response(
          JSON.stringify({
            status: 'requires_payment_method',
            last_payment_error: { code: 'card_declined', reason: 'card_declined', message: 'Your card was declined.' },
          }),
          { status: 200 },
        ),
      )
      .mockResolvedValueOnce(new Response(JSON.stringify({ status: 'succeeded', last_payment_error: null }), { status: 200 }))
    vi.stubGlobal('fetch', sandbox)
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({
        status: 'joined',
        role: 'buyer',
        available_actions: ['cancel', 'set_payment_method', 'pay'],
      }),
      'GET /charge': quote,
      'POST /transactions/tx-1/shipping_details': { name: 'Ola Nowak' },
      'GET /transactions/tx-1/stripe_publishable_key': { publishable_key: 'pk_sandbox_pactum' },
      'POST /transactions/tx-1/pay': { payment_intent_id: 'pi_1', client_secret: 'pi_1_secret', charge: 78 },
      'POST /transactions/tx-1/confirm_payment': fakeTransaction({ status: 'paid', role: 'buyer' }),
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-pay'))
    const dialog = await screen.findByRole('dialog', { name: /Pay for the item/ })

    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    expect(within(dialog).getAllByText('This field is required.').length).toBe(5)
    await fillShippingAddress(dialog)
    await userEvent.click(within(dialog).getByTestId('checkout-next'))

    expect((within(dialog).getByTestId('checkout-method-card') as HTMLInputElement).checked).toBe(true)
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€0.78'))
    await userEvent.click(within(dialog).getByTestId('checkout-next'))

    const card = await within(dialog).findByLabelText(/Card number/)
    expect(within(dialog).getByTestId('test-cards').textContent).toContain('4242 4242 4242 4242')
    expect(within(dialog).getByTestId('pay-submit').textContent).toBe('Pay €13.12')
    await userEvent.type(card, '4000 0000 0000 0002')
    await userEvent.click(within(dialog).getByTestId('pay-submit'))
    expect((await within(dialog).findByTestId('payment-error')).textContent).toBe('Your card was declined. Try another card.')

    await userEvent.clear(card)
    await userEvent.type(card, '4242 4242 4242 4242')
    await userEvent.click(within(dialog).getByTestId('pay-submit'))
    expect(await screen.findByText('Success!')).toBeTruthy()

    expect(sandbox).toHaveBeenCalledTimes(2)
    expect(sandbox.mock.calls[0]?.[0]).toBe('/sandbox/v1/payment_intents/pi_1/confirm')
    expect(JSON.parse(String(sandbox.mock.calls[1]?.[1]?.body))).toEqual({
      client_secret: 'pi_1_secret',
      card_number: '4242424242424242',
    })
    // One intent for both attempts; the shipping address goes to the server for the seller.
    expect(api.request.mock.calls.filter(([path]) => path === '/transactions/tx-1/pay')).toHaveLength(1)
    expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/shipping_details', {
      method: 'POST',
      body: { name: 'Ola Nowak', line1: 'Długa 1', city: 'Warszawa', postal_code: '00-001', country_code: 'pl' },
    })
    expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/confirm_payment', {
      method: 'POST',
      body: { payment_intent_id: 'pi_1' },
    })
  })

  it('shows the seller where to ship once paid', async () => {
    const address = {
      name: 'Ola Nowak',
      line1: 'Długa 1',
      line2: null,
      city: 'Warszawa',
      postal_code: '00-001',
      country_code: 'pl',
      state: null,
    }
    const paid = { status: 'paid' as const, paid: '2026-11-22T10:00:00.000Z' }
    const seller = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({
        ...paid,
        role: 'seller',
        tracking_deadline: inHours(90),
        available_actions: ['cancel', 'track'],
      }),
      'GET /transactions/tx-1/shipping_details': address,
    })
    await renderApp('/transactions/tx-1', { api: seller })
    const card = await screen.findByTestId('shipping-address')
    expect(card.textContent).toContain('Długa 1')
    expect(card.textContent).toContain('00-001 Warszawa')
    expect(card.textContent).toContain('Poland')
    // Above the next steps and the history, where the seller looks before shipping (issue 33 item 3).
    const history = screen.getByTestId('transaction-timeline')
    expect(card.compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    const nextSteps = screen.getByTestId('tracking-deadline')
    expect(card.compareDocumentPosition(nextSteps) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('treats a payment that already went through as done, not as an error', async () => {
    let paidNow = false
    const api = fakeApiClient({
      'GET /transactions/tx-1': () =>
        paidNow
          ? fakeTransaction({ status: 'paid', role: 'buyer' })
          : fakeTransaction({ status: 'joined', role: 'buyer', available_actions: ['cancel', 'set_payment_method', 'pay'] }),
      'GET /charge': quote,
      'POST /transactions/tx-1/shipping_details': { name: 'Ola Nowak' },
      'POST /transactions/tx-1/pay': () => {
        paidNow = true
        throw new ApiError({ status: 409, code: 'already_paid', message: 'This payment has already been made', requestId: 'req-1' })
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-pay'))
    const dialog = await screen.findByRole('dialog')
    await fillShippingAddress(dialog)
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    await userEvent.click(await within(dialog).findByTestId('checkout-next'))
    expect(await screen.findByText('Success!')).toBeTruthy()
    await waitFor(() => expect(screen.getByTestId('transaction-status').getAttribute('data-status')).toBe('paid'))
  })

  it('shows a payment in progress and no actions while it runs', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ status: 'joined', role: 'buyer', is_payment_in_progress: true, payment_method: 'sepa' }),
    })
    await renderApp('/transactions/tx-1', { api })
    expect(await screen.findByTestId('payment-in-progress')).toBeTruthy()
    expect(shownActions()).toEqual([])
  })

  it('shows a translated error for a transaction that is not ours, with the way back instead of a retry', async () => {
    const { router } = await renderApp('/transactions/tx-404', { api: fakeApiClient({ 'GET /me/transactions': [] }) })
    const problem = await screen.findByTestId('transaction-error')
    expect(problem.textContent).toContain('We could not find this transaction.')
    expect(within(problem).queryByRole('button', { name: 'Try again' })).toBeNull()
    await userEvent.click(within(problem).getByRole('link', { name: 'My transactions' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions'))
  })

  it('offers another try when the server failed', async () => {
    let attempts = 0
    const api = fakeApiClient({
      'GET /transactions/tx-1': () => {
        attempts += 1
        if (attempts === 1) throw new ApiError({ status: 503, code: 'service_unavailable', message: 'busy', requestId: 'r' })
        return fakeTransaction()
      },
    })
    await renderApp('/transactions/tx-1', { api })
    const problem = await screen.findByTestId('transaction-error')
    expect(within(problem).queryByRole('link', { name: 'My transactions' })).toBeNull()
    await userEvent.click(within(problem).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('transaction-status')).toBeTruthy()
  })
})

describe('high-value sale awaiting identity verification', () => {
  const highValue = {
    status: 'joined',
    high_value: true,
    client_id: 'pactum-app',
    price: 600_000,
    available_actions: ['cancel', 'set_payment_method', 'pay'],
  } as const satisfies Partial<Transaction>
  const verification = (verified: boolean) => ({
    verification_method: 'stripe_identity',
    verified,
    message: '',
    verification_session_id: null,
    verification_session_status: verified ? 'verified' : 'not_created',
  })

  it('tells the unverified buyer why, and links to where they verify', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ ...highValue, role: 'buyer' }),
      'GET /me/verification_status': verification(false),
    })
    const { router } = await renderApp('/transactions/tx-1', { api })
    const notice = await screen.findByTestId('high-value-notice')
    expect(notice.textContent).toContain('A sale of this value needs both you and the other person to verify your identity')
    const link = await within(notice).findByRole('link', { name: 'Verify your identity' })
    expect(link.getAttribute('href')).toBe('/profile/details#identity-document')
    // Paying stays offered: the server decides, and its answer says who is missing.
    expect(shownActions()).toEqual(['action-pay', 'action-cancel'])

    await userEvent.click(link)
    expect(router.state.location.pathname).toBe('/profile/details')
    expect(router.state.location.hash).toBe('#identity-document')
  })

  it('tells a verified seller the same, without the link', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ ...highValue, client_id: 'pactum-landing', role: 'seller' }),
      'GET /me/verification_status': verification(true),
    })
    await renderApp('/transactions/tx-1', { api })
    const notice = await screen.findByTestId('high-value-notice')
    expect((await within(notice).findByTestId('high-value-verified')).textContent).toBe('Your identity is verified.')
    expect(within(notice).queryByRole('link')).toBeNull()
  })

  it.each([
    ['a partner client', { client_id: 'partner-shop' }],
    ['no client', { client_id: null }],
    ['an ordinary price', { high_value: false }],
    ['a paid sale', { status: 'paid' as const, tracking_deadline: inHours(90) }],
    ['a payment on its way', { is_payment_in_progress: true }],
  ])('says nothing and asks nothing for %s', async (_, overrides) => {
    const api = fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ ...highValue, role: 'buyer', ...overrides }) })
    await renderApp('/transactions/tx-1', { api })
    await screen.findByTestId('transaction-status')
    expect(screen.queryByTestId('high-value-notice')).toBeNull()
    expect(api.request.mock.calls.some(([path]) => path === '/me/verification_status')).toBe(false)
  })

  async function payRefused(unverified: string[]) {
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ ...highValue, role: 'buyer' }),
      'GET /me/verification_status': verification(!unverified.includes('buyer')),
      'GET /charge': quote,
      'POST /transactions/tx-1/shipping_details': { name: 'Ola Nowak' },
      'POST /transactions/tx-1/pay': () => {
        throw new ApiError({
          status: 409,
          code: 'identity_verification_required',
          message: 'A high-value sale needs both parties identity verified first',
          details: { unverified },
          requestId: 'test',
        })
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-pay'))
    const dialog = await screen.findByRole('dialog', { name: /Pay for the item/ })
    await fillShippingAddress(dialog)
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    await waitFor(() => expect(within(dialog).getByTestId('amount-fee').textContent).toBe('€0.78'))
    await userEvent.click(within(dialog).getByTestId('checkout-next'))
    return within(dialog).findByTestId('payment-error')
  }

  it('explains a refused payment and sends an unverified buyer to verify', async () => {
    const problem = await payRefused(['buyer', 'seller'])
    expect(problem.textContent).toContain(
      'A sale of this value needs both you and the other person to verify your identity first. Verify yours under My profile.',
    )
    const link = within(problem).getByRole('link', { name: 'Verify your identity' })
    expect(link.getAttribute('href')).toBe('/profile/details#identity-document')
    expect(link.getAttribute('data-testid')).toBe('payment-error-verify-link')
  })

  it('explains a payment refused for the seller alone without sending the buyer anywhere', async () => {
    const problem = await payRefused(['seller'])
    expect(problem.textContent).toContain('A sale of this value needs both you and the other person to verify your identity first.')
    expect(within(problem).queryByRole('link')).toBeNull()
  })
})
