import type { AdminTransactionDetail } from '@pactum/contracts/admin'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient, fakeF2fTransaction, fakeTransaction } from '../../test/fake-api-client.ts'
import { adminRoutes, fakeOperator } from '../../test/fake-admin.ts'
import { fakeCase } from '../../test/fake-case.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()

const id = '019a0000-0000-7000-8000-00000000c0de'

function detail(overrides: Partial<AdminTransactionDetail> = {}): AdminTransactionDetail {
  return {
    transaction: fakeTransaction({ id, status: 'complained', price: 10_000, charge: 340, currency: 'eur', role: null }),
    case: null,
    buyer_email: 'buyer@example.com',
    seller_email: 'seller@example.com',
    fraud_warning: null,
    available_steps: ['release_to_seller', 'refund_buyer'],
    events: [
      {
        id: '7',
        transaction_id: id,
        event: 'complain',
        actor_kind: 'buyer',
        actor_user_id: 'u-b',
        actor_email: 'buyer@example.com',
        reason: null,
        from_status: 'delivered',
        to_status: 'complained',
        created_at: '2026-11-02T10:00:00Z',
      },
    ],
    ledger_entries: [
      {
        id: 'e-1',
        kind: 'hold',
        part: 'payment',
        reason: 'payment succeeded',
        created_at: '2026-11-01T10:00:00Z',
        postings: [
          { account: 'buyer_funding', amount: -10_340, currency: 'eur' },
          { account: `escrow:${id}`, amount: 10_340, currency: 'eur' },
        ],
      },
    ],
    provider_events: [
      {
        id: 'p-1',
        provider: 'sandbox',
        event_id: 'evt_1',
        type: 'payment_intent.succeeded',
        created: '2026-11-01T10:00:00Z',
        received_at: '2026-11-01T10:00:01Z',
        processed_at: '2026-11-01T10:00:01Z',
      },
    ],
    notifications: [
      {
        id: 'n-1',
        template: 'complained',
        recipient_role: 'seller',
        language: 'en_gb',
        status: 'sent',
        created_at: '2026-11-02T10:00:00Z',
        sent_at: '2026-11-02T10:00:05Z',
        failure: null,
      },
      {
        id: 'n-2',
        template: 'paid',
        recipient_role: 'buyer',
        language: 'en_gb',
        status: 'undeliverable',
        created_at: '2026-11-02T10:00:00Z',
        sent_at: null,
        failure: 'SMTP RCPT failed: 550 5.1.1 No such user',
      },
    ],
    ...overrides,
  }
}

describe('the admin console', () => {
  it('tells a signed-in non-admin they are not allowed, and shows them no admin entry', async () => {
    const api = fakeApiClient({ 'GET /me': fakeOperator([]), 'GET /me/transactions': [] })
    await renderApp('/admin', { api })
    expect((await screen.findByTestId('admin-not-allowed'))?.textContent).toContain('only for administrators')
    expect(screen.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeTruthy()
    expect(screen.queryAllByTestId('menu-admin')).toHaveLength(0)
    expect(api.request).not.toHaveBeenCalledWith('/admin/transactions', expect.anything())
  })

  it('asks an unconfirmed ADMIN_EMAILS address to confirm first, and sends the link again', async () => {
    const api = fakeApiClient({
      'GET /me': fakeOperator([], ['admin']),
      'GET /me/transactions': [],
      'POST /me/email_confirmation': { email: 'ops@example.com' },
    })
    await renderApp('/admin', { api })
    expect((await screen.findByTestId('admin-confirm-address-first')).textContent).toContain('ops@example.com')
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your e-mail address first' })).toBeTruthy()
    expect(screen.queryAllByTestId('admin-not-allowed')).toHaveLength(0)
    await userEvent.click(screen.getByTestId('admin-resend-confirmation'))
    expect((await screen.findByTestId('admin-confirmation-sent')).textContent).toContain('We sent a new link to ops@example.com')
    expect(api.request).toHaveBeenCalledWith('/me/email_confirmation', expect.objectContaining({ method: 'POST' }))
    expect(api.request).not.toHaveBeenCalledWith('/admin/transactions', expect.anything())
  })

  it('sends a confirmed ADMIN_EMAILS address without a second factor to set one up on the Account page', async () => {
    const api = fakeApiClient({ 'GET /me': fakeOperator([], ['admin'], ['second_factor']), 'GET /me/transactions': [] })
    await renderApp('/admin', { api })
    expect((await screen.findByTestId('admin-second-factor-first')).textContent).toContain('asks for a second factor')
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in with a second factor' })).toBeTruthy()
    expect(screen.queryAllByTestId('admin-confirm-address-first')).toHaveLength(0)
    expect(screen.getByTestId('admin-set-up-second-factor').getAttribute('href')).toBe('/profile/help/account')
    expect(api.request).not.toHaveBeenCalledWith('/admin/transactions', expect.anything())
  })

  it('lists every transaction for an admin, filters on the server and pages after the last id', async () => {
    const first = Array.from({ length: 50 }, (_, index) => fakeTransaction({ id: `tx-${index}`, status: 'paid' }))
    const api = fakeApiClient({
      ...admin,
      'GET /admin/transactions': ({ query }: ApiRequest) =>
        query?.after_id ? [fakeF2fTransaction({ id: 'tx-f2f', status: 'deposit_paid' })] : query?.search ? [] : first,
    })
    await renderApp('/admin', { api })
    expect(await screen.findAllByTestId('admin-transaction-row')).toHaveLength(50)
    expect((await screen.findAllByTestId('menu-admin')).length).toBeGreaterThan(0)
    expect(screen.getAllByTestId('admin-transaction-row')[0]?.textContent).toContain('€12.34')

    await userEvent.click(screen.getByTestId('admin-load-more'))
    await waitFor(() => expect(screen.getAllByTestId('admin-transaction-row')).toHaveLength(51))
    expect(api.request).toHaveBeenLastCalledWith(
      '/admin/transactions',
      expect.objectContaining({ query: expect.objectContaining({ limit: 50, after_id: 'tx-49' }) }),
    )
    expect(screen.getAllByTestId('admin-transaction-row')[50]?.textContent).toContain('Face to face')

    await userEvent.type(screen.getByTestId('admin-search'), ' Buyer@Example.com ')
    await userEvent.type(screen.getByLabelText('Currency'), 'EUR')
    await userEvent.click(screen.getByTestId('admin-apply-filters'))
    expect(await screen.findByTestId('admin-transactions-empty')).toBeTruthy()
    expect(api.request).toHaveBeenLastCalledWith(
      '/admin/transactions',
      expect.objectContaining({
        query: expect.objectContaining({ search: 'Buyer@Example.com', currency: 'eur', type: undefined, after_id: undefined }),
      }),
    )
  })

  it('refuses a filter the API would refuse, without calling it', async () => {
    const api = fakeApiClient({ ...admin, 'GET /admin/transactions': [] })
    await renderApp('/admin', { api })
    await screen.findByTestId('admin-transactions-empty')
    const calls = api.request.mock.calls.length
    await userEvent.type(screen.getByLabelText('Currency'), 'euro')
    await userEvent.click(screen.getByTestId('admin-apply-filters'))
    expect(await screen.findByText('Check this value')).toBeTruthy()
    expect(api.request.mock.calls.length).toBe(calls)
  })

  it('shows one transaction’s complaint, history, ledger entries, provider events and e-mails', async () => {
    const complaint = fakeCase({ transaction_id: id, state: 'escalated', escalated_at: '2026-11-26T10:00:00.000Z' })
    const api = fakeApiClient({ ...admin, [`GET /admin/transactions/${id}`]: detail({ case: complaint }) })
    await renderApp(`/admin/transactions/${id}`, { api })
    const history = await screen.findByTestId('admin-history')
    expect(screen.getByText('Damaged: The frame arrived cracked')).toBeTruthy()
    expect(history?.textContent).toContain('complain')
    expect(history?.textContent).toContain('delivered → complained')
    expect(screen.getByTestId('admin-ledger-entries')?.textContent).toContain(`escrow:${id}`)
    expect(screen.getByTestId('admin-ledger-entries')?.textContent).toContain('€103.40')
    expect(screen.getByTestId('admin-provider-events')?.textContent).toContain('payment_intent.succeeded')
    expect(screen.getByTestId('admin-emails')?.textContent).toContain('complained')
    expect(screen.getByTestId('admin-emails')?.textContent).toContain('Seller (en_gb)')
    // An e-mail the mail server refused for good says so, with the server's reply.
    expect(screen.getByTestId('admin-emails')?.textContent).toContain('Refused by the mail server')
    expect(screen.getByTestId('admin-emails')?.textContent).toContain('550 5.1.1 No such user')
  })

  it('names a partner client, not the system, as who took a step by its API key', async () => {
    const cancelled = {
      id: '8',
      transaction_id: id,
      event: 'cancel',
      actor_kind: 'partner',
      actor_user_id: null,
      actor_email: null,
      reason: null,
      from_status: 'joined',
      to_status: 'cancelled',
      created_at: '2026-11-02T10:00:00Z',
    }
    const api = fakeApiClient({ ...admin, [`GET /admin/transactions/${id}`]: detail({ events: [cancelled] }) })
    await renderApp(`/admin/transactions/${id}`, { api })
    const history = await screen.findByTestId('admin-history')
    expect(history.textContent).toContain('Partner client (API key)')
    expect(history.textContent).not.toContain('System')
  })

  it('refunds the buyer only after a confirmation that repeats the amount and needs a reason', async () => {
    const calls: ApiRequest[] = []
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail(),
      [`POST /admin/transactions/${id}/release_funds`]: (request: ApiRequest) => {
        calls.push(request)
        return fakeTransaction({ id, status: 'payment_refunded' })
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('admin-release-buyer'))
    const dialog = await screen.findByTestId('admin-action-dialog')
    expect(within(dialog).getByTestId('admin-action-summary')?.textContent).toContain(
      '€103.40 held in escrow goes back to the buyer, buyer@example.com',
    )

    await userEvent.click(within(dialog).getByTestId('admin-action-dialog-confirm'))
    expect(await within(dialog).findByText('Give a reason')).toBeTruthy()
    expect(calls).toHaveLength(0)

    await userEvent.type(within(dialog).getByTestId('admin-action-reason'), 'Photos show the damage')
    await userEvent.click(within(dialog).getByTestId('admin-action-dialog-confirm'))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toMatchObject({
      method: 'POST',
      query: { to: 'buyer' },
      body: { reason: 'Photos show the damage' },
      headers: { 'Idempotency-Key': expect.any(String) },
    })
    await waitFor(() => expect(screen.queryByTestId('admin-action-dialog')).toBeNull())
  })

  it('says why an action was refused and keeps the dialog open', async () => {
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail(),
      [`POST /admin/transactions/${id}/release_funds`]: () => {
        throw apiError(409, 'funds_already_released')
      },
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await userEvent.click(await screen.findByTestId('admin-release-seller'))
    const dialog = await screen.findByTestId('admin-action-dialog')
    expect(within(dialog).getByTestId('admin-action-summary')?.textContent).toContain('goes to the seller, seller@example.com')
    await userEvent.type(within(dialog).getByTestId('admin-action-reason'), 'As described')
    await userEvent.click(within(dialog).getByTestId('admin-action-dialog-confirm'))
    expect(await within(dialog).findByRole('alert')).toBeTruthy()
    expect(screen.getByTestId('admin-action-dialog')).toBeTruthy()
  })

  it('offers no action on a finished transaction', async () => {
    const api = fakeApiClient({
      ...admin,
      [`GET /admin/transactions/${id}`]: detail({ transaction: fakeTransaction({ id, status: 'funds_released' }), available_steps: [] }),
    })
    await renderApp(`/admin/transactions/${id}`, { api })
    await screen.findByTestId('admin-history')
    expect(screen.queryByTestId('admin-actions')).toBeNull()
  })

  it('shows the ledger checks passing, with what was checked', async () => {
    const api = fakeApiClient({ ...admin, 'GET /admin/ledger/verify': { ok: true, breaches: [] } })
    await renderApp('/admin/ledger', { api })
    expect((await screen.findByTestId('ledger-ok'))?.textContent).toContain('All checks passed')
    expect(screen.getByText('No escrow account ever goes below zero')).toBeTruthy()
  })

  it('shows each ledger breach with its transaction', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/ledger/verify': {
        ok: false,
        breaches: [
          { rule: 'escrow_negative', transaction_id: id, detail: `escrow:${id} at -5 after entry e-9` },
          { rule: 'entry_unbalanced', transaction_id: null, detail: 'entry e-3 sums to 2 eur' },
        ],
      },
    })
    await renderApp('/admin/ledger', { api })
    const breaches = await screen.findAllByTestId('ledger-breach')
    expect(breaches).toHaveLength(2)
    expect(breaches[0]?.textContent).toContain(`No escrow account ever goes below zero: escrow:${id} at -5 after entry e-9`)
    expect(
      within(breaches[0] as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    ).toBe(`/admin/transactions/${id}`)
    expect(screen.getByTestId('ledger-breaches')?.textContent).toContain('Breaches found: 2')
  })

  it('lists the audit log and says when it is empty', async () => {
    const api = fakeApiClient({ ...admin, 'GET /admin/audit_log': [] })
    await renderApp('/admin/audit-log', { api })
    expect((await screen.findByTestId('admin-audit-empty'))?.textContent).toContain('No administrator has acted yet.')
  })

  it('lists a step on a transaction and a reconciliation difference explained, each linking to what it was about', async () => {
    const common = {
      actor_kind: 'admin',
      actor_user_id: 'u-a',
      actor_email: 'admin@example.com',
      created_at: '2026-11-21T09:00:00Z',
    }
    const api = fakeApiClient({
      ...admin,
      'GET /admin/audit_log': [
        {
          ...common,
          id: '12',
          transaction_id: null,
          reconciliation_difference: { id: 'd-1', day: '2026-11-20', movement: 'transfer', provider_id: 'tr_stray', currency: 'eur' },
          event: 'explain_difference',
          reason: 'A test transfer made by hand',
          from_status: 'open',
          to_status: 'explained',
        },
        {
          ...common,
          id: '11',
          transaction_id: id,
          reconciliation_difference: null,
          event: 'release_funds',
          reason: 'Photos show it arrived whole',
          from_status: 'complained',
          to_status: 'funds_released',
        },
      ],
    })
    await renderApp('/admin/audit-log', { api })
    const [explained, released] = await screen.findAllByTestId('admin-audit-row')
    expect(screen.getByRole('columnheader', { name: 'Subject' })).toBeTruthy()
    expect(explained?.textContent).toContain('Reconciliation difference explained')
    expect(explained?.textContent).toContain('A test transfer made by hand')
    expect(
      within(explained as HTMLElement)
        .getByRole('link', { name: 'Difference of 2026-11-20 (EUR)' })
        .getAttribute('href'),
    ).toBe('/admin/reconciliation?date=2026-11-20')
    expect(released?.textContent).toContain('release_funds')
    expect(
      within(released as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    ).toBe(`/admin/transactions/${id}`)
  })

  it('shows a load error with a retry', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/clients': () => {
        throw apiError(503, 'service_unavailable')
      },
    })
    await renderApp('/admin/clients', { api })
    expect(await screen.findByTestId('error-retry')).toBeTruthy()
  })
})
