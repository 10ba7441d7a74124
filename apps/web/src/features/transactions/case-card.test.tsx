import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { fakeCase } from '../../test/fake-case.ts'
import { renderApp } from '../../test/render-app.tsx'

const openedCase = fakeCase()

const sellerOffer = {
  id: '0190a1b2-0000-7000-8000-000000000001',
  by: 'seller' as const,
  refund_to_buyer: 3_000,
  release_to_seller: 7_000,
  note: 'A third back for the frame',
  made_at: '2026-11-23T12:00:00.000Z',
  outcome: 'open' as const,
  answered_at: null,
}

function complained(role: 'buyer' | 'seller', actions: string[]) {
  return fakeTransaction({
    status: 'complained',
    role,
    price: 10_000,
    charge: 340,
    complaint: { description: 'The frame arrived cracked' },
    available_actions: actions as never,
  })
}

describe('the case card', () => {
  it('shows the reason, the deadlines and the other party’s open offer, and accepts it', async () => {
    const posted: ApiRequest[] = []
    const api = fakeApiClient({
      'GET /transactions/tx-1': complained('buyer', ['propose_settlement', 'accept_settlement', 'decline_settlement', 'escalate_case']),
      'GET /transactions/tx-1/case': { ...openedCase, offers: [sellerOffer] },
      [`POST /transactions/tx-1/settlement_offers/${sellerOffer.id}/accept`]: (request: ApiRequest) => {
        posted.push(request)
        return complained('buyer', [])
      },
    })
    await renderApp('/transactions/tx-1', { api })
    const card = await screen.findByTestId('case-card')
    await within(card).findByText('The frame arrived cracked')
    expect(within(card).getByTestId('case-facts').textContent).toContain('Reason: Damaged')
    expect(within(card).getByTestId('case-offer-open').textContent).toContain('The seller: €30.00 back to the buyer, €70.00 to the seller')
    expect(within(card).getByTestId('action-propose-settlement').textContent).toBe('Make a counter-offer')

    await userEvent.click(within(card).getByTestId('action-accept-settlement'))
    const dialog = await screen.findByTestId('dialog-accept-case')
    expect(dialog.textContent).toContain('€30.00 goes back to the buyer and €70.00 to the seller')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Accept and settle' }))
    await waitFor(() => expect(posted).toHaveLength(1))
    expect(posted[0]?.headers?.['Idempotency-Key']).toEqual(expect.any(String))
  })

  it('proposes a split as typed, showing the seller’s part, and refuses more than the price', async () => {
    const posted: unknown[] = []
    const api = fakeApiClient({
      'GET /transactions/tx-1': complained('seller', ['accept_complaint', 'propose_settlement', 'escalate_case']),
      'GET /transactions/tx-1/case': openedCase,
      'POST /transactions/tx-1/settlement_offers': (request: ApiRequest) => {
        posted.push(request.body)
        return complained('seller', ['accept_complaint', 'propose_settlement', 'escalate_case'])
      },
    })
    await renderApp('/transactions/tx-1', { api })
    const card = await screen.findByTestId('case-card')
    expect(await within(card).findByTestId('case-no-offers')).toBeTruthy()
    await userEvent.click(within(card).getByTestId('action-propose-settlement'))
    const dialog = await screen.findByTestId('dialog-propose-settlement')
    const refund = within(dialog).getByTestId('offer-refund')
    await userEvent.type(refund, '120')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send offer' }))
    expect(await within(dialog).findByText('That is more than the price.')).toBeTruthy()
    await userEvent.clear(refund)
    await userEvent.type(refund, '30')
    expect(within(dialog).getByTestId('offer-release').textContent).toBe('To the seller: €70.00')
    await userEvent.type(within(dialog).getByTestId('offer-note'), 'A third back')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send offer' }))
    await waitFor(() => expect(posted).toEqual([{ refund_to_buyer: 3_000, release_to_seller: 7_000, note: 'A third back' }]))
  })

  it('asks Pactum to decide, and shows the outcome of a closed case', async () => {
    const posted: string[] = []
    const api = fakeApiClient({
      'GET /transactions/tx-1': complained('seller', ['propose_settlement', 'escalate_case']),
      'GET /transactions/tx-1/case': openedCase,
      'POST /transactions/tx-1/escalate': () => {
        posted.push('escalate')
        return complained('seller', ['propose_settlement'])
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-escalate-case'))
    await userEvent.click(within(await screen.findByTestId('dialog-escalate-case')).getByRole('button', { name: 'Send to Pactum' }))
    await waitFor(() => expect(posted).toHaveLength(1))

    const closed = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ status: 'funds_released', role: 'buyer', complaint: { description: 'x' } }),
      'GET /transactions/tx-1/case': { ...openedCase, state: 'closed', amount_refunded: 3_102, amount_released: 7_000 },
    })
    await renderApp('/transactions/tx-1', { api: closed })
    expect((await screen.findByTestId('case-outcome')).textContent).toBe('Outcome: €31.02 back to the buyer, €70.00 to the seller')
  })

  it('sends the complaint with its reason', async () => {
    const posted: unknown[] = []
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ status: 'delivered', role: 'buyer', available_actions: ['complain_with_description'] }),
      'POST /transactions/tx-1/complain_with_description': (request: ApiRequest) => {
        posted.push(request.body)
        return complained('buyer', [])
      },
      'GET /transactions/tx-1/case': openedCase,
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByTestId('action-complain'))
    const dialog = await screen.findByTestId('dialog-complain')
    await userEvent.click(within(dialog).getByRole('combobox'))
    await userEvent.click(await screen.findByRole('option', { name: 'Not as described' }))
    await userEvent.type(within(dialog).getByTestId('complain-description'), 'Scratched lens')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send complaint' }))
    await waitFor(() => expect(posted).toEqual([{ description: 'Scratched lens', reason: 'not_as_described' }]))
  })
})
