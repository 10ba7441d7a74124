import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { TransactionSummary } from '@pactum/contracts/f2f-transactions'
import { defaultApiRoutes, fakeApiClient } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { yourMoveKey } from './your-move.ts'

const row = (overrides: Partial<TransactionSummary>): TransactionSummary =>
  ({
    id: 'tx-1',
    type: 'online',
    status: 'paid',
    role: 'seller',
    description: 'Red bicycle',
    currency: 'eur',
    listing_id: null,
    created: '2026-11-01T10:00:00.000Z',
    unread_messages: 0,
    amount: 10_000,
    ...overrides,
  }) as TransactionSummary

describe('a status read from the reader’s side (issue 33 item 1)', () => {
  it('names the step of the party the sale waits for, and nothing for the other', () => {
    expect(yourMoveKey(row({ status: 'paid', role: 'seller' }))).toBe('transactionStatusNames.yourMove.online.paid')
    expect(yourMoveKey(row({ status: 'paid', role: 'buyer' }))).toBeNull()
    expect(yourMoveKey(row({ status: 'created', role: 'seller', listing_id: 'l-1' }))).toBe(
      'transactionStatusNames.yourMove.accept_purchase',
    )
    expect(yourMoveKey(row({ status: 'created', role: 'buyer', listing_id: 'l-1' }))).toBeNull()
    expect(yourMoveKey(row({ type: 'f2f', status: 'priced', role: 'buyer' }))).toBe('transactionStatusNames.yourMove.f2f.priced')
    expect(yourMoveKey(row({ status: 'funds_released', role: 'seller' }))).toBeNull()
    expect(yourMoveKey(row({ role: null }))).toBeNull()
  })

  it('marks the rows waiting for the reader in My transactions, named as their step', async () => {
    const rows = [
      row({ id: 'tx-1', status: 'created', role: 'seller', listing_id: 'l-1', description: 'Lamp (from a listing)' }),
      row({ id: 'tx-2', status: 'paid', role: 'buyer', description: 'Chair' }),
    ]
    await renderApp('/transactions', { api: fakeApiClient({ ...defaultApiRoutes(), 'GET /me/transactions': rows }) })
    const [mine, theirs] = await screen.findAllByTestId('transaction-row')
    expect(mine?.getAttribute('data-your-move')).toBe('true')
    expect(within(mine!).getByTestId('transaction-status').textContent).toBe('Accept or decline the purchase')
    expect(theirs?.getAttribute('data-your-move')).toBeNull()
    expect(within(theirs!).getByTestId('transaction-status').textContent).toBe('Paid, waiting for shipping')
  })
})
