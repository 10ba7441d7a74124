import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const complainedOnline = (role: 'buyer' | 'seller') =>
  fakeTransaction({
    status: 'complained',
    role,
    buyer_id: 'user-2',
    joined: '2026-11-01T11:00:00.000Z',
    paid: '2026-11-01T12:00:00.000Z',
    tracked: '2026-11-02T09:00:00.000Z',
    delivered: '2026-11-03T09:00:00.000Z',
    complained: '2026-11-03T10:00:00.000Z',
    complaint: { description: 'The frame is cracked' },
    available_actions: role === 'seller' ? ['accept_complaint'] : [],
  })

/** A face-to-face sale the buyer complained about after the handover. */
const complainedF2f = (role: 'buyer' | 'seller') =>
  fakeF2fTransaction({
    status: 'complained',
    role,
    buyer_id: 'user-2',
    pricing: { price: 20_000, charge: 490, charge_seller: 0 },
    complaint: { description: 'The brakes do not work' },
    joined: '2026-11-01T11:00:00.000Z',
    deposit_paid: '2026-11-01T12:00:00.000Z',
    deposit_accepted: '2026-11-01T13:00:00.000Z',
    priced: '2026-11-01T14:00:00.000Z',
    remainder_paid: '2026-11-01T15:00:00.000Z',
    seller_handover_confirmed: '2026-11-02T10:00:00.000Z',
    complained: '2026-11-02T12:00:00.000Z',
    available_actions: role === 'seller' ? ['accept_complaint'] : [],
  })

async function nextSteps(transaction: unknown) {
  const view = await renderApp('/transactions/tx-1', { api: fakeApiClient({ 'GET /transactions/tx-1': transaction }) })
  // The first render loads the lazy page: give it more than the default second on a busy machine.
  const steps = await screen.findByTestId('complaint-next-steps', {}, { timeout: 5000 })
  return { ...view, steps }
}

describe.each([
  ['an online sale', complainedOnline],
  ['a face-to-face sale', complainedF2f],
] as const)('after a complaint on %s', (_, complained) => {
  it('tells the buyer that the seller may accept it, that either may offer a split, or else Pactum decides, and when', async () => {
    const { steps } = await nextSteps(complained('buyer'))
    expect(steps.textContent).toContain('The seller can accept your complaint. You then get back everything you paid, fees included.')
    expect(steps.textContent).toContain('either of you can offer a split in the case below')
    expect(steps.textContent).toContain(
      'If you do not agree by the seller’s response deadline, or either of you asks for it, Pactum decides',
    )
    // The terms' rule (§9): a summary resolution within 3 business days, a final response within 8 weeks.
    expect(within(steps).getByTestId('complaint-timescale').textContent).toBe(
      'We aim to send you a summary resolution within 3 business days, and a final response within 8 weeks at the latest.',
    )
    expect(within(steps).queryByRole('link')).toBeNull()
  })

  it('gives the seller a real link to the contact form beside accepting', async () => {
    const { steps, router } = await nextSteps(complained('seller'))
    expect(steps.textContent).toContain('If you do not agree by your response deadline, or either of you asks for it, Pactum decides')
    expect(screen.getByTestId('status-explanation').textContent).not.toMatch(/contact us/i)
    expect(screen.getByTestId('transaction-actions').textContent).toContain('Accept complaint')
    const link = within(steps).getByRole('link', { name: 'Contact us' })
    expect(link.getAttribute('href')).toBe('/profile/help/contact-us')
    await userEvent.click(link)
    expect(router.state.location.pathname).toBe('/profile/help/contact-us')
    expect(await screen.findByRole('heading', { name: 'Contact us', level: 1 }, { timeout: 5000 })).toBeTruthy()
  })
})

it('shows no complaint steps before a complaint', async () => {
  await renderApp('/transactions/tx-1', {
    api: fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ status: 'delivered', role: 'buyer' }) }),
  })
  await screen.findByTestId('transaction-status', {}, { timeout: 5000 })
  expect(screen.queryByTestId('complaint-next-steps')).toBeNull()
})
