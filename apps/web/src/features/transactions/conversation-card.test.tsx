import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeF2fTransaction, fakeTransaction, fakeTransactionSummary } from '../../test/fake-api-client.ts'
import { fakeMessage, fakePhoto } from '../../test/fake-message.ts'
import { renderApp } from '../../test/render-app.tsx'

const joined = (overrides: Parameters<typeof fakeTransaction>[0] = {}) =>
  fakeTransaction({ status: 'delivered', role: 'buyer', buyer_id: 'user-2', seller_id: 'user-1', ...overrides })

const fromSeller = fakeMessage({ id: 'm-1', text: '<b>not bold</b>\nsecond line', created_at: '2026-11-23T10:00:00.000Z' })
const mine = fakeMessage({
  id: 'm-2',
  author_role: 'buyer',
  mine: true,
  text: null,
  attachment: fakePhoto,
  created_at: '2026-11-23T11:00:00.000Z',
})

/** Answers the conversation's reads: `first` to the first one, then `newer` once, then nothing. */
function messagesRoute(first: unknown[], newer: unknown[] = []) {
  const reads: ApiRequest[] = []
  const route = (request: ApiRequest) => {
    reads.push(request)
    return reads.length === 1 ? first : reads.length === 2 ? newer : []
  }
  return { reads, route }
}

describe('the conversation on the status page', () => {
  it('shows the messages oldest first, own on the other side, texts as text and the attachment’s facts', async () => {
    const { reads, route } = messagesRoute([fromSeller, mine])
    const api = fakeApiClient({ 'GET /transactions/tx-1': joined(), 'GET /transactions/tx-1/messages': route })
    await renderApp('/transactions/tx-1', { api })
    const card = await screen.findByTestId('conversation-card')
    const messages = await within(card).findAllByTestId('message')
    expect(messages.map((message) => message.dataset.mine)).toEqual(['false', 'true'])
    expect(messages[0]?.textContent).toContain('Seller · 23 Nov 2026')
    // Markup stays text: no <b> element is made of it.
    expect(within(messages[0] as HTMLElement).getByTestId('message-text').textContent).toBe('<b>not bold</b>\nsecond line')
    expect(messages[0]?.querySelector('b')).toBeNull()
    expect(messages[1]?.textContent).toContain('You (Buyer)')
    const attachment = within(messages[1] as HTMLElement).getByTestId('message-attachment')
    expect(within(attachment).getByRole('button', { name: 'Download cracked-frame.png' })).toBeTruthy()
    expect(within(attachment).getByTestId('attachment-facts').textContent).toBe('PNG, 1.2 MB')
    const hash = within(attachment).getByTestId('attachment-sha256-value')
    expect(hash.textContent).toBe('9f86d081884c…')
    expect(hash.getAttribute('title')).toBe(fakePhoto.sha256)
    expect(reads[0]?.query).toEqual({ after_id: undefined, limit: 100 })
  })

  it('downloads an attachment with the API client, as a blob', async () => {
    const downloads: ApiRequest[] = []
    const api = fakeApiClient({
      'GET /transactions/tx-1': joined(),
      'GET /transactions/tx-1/messages': [mine],
      'GET /transactions/tx-1/messages/m-2/attachment': (request: ApiRequest) => {
        downloads.push(request)
        return new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' })
      },
    })
    URL.createObjectURL = () => 'blob:fake'
    URL.revokeObjectURL = () => undefined
    await renderApp('/transactions/tx-1', { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Download cracked-frame.png' }))
    await waitFor(() => expect(downloads).toHaveLength(1))
    expect(downloads[0]?.responseType).toBe('blob')
  })

  it('says so when there are no messages yet, and sends a text as JSON, then reads what is newer', async () => {
    const posted: unknown[] = []
    const sent = fakeMessage({ id: 'm-9', author_role: 'buyer', mine: true, text: 'Is it still in one piece?' })
    const { reads, route } = messagesRoute([], [sent])
    const api = fakeApiClient({
      'GET /transactions/tx-1': joined(),
      'GET /transactions/tx-1/messages': route,
      'POST /transactions/tx-1/messages': (request: ApiRequest) => {
        posted.push(request.body)
        return sent
      },
    })
    await renderApp('/transactions/tx-1', { api })
    expect((await screen.findByTestId('conversation-empty')).textContent).toContain('No messages yet.')
    await userEvent.click(screen.getByTestId('message-send'))
    expect(await screen.findByText('Message: write something, or attach a file.')).toBeTruthy()
    expect(posted).toHaveLength(0)

    await userEvent.type(screen.getByLabelText('Your message'), '  Is it still in one piece?  ')
    await userEvent.click(screen.getByTestId('message-send'))
    await waitFor(() => expect(posted).toEqual([{ text: 'Is it still in one piece?' }]))
    expect((await screen.findByTestId('message-text')).textContent).toBe('Is it still in one piece?')
    expect((screen.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('')
    // The first read had nothing: the next one, after sending, still asks from the start.
    expect(reads[1]?.query).toEqual({ after_id: undefined, limit: 100 })
  })

  it('sends a file as multipart with the text, under the face-to-face prefix', async () => {
    const posted: unknown[] = []
    const { reads, route } = messagesRoute([fromSeller], [mine])
    const api = fakeApiClient({
      'GET /transactions/tx-1': fakeF2fTransaction({ status: 'complained', role: 'buyer', buyer_id: 'user-2', seller_id: 'user-1' }),
      'GET /p2p/transactions/tx-1/messages': route,
      'POST /p2p/transactions/tx-1/messages': (request: ApiRequest) => {
        posted.push(request.body)
        return mine
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await screen.findByTestId('message')
    const photo = new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'frame.png', { type: 'image/png' })
    await userEvent.upload(screen.getByLabelText('Attachment (JPEG, PNG or PDF)'), photo)
    expect(screen.getByTestId('message-file-chosen').textContent).toBe('frame.png (8 bytes)')
    await userEvent.type(screen.getByLabelText('Your message'), 'The crack, as it arrived')
    await userEvent.click(screen.getByTestId('message-send'))
    await waitFor(() => expect(posted).toHaveLength(1))
    const form = posted[0]
    expect(form).toBeInstanceOf(FormData)
    expect((form as FormData).get('text')).toBe('The crack, as it arrived')
    const file = (form as FormData).get('file') as File
    expect(file.name).toBe('frame.png')
    expect(file.size).toBe(8)
    // Read again after sending: only what is newer than the last message shown, appended.
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(2))
    expect(reads[1]?.query).toEqual({ after_id: 'm-1', limit: 100 })
  })

  it('refuses a file of another type or over 10 MB before sending it', async () => {
    const posted: unknown[] = []
    const api = fakeApiClient({
      'GET /transactions/tx-1': joined(),
      'GET /transactions/tx-1/messages': [],
      'POST /transactions/tx-1/messages': (request: ApiRequest) => posted.push(request.body),
    })
    await renderApp('/transactions/tx-1', { api })
    await screen.findByTestId('conversation-empty')
    const user = userEvent.setup({ applyAccept: false })
    const input = screen.getByLabelText('Attachment (JPEG, PNG or PDF)')
    await user.upload(input, new File(['GIF89a'], 'frame.gif', { type: 'image/gif' }))
    expect((await screen.findByTestId('message-file-help')).textContent).toBe('Attachment: only JPEG, PNG or PDF files.')

    const big = new File(['x'], 'huge.jpg', { type: 'image/jpeg' })
    Object.defineProperty(big, 'size', { value: 10_000_001 })
    await user.upload(input, big)
    await waitFor(() => expect(screen.getByTestId('message-file-help').textContent).toBe('Attachment: the file is larger than 10 MB.'))
    await user.click(screen.getByTestId('message-send'))
    expect(posted).toHaveLength(0)
  })

  it('keeps the text when the server refuses, and says why', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1': joined(),
      'GET /transactions/tx-1/messages': [],
      'POST /transactions/tx-1/messages': () => {
        throw apiError(429, 'rate_limited', 'Too many', { retry_after: 30 })
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await screen.findByTestId('conversation-empty')
    await userEvent.type(screen.getByLabelText('Your message'), 'Hello again')
    await userEvent.click(screen.getByTestId('message-send'))
    expect((await screen.findByTestId('message-send-error')).textContent).toBe('Too many attempts. Wait a minute and try again.')
    expect((screen.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('Hello again')
  })

  it('puts a refused file under the file field', async () => {
    const api = fakeApiClient({
      'GET /transactions/tx-1': joined(),
      'GET /transactions/tx-1/messages': [],
      'POST /transactions/tx-1/messages': () => {
        throw apiError(400, 'validation_failed', 'body.file: not an image', {
          field: 'body.file',
          fields: [{ field: 'body.file', message: 'x' }],
        })
      },
    })
    await renderApp('/transactions/tx-1', { api })
    await screen.findByTestId('conversation-empty')
    await userEvent.upload(
      screen.getByLabelText('Attachment (JPEG, PNG or PDF)'),
      new File(['%PDF'], 'receipt.pdf', { type: 'application/pdf' }),
    )
    await userEvent.click(screen.getByTestId('message-send'))
    await waitFor(() =>
      expect(screen.getByTestId('message-file-help').textContent).toBe(
        'Attachment: it was refused. Only real JPEG, PNG or PDF files are accepted.',
      ),
    )
    expect(screen.getByTestId('message-file-chosen').textContent).toContain('receipt.pdf')
  })

  it('shows an error with a retry when the conversation cannot be read', async () => {
    let calls = 0
    const api = fakeApiClient({
      'GET /transactions/tx-1': joined(),
      'GET /transactions/tx-1/messages': () => {
        calls += 1
        if (calls === 1) throw apiError(503, 'service_unavailable')
        return [fromSeller]
      },
    })
    await renderApp('/transactions/tx-1', { api })
    const error = await screen.findByTestId('conversation-error')
    await userEvent.click(within(error).getByTestId('error-retry'))
    expect(await screen.findByTestId('message')).toBeTruthy()
  })

  it('names the unread messages, and reads the transaction again once they are shown', async () => {
    let transactionReads = 0
    const api = fakeApiClient({
      'GET /transactions/tx-1': () => {
        transactionReads += 1
        return joined({ unread_messages: transactionReads === 1 ? 3 : 0 })
      },
      'GET /transactions/tx-1/messages': [fromSeller],
    })
    await renderApp('/transactions/tx-1', { api })
    expect((await screen.findByTestId('conversation-unread')).textContent).toBe('3 unread messages')
    await waitFor(() => expect(screen.queryByTestId('conversation-unread')).toBeNull())
    expect(transactionReads).toBe(2)
  })

  it('explains, until the other party takes part, that there is no one to write to yet', async () => {
    const api = fakeApiClient({ 'GET /transactions/tx-1': fakeTransaction({ role: 'seller', buyer_id: null }) })
    await renderApp('/transactions/tx-1', { api })
    expect((await screen.findByTestId('conversation-not-yet')).textContent).toBe(
      'You can write to the buyer here once they have joined the transaction.',
    )
    expect(api.request.mock.calls.some(([path]) => String(path).includes('/messages'))).toBe(false)
  })
})

describe('unread messages in My transactions', () => {
  it('shows the count on the row, with plurals', async () => {
    const api = fakeApiClient({
      'GET /me/transactions': [
        fakeTransactionSummary({ id: 'tx-1', unread_messages: 1 }),
        fakeTransactionSummary({ id: 'tx-2', unread_messages: 4 }),
        fakeTransactionSummary({ id: 'tx-3', unread_messages: 0 }),
      ],
    })
    await renderApp('/transactions', { api })
    const rows = await screen.findAllByTestId('transaction-row')
    expect(rows.map((row) => within(row).queryByTestId('transaction-row-unread')?.textContent ?? null)).toEqual([
      '1 unread message',
      '4 unread messages',
      null,
    ])
  })
})
