import type { AdminClient, ClientChange } from '@pactum/contracts/admin'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { fakeApiClient } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()

function client(overrides: Partial<AdminClient> = {}): AdminClient {
  return {
    client_id: 'demo-marketplace',
    name: 'Demo marketplace',
    url: 'https://demo-marketplace.example',
    background_color: '#1d3557',
    text_color: '#ffffff',
    routes: [],
    mobile_navbar_hidden: true,
    show_seller_confirm_handover: false,
    contact_email: null,
    transactions: 3,
    in_clients_file: true,
    api_key_issued_at: null,
    updated_at: '2026-11-20T10:00:00Z',
    ...overrides,
  }
}

const change: ClientChange = {
  id: '4',
  client_id: 'demo-marketplace',
  action: 'seeded_from_file',
  actor_kind: 'configuration',
  actor_email: null,
  settings: null,
  created_at: '2026-11-20T10:00:00Z',
}

describe('the partner clients page', () => {
  it('lists the clients with their key and the changes made to them', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/clients': [
        client(),
        client({
          client_id: 'harbour',
          name: 'Harbour',
          in_clients_file: false,
          api_key_issued_at: '2026-11-21T09:30:00Z',
          routes: ['/transactions'],
        }),
      ],
      'GET /admin/client_changes': [
        { ...change, id: '5', client_id: 'harbour', action: 'api_key_issued', actor_kind: 'admin', actor_email: 'ops@example.com' },
        change,
      ],
    })
    await renderApp('/admin/clients', { api })
    const [demo, harbour] = await screen.findAllByTestId('admin-client-row')
    expect(demo?.textContent).toContain('demo-marketplace')
    expect(demo?.textContent).toContain('clients file')
    expect(demo?.textContent).toContain('#1d3557 / #ffffff')
    expect(demo?.textContent).toContain('Hidden')
    expect(demo?.textContent).toContain('All')
    expect(within(demo as HTMLElement).getByTestId('admin-client-api-key').textContent).toBe('None')
    expect(
      within(demo as HTMLElement)
        .getByRole('link', { name: 'Demo marketplace' })
        .getAttribute('href'),
    ).toBe('https://demo-marketplace.example')
    expect(within(demo as HTMLElement).queryByTestId('admin-client-revoke-key')).toBeNull()
    expect(within(harbour as HTMLElement).getByTestId('admin-client-api-key').textContent).toMatch(/^Issued /)
    expect(within(harbour as HTMLElement).getByRole('button', { name: 'Revoke key of Harbour' })).toBeTruthy()

    const changes = await screen.findAllByTestId('admin-client-change')
    expect(changes[0]?.textContent).toContain('ops@example.com')
    expect(changes[0]?.textContent).toContain('API key issued')
    expect(changes[1]?.textContent).toContain('Clients file')
    expect(changes[1]?.textContent).toContain('Settings taken from the clients file')
  })

  it('adds a client, checking each field before sending and putting the server’s refusal on its field', async () => {
    const user = userEvent.setup()
    const sent: ApiRequest[] = []
    let taken = true
    const api = fakeApiClient({
      ...admin,
      'GET /admin/clients': [client()],
      'GET /admin/client_changes': [],
      'POST /admin/clients': (request: ApiRequest) => {
        sent.push(request)
        if (taken)
          throw new ApiError({
            status: 409,
            code: 'client_exists',
            message: 'exists',
            requestId: 't',
            details: { field: 'body.client_id' },
          })
        return client({ client_id: 'harbour', name: 'Harbour' })
      },
    })
    await renderApp('/admin/clients', { api })
    await user.click(await screen.findByTestId('admin-client-add'))
    const dialog = await screen.findByTestId('client-form')
    await user.type(within(dialog).getByTestId('client-client-id'), 'Harbour Market')
    await user.type(within(dialog).getByTestId('client-name'), 'Harbour')
    await user.clear(within(dialog).getByTestId('client-background-color'))
    await user.type(within(dialog).getByTestId('client-background-color'), 'navy')
    await user.type(within(dialog).getByTestId('client-routes'), 'transactions')
    await user.type(within(dialog).getByTestId('client-contact-email'), 'dev at harbour')
    await user.click(within(dialog).getByTestId('client-form-confirm'))
    expect(await within(dialog).findByText(/Use lower-case letters, digits and dashes/)).toBeTruthy()
    expect(within(dialog).getByText('Enter an e-mail address, or leave it empty')).toBeTruthy()
    expect(within(dialog).getByText('Enter a hex colour such as #1d3557')).toBeTruthy()
    expect(within(dialog).getByText(/Each page starts with \//)).toBeTruthy()
    expect(within(dialog).getByText(/Enter an address starting with https:\/\//)).toBeTruthy()
    expect(sent).toHaveLength(0)

    await user.clear(within(dialog).getByTestId('client-client-id'))
    await user.type(within(dialog).getByTestId('client-client-id'), 'harbour')
    await user.clear(within(dialog).getByTestId('client-background-color'))
    await user.type(within(dialog).getByTestId('client-background-color'), '#ffeecc')
    // Too faint: the preview says which colour the app will use instead.
    expect((await within(dialog).findByTestId('client-contrast-warning')).textContent).toContain('#000000')
    await user.clear(within(dialog).getByTestId('client-url'))
    await user.type(within(dialog).getByTestId('client-url'), 'https://harbour.example/')
    await user.clear(within(dialog).getByTestId('client-routes'))
    await user.type(within(dialog).getByTestId('client-routes'), '/transactions{Enter}/transaction/*')
    await user.clear(within(dialog).getByTestId('client-contact-email'))
    await user.type(within(dialog).getByTestId('client-contact-email'), ' dev@harbour.example ')
    await user.click(within(dialog).getByTestId('client-form-confirm'))
    expect(await within(dialog).findByText('A client with this ID exists already. Choose another ID.')).toBeTruthy()
    expect(sent[0]?.body).toEqual({
      client_id: 'harbour',
      name: 'Harbour',
      background_color: '#ffeecc',
      text_color: '#ffffff',
      url: 'https://harbour.example/',
      routes: ['/transactions', '/transaction/*'],
      mobile_navbar_hidden: false,
      show_seller_confirm_handover: true,
      contact_email: 'dev@harbour.example',
    })

    taken = false
    await user.click(within(dialog).getByTestId('client-form-confirm'))
    await waitFor(() => expect(screen.queryByTestId('client-form')).toBeNull())
    expect(await screen.findByText('Harbour added')).toBeTruthy()
  })

  it('edits a client with its id fixed and says the clients file can replace the change', async () => {
    const user = userEvent.setup()
    const sent: ApiRequest[] = []
    const api = fakeApiClient({
      ...admin,
      'GET /admin/clients': [client()],
      'GET /admin/client_changes': [],
      'PUT /admin/clients/demo-marketplace': (request: ApiRequest) => {
        sent.push(request)
        return client({ name: 'Demo 2' })
      },
    })
    await renderApp('/admin/clients', { api })
    await user.click(await screen.findByRole('button', { name: 'Edit Demo marketplace' }))
    const dialog = await screen.findByTestId('client-form')
    expect((within(dialog).getByTestId('client-client-id') as HTMLInputElement).disabled).toBe(true)
    expect(within(dialog).getByTestId('client-in-file-note')).toBeTruthy()
    await user.clear(within(dialog).getByTestId('client-name'))
    await user.type(within(dialog).getByTestId('client-name'), 'Demo 2')
    await user.click(within(dialog).getByTestId('client-show-seller-confirm-handover'))
    await user.click(within(dialog).getByTestId('client-form-confirm'))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]?.body).toMatchObject({ name: 'Demo 2', show_seller_confirm_handover: true, routes: [] })
    expect(sent[0]?.body).not.toHaveProperty('client_id')
  })

  it('issues a key, shows it once, and revokes it after a confirmation', async () => {
    const user = userEvent.setup()
    let issuedAt: string | null = null
    let revoked = 0
    const api = fakeApiClient({
      ...admin,
      'GET /admin/clients': () => [client({ api_key_issued_at: issuedAt })],
      'GET /admin/client_changes': [],
      'POST /admin/clients/demo-marketplace/api_key': () => {
        issuedAt = '2026-11-24T09:00:00Z'
        return { api_key: 'demo-marketplace.s3cr3t', issued_at: issuedAt }
      },
      'DELETE /admin/clients/demo-marketplace/api_key': () => {
        revoked += 1
        issuedAt = null
        return undefined
      },
    })
    await renderApp('/admin/clients', { api })
    await user.click(await screen.findByRole('button', { name: 'Issue key for Demo marketplace' }))
    await user.click(await screen.findByTestId('client-api-key-issue-confirm'))
    const shown = await screen.findByTestId('client-api-key-issued')
    expect((within(shown).getByTestId('client-api-key-value') as HTMLTextAreaElement).value).toBe('demo-marketplace.s3cr3t')
    expect(shown.textContent).toContain('cannot show it again')
    await user.click(within(shown).getByTestId('client-api-key-done'))
    await waitFor(() => expect(screen.queryByTestId('client-api-key-issued')).toBeNull())
    expect(screen.queryByText('demo-marketplace.s3cr3t')).toBeNull()

    // A second key replaces the first: the confirmation says so.
    await user.click(await screen.findByRole('button', { name: 'New key for Demo marketplace' }))
    expect((await screen.findByTestId('client-api-key-issue')).textContent).toContain('stops working at once')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))

    await user.click(await screen.findByRole('button', { name: 'Revoke key of Demo marketplace' }))
    await user.click(await screen.findByTestId('client-api-key-revoke-confirm'))
    await waitFor(() => expect(revoked).toBe(1))
    expect(await screen.findByText('The API key of Demo marketplace is revoked')).toBeTruthy()
  })
})
