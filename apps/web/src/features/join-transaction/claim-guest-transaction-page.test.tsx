import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { expectTexts } from '../../test/expect-fields.ts'

const secret = 'Aq3_x-9ZbYcWdVeUfTgShRiQjPkOlNmMnLoKpJqIrHs'
const preview = {
  id: 'tx-7',
  type: 'online',
  role: 'buyer',
  status: 'created',
  claimed: false,
  description: 'A green lamp',
  currency: 'eur',
  price: 10_000,
  charge: 340,
  invited_email: 'guest@example.com',
  inviter_first_name: 'Sam',
  client_id: 'pactum-app',
}

describe('claiming a guest transaction', () => {
  it('shows what is offered, claims it by the link’s kind and role, and opens the status page', async () => {
    const claimed = fakeTransaction({ id: 'tx-7', status: 'joined', role: 'buyer', description: 'A green lamp' })
    const api = fakeApiClient({
      [`GET /transactions_by_claim_secret/${secret}`]: preview,
      [`POST /transactions_by_claim_secret/${secret}/claim_as_buyer`]: claimed,
      'GET /transactions/tx-7': claimed,
    })
    const { router } = await renderApp(`/join-guest-transaction/${secret}/online`, { api })
    await screen.findByTestId('claim-preview')
    expectTexts({
      'claim-description': 'A green lamp',
      'claim-inviter': 'Sam is selling this item.',
      'claim-invited': 'Invitation for guest@example.com',
      'amount-total': '€103.40',
    })

    await userEvent.click(screen.getByRole('button', { name: 'Accept as buyer' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx-7'))
    expect(api.request).toHaveBeenCalledWith(`/transactions_by_claim_secret/${secret}/claim_as_buyer`, { method: 'POST', body: {} })
  })

  // `f` is the specification's name for face to face (§3).
  it.each(['f2f', 'f'])('claims a face-to-face sale as seller through /p2p from a link ending /%s', async (type) => {
    const api = fakeApiClient({
      [`GET /transactions_by_claim_secret/${secret}`]: { ...preview, type: 'f2f', role: 'seller', inviter_first_name: null },
      [`POST /p2p/transactions_by_claim_secret/${secret}/claim_as_seller`]: () => {
        throw apiError(409, 'already_claimed')
      },
    })
    await renderApp(`/join-guest-transaction-as-seller/${secret}/${type}`, { api })
    expect((await screen.findByTestId('claim-inviter')).textContent).toBe(
      'A marketplace set up this transaction for you and the other party.',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Accept as seller' }))
    expect(await screen.findByText('This invitation has already been accepted. A link works only once.')).toBeTruthy()
  })

  it('tells that a withdrawn offer can no longer be accepted', async () => {
    await renderApp(`/join-guest-transaction/${secret}/online`, {
      api: fakeApiClient({ [`GET /transactions_by_claim_secret/${secret}`]: { ...preview, status: 'cancelled' } }),
    })
    expect((await screen.findByTestId('claim-closed')).textContent).toContain('cancelled')
    expect((screen.getByTestId('claim-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('says so for a malformed link without asking the server', async () => {
    const api = fakeApiClient({})
    await renderApp('/join-guest-transaction/short/online', { api })
    expect((await screen.findByTestId('claim-invalid')).textContent).toContain('This link is incomplete or has been changed.')
    expect(api.request).not.toHaveBeenCalledWith(expect.stringContaining('/transactions_by_claim_secret/'), expect.anything())
  })

  it('says so for an unknown, used, expired, own or mismatched invitation', async () => {
    const cases: Array<[string, object | (() => never), string, string]> = [
      [
        'online',
        () => {
          throw apiError(404, 'claim_secret_not_found')
        },
        'claim-error',
        'This invitation link is unknown.',
      ],
      [
        'online',
        () => {
          throw apiError(403, 'cannot_join_own_transaction')
        },
        'claim-error',
        'You created this transaction',
      ],
      ['online', { ...preview, claimed: true }, 'claim-used', 'An invitation link works only once.'],
      [
        'online',
        () => {
          throw apiError(410, 'claim_link_expired')
        },
        'claim-expired',
        'Invitation links work for 14 days. Ask the person who invited you to send the invitation again',
      ],
      ['f2f', preview, 'claim-mismatch', 'This link invites you in another role or to another kind of transaction.'],
    ]
    for (const [type, answer, testId, text] of cases) {
      const { unmount } = await renderApp(`/join-guest-transaction/${secret}/${type}`, {
        api: fakeApiClient({ [`GET /transactions_by_claim_secret/${secret}`]: answer }),
      })
      expect((await screen.findByTestId(testId)).textContent).toContain(text)
      expect(screen.getByRole('link', { name: 'Go to my transactions' })).toBeTruthy()
      unmount()
    }
  })

  it('says the link expired when it runs out between the preview and the claim', async () => {
    const api = fakeApiClient({
      [`GET /transactions_by_claim_secret/${secret}`]: preview,
      [`POST /transactions_by_claim_secret/${secret}/claim_as_buyer`]: () => {
        throw apiError(410, 'claim_link_expired')
      },
    })
    await renderApp(`/join-guest-transaction/${secret}/online`, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Accept as buyer' }))
    expect(await screen.findByText('This invitation link has expired. Ask the person who invited you to send it again.')).toBeTruthy()
  })
})
