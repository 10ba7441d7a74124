import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { apiError, fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { renderApp } from '../../test/render-app.tsx'
import { ApiError } from '../../lib/api/api-error.ts'

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()
const invitation = { email: 'guest@example.com', role: 'buyer' as const, sent_at: '2026-11-01T10:00:00.000Z', expires_at: inDays(10) }
// The server offers the re-send with the invitation (transaction-view.ts).
const offered = { available_actions: ['resend_invitation' as const] }

describe('the creator’s invitation on the status page', () => {
  it('says whom and when it was sent to, until when it works, and sends it again', async () => {
    const sent = fakeTransaction({ invitation, ...offered })
    const resent = fakeTransaction({
      invitation: { ...invitation, sent_at: '2026-11-05T08:00:00.000Z', expires_at: inDays(14) },
      ...offered,
    })
    let current = sent
    const api = fakeApiClient({
      'GET /transactions/tx-1': () => current,
      'POST /transactions/tx-1/resend_invitation': () => {
        current = resent
        return resent
      },
    })
    await renderApp('/transactions/tx-1', { api })

    const card = await screen.findByTestId('status-invitation')
    expect(screen.getByTestId('invitation-sent').textContent).toBe('Invitation sent to guest@example.com on 1 Nov 2026, 10:00.')
    expect(screen.getByTestId('invitation-expires').textContent).toMatch(/^The link works until \d+ \w+ 2026, \d\d:\d\d\.$/)
    expect(card.textContent).toContain('the previous one stops working')
    // An invited sale has no join code to share.
    expect(screen.queryByTestId('status-join-code')).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'Send again' }))
    expect(await screen.findByText('Invitation sent again to guest@example.com.')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith('/transactions/tx-1/resend_invitation', expect.objectContaining({ method: 'POST' }))
    await waitFor(() =>
      expect(screen.getByTestId('invitation-sent').textContent).toBe('Invitation sent to guest@example.com on 5 Nov 2026, 08:00.'),
    )
  })

  it('warns once the link has expired', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeTransaction({ invitation: { ...invitation, expires_at: '2026-11-15T10:00:00.000Z' } }),
    })
    await renderApp('/transactions/tx-1', { api })
    expect((await screen.findByTestId('invitation-expires')).textContent).toBe(
      'The link expired on 15 Nov 2026, 10:00. Send the invitation again to give guest@example.com a new one.',
    )
  })

  it('says why a re-send was refused', async () => {
    let answer: ApiError = new ApiError({
      status: 429,
      code: 'rate_limited',
      message: 'soon',
      details: { reason: 'too_soon', retry_after: 40 },
      requestId: 'r',
    })
    const api = fakeApiClient({
      'GET /p2p/transactions/tx-1': fakeF2fTransaction({ invitation, ...offered }),
      'GET /transactions/tx-1': fakeF2fTransaction({ invitation, ...offered }),
      'POST /p2p/transactions/tx-1/resend_invitation': () => {
        throw answer
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Send again' }))
    expect((await screen.findByTestId('invitation-resend-error')).textContent).toBe(
      'You have just sent it. You can send it again in a minute.',
    )

    answer = new ApiError({ status: 429, code: 'rate_limited', message: 'many', details: { reason: 'too_many' }, requestId: 'r' })
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }))
    await waitFor(() =>
      expect(screen.getByTestId('invitation-resend-error').textContent).toContain('cancel this transaction and create a new one'),
    )

    answer = apiError(409, 'already_claimed')
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }))
    await waitFor(() => expect(screen.getByTestId('invitation-resend-error').textContent).toContain('already been accepted'))
  })

  it('offers no re-send when the server does not', async () => {
    const api = fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ invitation }) })
    await renderApp('/transactions/tx-1', { api })
    expect((await screen.findByTestId('invitation-sent')).textContent).toContain('guest@example.com')
    expect(screen.queryByRole('button', { name: 'Send again' })).toBeNull()
  })

  it('is not shown without an invitation, or once the other party has claimed it', async () => {
    const api = fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ status: 'joined', buyer_id: 'user-2', invitation: null }) })
    await renderApp('/transactions/tx-1', { api })
    await screen.findByTestId('transaction-summary')
    expect(screen.queryByTestId('status-invitation')).toBeNull()
  })
})
