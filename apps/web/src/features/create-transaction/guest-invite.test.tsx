import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { defaultApiRoutes, fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { chargeQuoteRoute } from '../../test/fake-charge-quote.ts'

const quote = chargeQuoteRoute(190)

describe('invite by e-mail when creating', () => {
  it('checks the address, sends it as counterparty_email and says where the invitation went instead of showing a code', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /charge': quote,
      'POST /me/transactions': ({ body }: ApiRequest) => fakeTransaction({ ...(body as object), join_code: null, status: 'created' }),
    })
    await renderApp('/create-transaction?model=online&user=seller&cur=eur&price=50&desc=Lamp', { api })
    await userEvent.click(await screen.findByTestId('create-next'))
    await userEvent.click(screen.getByTestId('create-next'))
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€1.90'))

    await userEvent.click(screen.getByRole('checkbox', { name: 'Invite the other party by e-mail' }))
    await userEvent.type(screen.getByTestId('invite-email'), 'not-an-address')
    await userEvent.click(screen.getByTestId('create-submit'))
    expect(await screen.findByText('Enter a valid e-mail address, such as name@example.com.')).toBeTruthy()
    expect(api.request.mock.calls.some(([path]) => path === '/me/transactions')).toBe(false)

    await userEvent.clear(screen.getByTestId('invite-email'))
    await userEvent.type(screen.getByTestId('invite-email'), 'Guest@Example.com')
    await userEvent.click(screen.getByTestId('create-submit'))
    expect((await screen.findByTestId('created-invited')).textContent).toBe('Invitation sent to guest@example.com')
    expect(screen.queryByTestId('created-join-code')).toBeNull()
    const call = api.request.mock.calls.find(([path]) => path === '/me/transactions')
    expect(call?.[1]?.body).toMatchObject({ role: 'seller', price: 5_000, counterparty_email: 'guest@example.com' })
  })

  it('offers the same option for a face-to-face sale, whose last step then reads as the e-mailed invitation', async () => {
    const api = fakeApiClient({
      ...defaultApiRoutes(),
      'GET /p2p/charge': quote,
      'POST /p2p/me/transactions': ({ body }: ApiRequest) =>
        fakeF2fTransaction({
          id: 'tx-5',
          role: 'buyer',
          creator_role: 'buyer',
          description: (body as { description: string }).description,
          invitation: {
            email: 'seller@example.com',
            role: 'seller',
            sent_at: '2026-11-01T10:00:00.000Z',
            expires_at: '2026-11-15T10:00:00.000Z',
          },
        }),
    })
    await renderApp('/create-transaction?model=f2f&user=buyer&deposit=50&desc=Cargo%20bike', { api })
    await userEvent.click(await screen.findByTestId('create-next'))
    await waitFor(() => expect(screen.getByTestId('amount-fee').textContent).toBe('€1.90'))
    // The last step is sharing the code, until the other party is invited by e-mail instead.
    expect(screen.getByText('Share the code')).toBeTruthy()
    await userEvent.click(screen.getByTestId('invite-by-email'))
    expect(screen.queryByText('Share the code')).toBeNull()
    expect(screen.getByText('Invite by e-mail')).toBeTruthy()
    await userEvent.type(screen.getByTestId('invite-email'), 'seller@example.com')
    await userEvent.click(screen.getByTestId('create-submit'))
    expect((await screen.findByTestId('created-invited')).textContent).toContain('Invitation sent to seller@example.com')
    expect(screen.getByTestId('created-invitation-expires').textContent).toBe(
      'The link in it works until 15 Nov 2026, 10:00. If the e-mail gets lost, you can send it again from the transaction page.',
    )
    expect(screen.queryByText('Share the code')).toBeNull()
    expect(screen.getByText('Invite by e-mail')).toBeTruthy()
    const call = api.request.mock.calls.find(([path]) => path === '/p2p/me/transactions')
    expect(call?.[1]?.body).toMatchObject({ role: 'buyer', deposit_price: 5_000, counterparty_email: 'seller@example.com' })
  })
})
