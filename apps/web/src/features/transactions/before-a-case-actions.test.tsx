import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString()

describe('before a case: more time for the seller, a reminder for the buyer', () => {
  it('lets the buyer give the seller a chosen number of days, sent as hours', async () => {
    const paid = fakeTransaction({
      status: 'paid',
      role: 'buyer',
      tracking_deadline: inHours(20),
      available_actions: ['extend_tracking_deadline', 'submit_order_issue'],
    })
    const api = fakeApiClient({
      'GET /transactions/tx-1': paid,
      'POST /transactions/tx-1/extend_tracking_deadline': { ...paid, tracking_deadline: inHours(20 + 7 * 24) },
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-extend-tracking-deadline'))
    const dialog = await screen.findByRole('dialog', { name: 'Give the seller more time to ship' })
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Extra time' }))
    await userEvent.click(await screen.findByRole('option', { name: '7 days' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend the deadline' }))

    expect(await screen.findByText('Success!')).toBeTruthy()
    const call = api.request.mock.calls.find(([path]) => path === '/transactions/tx-1/extend_tracking_deadline')
    expect(call?.[1]).toMatchObject({ method: 'POST', body: { hours: 168 } })
  })

  it('lets the seller ask the buyer to confirm receipt, and says when they last asked', async () => {
    const tracked = fakeTransaction({ status: 'tracked', role: 'seller', available_actions: ['request_receipt_confirmation'] })
    const asked = { ...tracked, available_actions: [], receipt_confirmation_requested_at: '2026-11-24T09:30:00.000Z' }
    let current = tracked
    const api = fakeApiClient({
      'GET /transactions/tx-1': () => current,
      'POST /transactions/tx-1/request_receipt_confirmation': () => (current = asked),
    })
    await renderApp('/transactions/tx-1', { api })
    expect(screen.queryByTestId('receipt-request-note')).toBeNull()
    await userEvent.click(await screen.findByTestId('action-request-receipt-confirmation'))
    const dialog = await screen.findByRole('dialog', { name: 'Ask the buyer to confirm receipt' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the request' }))
    expect(await screen.findByText('Success!')).toBeTruthy()
    // The answer is the transaction as it is now: the button gives way to when they asked.
    expect((await screen.findByTestId('receipt-request-note')).textContent).toContain('You asked the buyer to confirm receipt on')
    expect(screen.queryByTestId('action-request-receipt-confirmation')).toBeNull()
  })

  it('shows the last request and the refusal of a second one within a day', async () => {
    const tracked = fakeTransaction({
      status: 'tracked',
      role: 'seller',
      available_actions: ['request_receipt_confirmation'],
      receipt_confirmation_requested_at: '2026-11-24T09:30:00.000Z',
    })
    const api = fakeApiClient({
      'GET /transactions/tx-1': tracked,
      'POST /transactions/tx-1/request_receipt_confirmation': () => {
        throw apiError(429, 'receipt_confirmation_requested_recently')
      },
    })
    await renderApp('/transactions/tx-1', { api })
    expect((await screen.findByTestId('receipt-request-note')).textContent).toMatch(/^You asked the buyer to confirm receipt on .*2026/)
    await userEvent.click(screen.getByTestId('action-request-receipt-confirmation'))
    const dialog = await screen.findByRole('dialog', { name: 'Ask the buyer to confirm receipt' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send the request' }))
    expect(await screen.findByText('You asked the buyer less than a day ago. You can ask again tomorrow.')).toBeTruthy()
  })
})
