import type { DevMail, DevMailSummary } from '@pactum/contracts/dev-mailbox'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { apiError, fakeApiClient } from '../../test/fake-api-client.ts'
import { adminRoutes } from '../../test/fake-admin.ts'
import { renderApp } from '../../test/render-app.tsx'

const admin = adminRoutes()

const mailId = (index: number) => `17640000${String(index).padStart(5, '0')}-0000000${index % 10}-0000-4000-8000-000000000000`
const summary = (index: number, overrides: Partial<DevMailSummary> = {}): DevMailSummary => ({
  id: mailId(index),
  to: `party${index}@example.com`,
  subject: `Message ${index}`,
  date: '2026-11-24T10:00:00Z',
  ...overrides,
})

describe('the dev mailbox', () => {
  it('lists the written e-mails newest first, pages after the last id and opens one', async () => {
    const first = Array.from({ length: 50 }, (_, index) => summary(index))
    first[0] = summary(0, { subject: 'Płatność przyjęta – kiitos', to: 'bea@example.com' })
    const mail: DevMail = {
      ...first[0]!,
      from: 'support@pactum.example',
      reply_to: 'ola@example.pl',
      message_id: `<${mailId(0)}@pactum>`,
      text: 'Cześć Bea,\n\nTwoja płatność została przyjęta.\nÄiti',
      html: null,
      attachments: [],
    }
    const api = fakeApiClient({
      ...admin,
      'GET /admin/dev_mailbox': ({ query }: ApiRequest) => (query?.after_id ? [summary(50)] : first),
      [`GET /admin/dev_mailbox/${mailId(0)}`]: mail,
    })
    await renderApp('/admin/dev-mailbox', { api })
    expect(await screen.findAllByTestId('dev-mailbox-row')).toHaveLength(50)
    expect(screen.getByRole('heading', { level: 1, name: 'Dev mailbox' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Dev mailbox' })).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }))
    await waitFor(() => expect(screen.getAllByTestId('dev-mailbox-row')).toHaveLength(51))
    expect(api.request).toHaveBeenLastCalledWith(
      '/admin/dev_mailbox',
      expect.objectContaining({ query: { limit: 50, after_id: mailId(49) } }),
    )

    await userEvent.click(screen.getByRole('link', { name: 'Płatność przyjęta – kiitos' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Płatność przyjęta – kiitos' })).toBeTruthy()
    const headers = screen.getByTestId('dev-mail-headers')
    expect(within(headers).getByText('support@pactum.example')).toBeTruthy()
    expect(within(headers).getByText('bea@example.com')).toBeTruthy()
    expect(within(headers).getByText('ola@example.pl')).toBeTruthy()
    expect(screen.getByTestId('dev-mail-text').textContent).toBe(mail.text)
  })

  it('shows the HTML in a frame that may run nothing, the text beneath, and the attachments by name', async () => {
    const html = '<html><body><p>Hello <b>Bea</b></p><script>parent.document.title = "owned"</script></body></html>'
    const mail: DevMail = {
      ...summary(0, { subject: 'Money released' }),
      from: 'support@pactum.example',
      reply_to: null,
      message_id: `<${mailId(0)}@pactum>`,
      text: 'Hello Bea',
      html,
      attachments: [{ filename: 'pactum-receipt-000000000000.pdf', content_type: 'application/pdf', size: 2048 }],
    }
    const api = fakeApiClient({ ...admin, [`GET /admin/dev_mailbox/${mailId(0)}`]: mail })
    await renderApp(`/admin/dev-mailbox/${mailId(0)}`, { api })
    const frame = await screen.findByTitle('The e-mail as HTML, shown without scripts or links that open')
    expect(frame.tagName).toBe('IFRAME')
    expect(frame.getAttribute('sandbox')).toBe('')
    expect(frame.getAttribute('srcdoc')).toBe(html)
    expect(screen.getByRole('heading', { level: 2, name: 'As the recipient sees it' })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'Plain-text version' })).toBeTruthy()
    expect(screen.getByTestId('dev-mail-text').textContent).toBe('Hello Bea')
    const attachments = screen.getByTestId('dev-mail-attachments')
    expect(within(attachments).getByText('pactum-receipt-000000000000.pdf')).toBeTruthy()
    expect(attachments.textContent).toContain('application/pdf')
  })

  it('says so when nothing was written yet', async () => {
    await renderApp('/admin/dev-mailbox', { api: fakeApiClient({ ...admin, 'GET /admin/dev_mailbox': [] }) })
    expect((await screen.findByTestId('dev-mailbox-empty')).textContent).toBe('No e-mails have been written yet.')
  })

  it('explains that a server sending over SMTP keeps no mailbox', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/dev_mailbox': () => {
        throw apiError(404, 'not_found')
      },
    })
    await renderApp('/admin/dev-mailbox', { api })
    expect((await screen.findByTestId('dev-mailbox-unavailable')).textContent).toContain('sends e-mail over SMTP')
  })

  it('offers a retry when the list fails to load, and says when one e-mail is not there', async () => {
    const api = fakeApiClient({
      ...admin,
      'GET /admin/dev_mailbox': () => {
        throw apiError(500, 'internal_error')
      },
    })
    await renderApp('/admin/dev-mailbox', { api })
    expect(await screen.findByRole('button', { name: /try again/i })).toBeTruthy()

    await renderApp(`/admin/dev-mailbox/${mailId(7)}`, { api: fakeApiClient(admin) })
    expect((await screen.findByTestId('dev-mail-not-found')).textContent).toContain('no e-mail with this id')
  })
})
