import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiRequest } from '../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../test/fake-api-client.ts'
import { adminRoutes } from '../test/fake-admin.ts'
import { fakeCase } from '../test/fake-case.ts'
import { renderApp } from '../test/render-app.tsx'

const id = '019a0000-0000-7000-8000-00000000ca5e'
const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' })
const complained = fakeTransaction({
  id,
  status: 'complained',
  role: 'buyer',
  price: 10_000,
  complaint: { description: 'The frame arrived cracked' },
  available_actions: [],
})

/** What the button handed to the browser to save: the object URL's file and the link's name. */
function watchDownloads() {
  const saved: Array<{ file: Blob; name: string }> = []
  let lastFile: Blob | null = null
  vi.spyOn(URL, 'createObjectURL').mockImplementation((file) => {
    lastFile = file as Blob
    return 'blob:case-file'
  })
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.href === 'blob:case-file' && lastFile) saved.push({ file: lastFile, name: this.download })
  })
  return { saved, revoke }
}

describe('the case file download', () => {
  afterEach(() => vi.restoreAllMocks())

  it('fetches the party’s case file in the interface language, shows that it is preparing, and saves the PDF', async () => {
    const { saved, revoke } = watchDownloads()
    const requests: ApiRequest[] = []
    let answer: (file: Blob) => void = () => {}
    const api = fakeApiClient({
      [`GET /transactions/${id}`]: complained,
      [`GET /transactions/${id}/case`]: fakeCase({ transaction_id: id }),
      [`GET /transactions/${id}/case_file`]: (request: ApiRequest) => {
        requests.push(request)
        return new Promise<Blob>((resolve) => (answer = resolve))
      },
    })
    await renderApp(`/transactions/${id}`, { api })
    const card = await screen.findByTestId('case-card')
    const button = await within(card).findByTestId('case-file-download')
    expect(button.textContent).toBe('Download case file (PDF)')

    await userEvent.click(button)
    await waitFor(() => expect(button.textContent).toBe('Preparing the case file…'))
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect(requests[0]).toMatchObject({ query: { lang: 'en_gb' }, responseType: 'blob' })

    answer(pdf)
    await waitFor(() => expect(saved).toEqual([{ file: pdf, name: 'pactum-case-00000000ca5e.pdf' }]))
    await waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:case-file'))
    expect(button.textContent).toBe('Download case file (PDF)')
    expect((button as HTMLButtonElement).disabled).toBe(false)
  })

  it('asks the face-to-face path for a face-to-face sale', async () => {
    const { saved } = watchDownloads()
    const f2f = fakeF2fTransaction({
      id,
      status: 'complained',
      role: 'buyer',
      buyer_id: 'b',
      seller_id: 's',
      complaint: { description: 'The lens is scratched' },
      available_actions: [],
    })
    const api = fakeApiClient({
      // The status page reads both kinds through /transactions/{id}; the case and its file live under /p2p.
      [`GET /transactions/${id}`]: f2f,
      [`GET /p2p/transactions/${id}/case`]: fakeCase({ transaction_id: id }),
      [`GET /p2p/transactions/${id}/case_file`]: pdf,
    })
    await renderApp(`/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('case-file-download'))
    await waitFor(() => expect(saved).toHaveLength(1))
  })

  it('says so when the file cannot be downloaded, and saves nothing', async () => {
    const { saved } = watchDownloads()
    const api = fakeApiClient({
      [`GET /transactions/${id}`]: complained,
      [`GET /transactions/${id}/case`]: fakeCase({ transaction_id: id }),
      [`GET /transactions/${id}/case_file`]: () => {
        throw apiError(404, 'not_found')
      },
    })
    await renderApp(`/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('case-file-download'))
    expect((await screen.findByTestId('case-file-error')).textContent).toBe('The case file could not be downloaded. Please try again.')
    expect(saved).toEqual([])
  })

  it('is in the admin console’s case section, asking the admin path', async () => {
    const { saved } = watchDownloads()
    const detail: AdminTransactionDetail = {
      transaction: fakeTransaction({ id, status: 'complained', role: null, complaint: { description: 'x' } }),
      case: fakeCase({ transaction_id: id }),
      buyer_email: 'buyer@example.com',
      seller_email: 'seller@example.com',
      fraud_warning: null,
      available_steps: [],
      events: [],
      ledger_entries: [],
      provider_events: [],
      notifications: [],
    }
    const api = fakeApiClient({
      ...adminRoutes(),
      [`GET /admin/transactions/${id}`]: detail,
      [`GET /admin/transactions/${id}/case_file`]: pdf,
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    const section = await screen.findByTestId('admin-case')
    await userEvent.click(within(section).getByTestId('case-file-download'))
    await waitFor(() => expect(saved).toEqual([{ file: pdf, name: 'pactum-case-00000000ca5e.pdf' }]))
  })
})

describe('the receipt download', () => {
  afterEach(() => vi.restoreAllMocks())
  const paid = fakeTransaction({
    id,
    status: 'paid',
    role: 'buyer',
    price: 10_000,
    paid: '2026-11-23T10:00:00.000Z',
    available_actions: [],
  })

  it('is on a paid sale’s status page and saves the party’s receipt in the interface language', async () => {
    const { saved } = watchDownloads()
    const requests: ApiRequest[] = []
    const api = fakeApiClient({
      [`GET /transactions/${id}`]: paid,
      [`GET /transactions/${id}/receipt`]: (request: ApiRequest) => {
        requests.push(request)
        return pdf
      },
    })
    await renderApp(`/transactions/${id}`, { api })
    const button = await screen.findByTestId('receipt-download')
    expect(button.textContent).toBe('Download receipt (PDF)')
    await userEvent.click(button)
    await waitFor(() => expect(saved).toEqual([{ file: pdf, name: 'pactum-receipt-00000000ca5e.pdf' }]))
    expect(requests[0]).toMatchObject({ query: { lang: 'en_gb' }, responseType: 'blob' })
  })

  it('is not offered before the buyer has paid', async () => {
    const api = fakeApiClient({
      [`GET /transactions/${id}`]: fakeTransaction({ id, status: 'joined', role: 'buyer', paid: null, available_actions: [] }),
    })
    await renderApp(`/transactions/${id}`, { api })
    await screen.findByTestId('transaction-role')
    expect(screen.queryByTestId('receipt-download')).toBeNull()
  })

  it('asks the face-to-face path once the deposit is paid, and says so when the download fails', async () => {
    const { saved } = watchDownloads()
    const f2f = fakeF2fTransaction({
      id,
      status: 'deposit_paid',
      role: 'seller',
      buyer_id: 'b',
      seller_id: 's',
      deposit_paid: '2026-11-23T10:00:00.000Z',
      available_actions: [],
    })
    const api = fakeApiClient({
      [`GET /transactions/${id}`]: f2f,
      [`GET /p2p/transactions/${id}/receipt`]: () => {
        throw apiError(409, 'not_paid')
      },
    })
    await renderApp(`/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('receipt-download'))
    expect((await screen.findByTestId('receipt-error')).textContent).toBe('The receipt could not be downloaded. Please try again.')
    expect(saved).toEqual([])
  })

  it('is in the admin console’s summary, asking the admin path', async () => {
    const { saved } = watchDownloads()
    const detail: AdminTransactionDetail = {
      transaction: { ...paid, role: null },
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
    const api = fakeApiClient({
      ...adminRoutes(),
      [`GET /admin/transactions/${id}`]: detail,
      [`GET /admin/transactions/${id}/receipt`]: pdf,
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('receipt-download'))
    await waitFor(() => expect(saved).toEqual([{ file: pdf, name: 'pactum-receipt-00000000ca5e.pdf' }]))
  })
})
