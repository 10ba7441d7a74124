import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeTransaction } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { fakeMessage, fakePhoto } from '../../test/fake-message.ts'
import { renderApp } from '../../test/render-app.tsx'

const id = '019a0000-0000-7000-8000-00000000c0n5'
const base = `/admin/transactions/${id}/messages`

function detailOf(complaint: { description: string } | null): AdminTransactionDetail {
  return {
    transaction: fakeTransaction({ id, status: complaint ? 'complained' : 'delivered', role: null, complaint }),
    case: null,
    buyer_email: 'buyer@example.com',
    seller_email: 'seller@example.com',
    fraud_warning: null,
    available_steps: [],
    events: [],
    ledger_entries: [],
    provider_events: [],
    notifications: [],
  }
}

const photo = fakeMessage({ id: 'm-1', author_role: 'buyer', text: 'As it arrived', attachment: fakePhoto })

describe('the conversation in the admin console', () => {
  it('shows each attachment with its full SHA-256, and writes to both parties once there is a complaint', async () => {
    const posted: unknown[] = []
    const reply = fakeMessage({ id: 'm-2', author_role: 'admin', mine: true, text: 'Please send the receipt.' })
    const api = fakeApiClient({
      ...adminRoutes(),
      [`GET /admin/transactions/${id}`]: detailOf({ description: 'Cracked' }),
      [`GET ${base}`]: ({ query }: ApiRequest) =>
        query?.after_id === undefined ? [photo] : posted.length > 0 && query.after_id === 'm-1' ? [reply] : [],
      [`POST ${base}`]: (request: ApiRequest) => {
        posted.push(request.body)
        return reply
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    const section = await screen.findByTestId('admin-conversation')
    const message = await within(section).findByTestId('message')
    expect(message.textContent).toContain('Buyer · ')
    expect(within(message).getByTestId('attachment-sha256-value').textContent).toBe(fakePhoto.sha256)
    expect(within(message).getByRole('button', { name: 'Download cracked-frame.png' })).toBeTruthy()

    // Text only: the admin attaches nothing.
    expect(within(section).queryByTestId('message-attach')).toBeNull()
    await userEvent.type(within(section).getByLabelText('Your message'), 'Please send the receipt.')
    await userEvent.click(within(section).getByTestId('message-send'))
    await waitFor(() => expect(posted).toEqual([{ text: 'Please send the receipt.' }]))
    await waitFor(() => expect(within(section).getAllByTestId('message')).toHaveLength(2))
    expect(within(section).getAllByTestId('message')[1]?.textContent).toContain('You (Pactum admin)')
  })

  it('reads without a composer before a complaint, and shows the server’s refusal if it comes anyway', async () => {
    const api = fakeApiClient({ ...adminRoutes(), [`GET /admin/transactions/${id}`]: detailOf(null), [`GET ${base}`]: [] })
    await renderApp(`/admin/transactions/${id}`, { api })
    const section = await screen.findByTestId('admin-conversation')
    expect((await within(section).findByTestId('conversation-empty')).textContent).toBe('No messages yet.')
    expect(within(section).getByTestId('conversation-read-only').textContent).toBe(
      'You can write to both parties once the buyer has complained.',
    )
    expect(within(section).queryByTestId('message-composer')).toBeNull()

    // The transaction's complaint was withdrawn meanwhile: 409 not_complained, told in words.
    const refusing = fakeApiClient({
      ...adminRoutes(),
      [`GET /admin/transactions/${id}`]: detailOf({ description: 'Cracked' }),
      [`GET ${base}`]: [],
      [`POST ${base}`]: () => {
        throw apiError(409, 'not_complained')
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api: refusing })
    const composer = (await screen.findAllByTestId('message-composer')).at(-1) as HTMLElement
    await userEvent.type(within(composer).getByLabelText('Your message'), 'Hello')
    await userEvent.click(within(composer).getByTestId('message-send'))
    expect((await within(composer).findByTestId('message-send-error')).textContent).toBe('No complaint has been made.')
  })
})
