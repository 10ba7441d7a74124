import type { WebhookDelivery, WebhookEndpoint } from '@pactum/contracts/partner-webhooks'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()
const base = '/admin/clients/harbour/webhook_endpoints'
const endpointId = '0190f1a2-0000-4000-8000-00000000e001'
const page = '/admin/clients/harbour/webhooks'

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: endpointId,
  url: 'https://harbour.example/hooks',
  event_types: [],
  disabled_at: null,
  disabled_reason: null,
  created_at: '2026-11-20T10:00:00.000Z',
  ...overrides,
})

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  event_id: 'ev_2',
  type: 'transaction.paid',
  transaction_id: '0190f1a2-0000-4000-8000-000000000002',
  sequence: 3,
  status: 'failed',
  attempts: 4,
  next_attempt_at: null,
  delivered_at: null,
  request_body: JSON.stringify({
    type: 'transaction.paid',
    timestamp: '2026-11-21T09:59:59.000Z',
    data: { transaction: { id: '0190f1a2-0000-4000-8000-000000000002', status: 'paid' }, sequence: 3 },
  }),
  last_attempt: {
    attempted_at: '2026-11-21T10:00:00.000Z',
    duration_ms: 812,
    status_code: 503,
    error: null,
    response_body: 'upstream unavailable\nretry later',
  },
  ...overrides,
})

const clients = { 'GET /admin/clients': [{ client_id: 'harbour', name: 'Harbour' }] }

describe('the webhooks page of a partner client', () => {
  it('is linked from the clients page', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/clients': [
        {
          client_id: 'harbour',
          name: 'Harbour',
          url: null,
          background_color: '#1d3557',
          text_color: '#ffffff',
          routes: [],
          mobile_navbar_hidden: false,
          show_seller_confirm_handover: false,
          transactions: 0,
          in_clients_file: false,
          api_key_issued_at: null,
          updated_at: '2026-11-20T10:00:00Z',
        },
      ],
      'GET /admin/client_changes': [],
    })
    await renderApp('/admin/clients', { api })
    const link = await screen.findByRole('link', { name: 'Webhooks of Harbour' })
    expect(link.getAttribute('href')).toBe(page)
  })

  it('lists the endpoints: all events or the chosen ones, and when one was disabled', async () => {
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: [
        endpoint(),
        endpoint({
          id: '0190f1a2-0000-4000-8000-00000000e002',
          url: 'https://harbour.example/other',
          event_types: ['transaction.paid', 'transaction.released'],
          disabled_at: '2026-11-22T08:00:00.000Z',
          disabled_reason: 'every attempt failed for three days (last: HTTP 502)',
        }),
      ],
    })
    await renderApp(page, { api })
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks of Harbour' })).toBeTruthy()
    const [first, second] = (await screen.findAllByTestId('webhook-endpoint-row')) as [HTMLElement, HTMLElement]
    expect(within(first).getByText('All events')).toBeTruthy()
    expect(within(first).getByText('Active')).toBeTruthy()
    expect(within(first).queryByRole('button', { name: /^Enable/ })).toBeNull()
    expect(within(second).getByText(/transaction\.paid/)).toBeTruthy()
    expect(within(second).getByText('Disabled')).toBeTruthy()
    expect(within(second).getByText(/after three days of failed deliveries/)).toBeTruthy()
    expect(within(second).getByTestId('webhook-endpoint-disabled-reason').textContent).toBe(
      'every attempt failed for three days (last: HTTP 502)',
    )
    expect(within(second).getByRole('button', { name: 'Enable https://harbour.example/other again' })).toBeTruthy()
  })

  it('says when there is none, and when the list cannot be read', async () => {
    const empty = fakeApiClient({ ...admin, ...clients, [`GET ${base}`]: [] })
    const { unmount } = await renderApp(page, { api: empty })
    expect(await screen.findByTestId('webhook-endpoints-empty')).toBeTruthy()
    unmount()
    const failing = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: () => {
        throw apiError(500, 'internal_error')
      },
    })
    await renderApp(page, { api: failing })
    expect(await screen.findByRole('button', { name: /try again/i })).toBeTruthy()
  })

  it('adds an endpoint for chosen event types and shows its secret once', async () => {
    let endpoints: WebhookEndpoint[] = []
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: () => endpoints,
      [`POST ${base}`]: ({ body }: ApiRequest) => {
        const made = endpoint({ ...(body as { url: string }), event_types: ['transaction.paid'] })
        endpoints = [made]
        return { ...made, secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=' }
      },
    })
    await renderApp(page, { api })
    await screen.findByTestId('webhook-endpoints-empty')
    await userEvent.click(screen.getByRole('button', { name: 'Add an endpoint' }))
    const form = await screen.findByTestId('webhook-endpoint-form')
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(form).findByText('Enter an address starting with https:// or http://')).toBeTruthy()
    await userEvent.type(within(form).getByTestId('webhook-url'), 'https://harbour.example/hooks')
    await userEvent.click(within(form).getByRole('checkbox', { name: 'transaction.paid' }))
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    const secret = await screen.findByTestId('webhook-secret-dialog')
    expect(within(secret).getByText(/You will not see this secret again/)).toBeTruthy()
    expect((within(secret).getByTestId('webhook-secret-value') as HTMLTextAreaElement).value).toBe('whsec_c2VjcmV0LXNob3duLW9uY2U=')
    expect(api.request).toHaveBeenCalledWith(
      base,
      expect.objectContaining({ method: 'POST', body: { url: 'https://harbour.example/hooks', event_types: ['transaction.paid'] } }),
    )
    await userEvent.click(within(secret).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByTestId('webhook-secret-dialog')).toBeNull())
    expect(await screen.findByTestId('webhook-endpoint-row')).toBeTruthy()
    expect(screen.queryByText('whsec_c2VjcmV0LXNob3duLW9uY2U=')).toBeNull()
  })

  it('shows a refused private address on the address field', async () => {
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: [],
      [`POST ${base}`]: () => {
        throw apiError(400, 'validation_failed', 'url: 10.0.0.5 is a private address', {
          fields: [{ field: 'url', message: 'a private, loopback or link-local address' }],
        })
      },
    })
    await renderApp(page, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Add an endpoint' }))
    const form = await screen.findByTestId('webhook-endpoint-form')
    await userEvent.type(within(form).getByTestId('webhook-url'), 'http://10.0.0.5/hooks')
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(form).findByText(/Pactum only posts to public addresses/)).toBeTruthy()
    expect(within(form).getByTestId('webhook-url').getAttribute('aria-invalid')).toBe('true')
    expect(screen.queryByTestId('webhook-secret-dialog')).toBeNull()
  })

  it('rotates the secret after saying the old one works for 24 hours, and shows the new one once', async () => {
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: [endpoint()],
      [`POST ${base}/${endpointId}/rotate_secret`]: { ...endpoint(), secret: 'whsec_bmV3LXNlY3JldA==' },
    })
    await renderApp(page, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate secret of https://harbour.example/hooks' }))
    const confirm = await screen.findByTestId('webhook-rotate')
    expect(within(confirm).getByText(/keeps working for 24 hours/)).toBeTruthy()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }))
    const secret = await screen.findByTestId('webhook-secret-dialog')
    expect(within(secret).getByRole('heading', { name: 'The new signing secret' })).toBeTruthy()
    expect((within(secret).getByTestId('webhook-secret-value') as HTMLTextAreaElement).value).toBe('whsec_bmV3LXNlY3JldA==')
  })

  it('enables a disabled endpoint again', async () => {
    let disabled: string | null = '2026-11-22T08:00:00.000Z'
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: () => [endpoint({ disabled_at: disabled })],
      [`POST ${base}/${endpointId}/enable`]: () => {
        disabled = null
        return endpoint()
      },
    })
    await renderApp(page, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Enable https://harbour.example/hooks again' }))
    expect(await screen.findByText('Active')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith(`${base}/${endpointId}/enable`, expect.objectContaining({ method: 'POST' }))
  })

  it('deletes an endpoint after a confirmation', async () => {
    let endpoints = [endpoint()]
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: () => endpoints,
      [`DELETE ${base}/${endpointId}`]: () => {
        endpoints = []
        return undefined
      },
    })
    await renderApp(page, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Delete https://harbour.example/hooks' }))
    const confirm = await screen.findByTestId('webhook-delete')
    expect(within(confirm).getByText(/cannot be undone/)).toBeTruthy()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete endpoint' }))
    expect(await screen.findByTestId('webhook-endpoints-empty')).toBeTruthy()
  })

  it("shows an endpoint's deliveries, opens one's request and answer, and pages on", async () => {
    const firstPage = Array.from({ length: 25 }, (_, index) => delivery({ event_id: `ev_${100 - index}`, sequence: index + 1 }))
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: [endpoint()],
      [`GET ${base}/${endpointId}/deliveries`]: ({ query }: ApiRequest) =>
        (query as { before?: string }).before === 'ev_76'
          ? [delivery({ event_id: 'ev_1', type: 'transaction.created', status: 'delivered', delivered_at: '2026-11-20T10:00:01.000Z' })]
          : firstPage,
    })
    await renderApp(page, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Deliveries to https://harbour.example/hooks' }))
    const section = await screen.findByTestId('webhook-deliveries')
    const rows = await within(section).findAllByTestId('webhook-delivery-row')
    expect(rows).toHaveLength(25)
    const first = rows[0] as HTMLElement
    expect(within(first).getByText('transaction.paid')).toBeTruthy()
    expect(within(first).getByText('Failed')).toBeTruthy()
    expect(within(first).getByText('503')).toBeTruthy()
    expect(within(first).getByText('upstream unavailable')).toBeTruthy()
    expect(within(first).getByText(/took 812 ms/)).toBeTruthy()
    expect(within(first).getByText('4 attempts')).toBeTruthy()
    const toggle = within(first).getByRole('button', { name: 'Details' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await userEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const details = await within(section).findByTestId('webhook-delivery-details')
    expect(within(details).getByText('ev_100')).toBeTruthy()
    expect(within(details).getByText(/retry later/)).toBeTruthy()
    // The request as sent, laid out to be read.
    expect(within(details).getByTestId('webhook-delivery-request-body').textContent).toContain('"status": "paid"')
    await userEvent.click(within(section).getByRole('button', { name: 'Show more' }))
    expect(await within(section).findByText('transaction.created')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith(
      `${base}/${endpointId}/deliveries`,
      expect.objectContaining({ query: { limit: 25, before: 'ev_76' } }),
    )
  })

  it('says when an endpoint has had no delivery', async () => {
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: [endpoint()],
      [`GET ${base}/${endpointId}/deliveries`]: [],
    })
    await renderApp(`${page}?endpoint=${endpointId}`, { api })
    expect(await screen.findByTestId('webhook-deliveries-empty')).toBeTruthy()
  })

  it('replays one delivery, then a time range, and says how many were queued', async () => {
    const api = fakeApiClient({
      ...admin,
      ...clients,
      [`GET ${base}`]: [endpoint()],
      [`GET ${base}/${endpointId}/deliveries`]: [delivery()],
      [`POST ${base}/${endpointId}/replay`]: ({ body }: ApiRequest) => ({
        replayed: (body as { event_ids?: string[] }).event_ids ? 1 : 7,
      }),
    })
    await renderApp(`${page}?endpoint=${endpointId}`, { api })
    await userEvent.click(await screen.findByRole('button', { name: 'Replay transaction.paid, number 3' }))
    const status = screen.getByTestId('webhook-replay-status')
    expect(await within(status).findByText('1 event queued to be sent again.')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith(
      `${base}/${endpointId}/replay`,
      expect.objectContaining({ method: 'POST', body: { event_ids: ['ev_2'] } }),
    )

    await userEvent.click(screen.getByRole('button', { name: 'Replay a time range' }))
    const dialog = await screen.findByTestId('webhook-replay-range')
    // It offers the last day; the admin picks another range.
    expect((within(dialog).getByTestId('webhook-replay-from') as HTMLInputElement).value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/)
    await userEvent.clear(within(dialog).getByTestId('webhook-replay-from'))
    await userEvent.clear(within(dialog).getByTestId('webhook-replay-to'))
    await userEvent.type(within(dialog).getByTestId('webhook-replay-from'), '2026-11-21T12:00')
    await userEvent.type(within(dialog).getByTestId('webhook-replay-to'), '2026-11-21T10:00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay' }))
    expect(await within(dialog).findByText('Must be after the start')).toBeTruthy()
    await userEvent.clear(within(dialog).getByTestId('webhook-replay-to'))
    await userEvent.type(within(dialog).getByTestId('webhook-replay-to'), '2026-11-21T14:00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay' }))
    await waitFor(() => expect(screen.queryByTestId('webhook-replay-range')).toBeNull())
    expect(await within(status).findByText('7 events queued to be sent again.')).toBeTruthy()
    expect(api.request).toHaveBeenCalledWith(
      `${base}/${endpointId}/replay`,
      expect.objectContaining({
        body: { from: new Date('2026-11-21T12:00').toISOString(), to: new Date('2026-11-21T14:00').toISOString() },
      }),
    )
  })
})
