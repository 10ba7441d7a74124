import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { adminPerson, registeredPerson } from '../support/people.ts'
import { reloadUntil } from '../support/reload-until.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { setUpAuthenticatorApp, signOutAndInWithCode } from '../support/second-factor.ts'
import { test } from '../support/test.ts'

/**
 * Issue 35's console: an admin gives a partner client a webhook endpoint,
 * sees what was delivered to it and sends it again. The endpoint is a real
 * HTTP receiver started here, on 127.0.0.1 (the e2e server has
 * WEBHOOK_ALLOW_PRIVATE).
 */

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

async function startReceiver() {
  const received: Received[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ received: true, count: received.length }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/pactum-hooks`, received, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
function signedWith(secret: string, { headers, body }: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64')
  return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`)
}

test("an admin adds a partner client's webhook endpoint, sees a sale's event delivered to it and replays it", async ({
  browser,
  request,
}, testInfo) => {
  const receiver = await startReceiver()
  try {
    const ada = adminPerson(testInfo.retry, 'webhooks')
    const admin = await registeredPerson(browser, ada)
    await signOutAndInWithCode(admin, ada, await setUpAuthenticatorApp(admin, ada))

    // A client of its own, with an API key to make a sale under it as a partner's server would.
    const clientId = `hooks-${Date.now().toString(36)}`
    await admin.goto('/admin/clients')
    await admin.getByTestId('admin-client-add').click()
    const clientForm = admin.getByTestId('client-form')
    await clientForm.getByTestId('client-client-id').fill(clientId)
    await clientForm.getByTestId('client-name').fill('Hook Market')
    await clientForm.getByTestId('client-background-color').fill('#264653')
    await clientForm.getByTestId('client-text-color').fill('#ffffff')
    await clientForm.getByTestId('client-url').fill('https://hooks.example/')
    await clientForm.getByTestId('client-form-confirm').click()
    await expect(clientForm).toBeHidden()
    const row = admin.getByTestId('admin-client-row').filter({ hasText: clientId })
    await row.getByTestId('admin-client-issue-key').click()
    await admin.getByTestId('client-api-key-issue-confirm').click()
    const issued = admin.getByTestId('client-api-key-issued')
    const apiKey = await issued.getByTestId('client-api-key-value').inputValue()
    await issued.getByTestId('client-api-key-done').click()

    // The client's webhooks: none yet.
    await row.getByRole('link', { name: 'Webhooks of Hook Market' }).click()
    await expect(admin).toHaveURL(new RegExp(`/admin/clients/${clientId}/webhooks$`))
    await expect(admin.getByRole('heading', { level: 1, name: 'Webhooks of Hook Market' })).toBeVisible()
    await expect(admin.getByTestId('webhook-endpoints-empty')).toBeVisible()

    // An endpoint for every event type; its secret is shown once.
    await admin.getByTestId('webhook-endpoint-add').click()
    const form = admin.getByTestId('webhook-endpoint-form')
    await form.getByTestId('webhook-url').fill(receiver.url)
    await expectNoAxeViolations(admin, 'webhook endpoint form')
    await keepScreenshot(admin, 'admin-webhook-endpoint-form')
    await form.getByTestId('webhook-endpoint-form-confirm').click()
    const secretDialog = admin.getByTestId('webhook-secret-dialog')
    await expect(secretDialog).toContainText('You will not see this secret again')
    const secret = await secretDialog.getByTestId('webhook-secret-value').inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
    await expectNoAxeViolations(admin, 'webhook secret shown once')
    await keepScreenshot(admin, 'admin-webhook-secret')
    await secretDialog.getByTestId('webhook-secret-done').click()
    await expect(secretDialog).toBeHidden()
    const endpointRow = admin.getByTestId('webhook-endpoint-row')
    await expect(endpointRow).toContainText(receiver.url)
    await expect(endpointRow).toContainText('All events')
    await expect(endpointRow.getByTestId('webhook-endpoint-state')).toHaveText('Active')

    // A sale under the client: its first event reaches the receiver, signed with that secret.
    const sale = await request.post('/api/v1/partner/guest_transactions', {
      headers: { 'x-pactum-api-key': apiKey },
      data: {
        type: 'online',
        buyer_email: `hook-buyer-${clientId}@example.com`,
        seller_email: `hook-seller-${clientId}@example.com`,
        price: 4200,
        currency: 'eur',
        description: 'Teak garden bench',
      },
    })
    expect(sale.status()).toBe(201)
    const { id: transactionId } = (await sale.json()) as { id: string }
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1)
    const first = receiver.received[0] as Received
    expect(signedWith(secret, first)).toBe(true)
    const eventId = String(first.headers['webhook-id'])
    const event = JSON.parse(first.body) as { type: string; data: { transaction: { id: string }; sequence: number } }
    expect(event).toMatchObject({ type: 'transaction.created', data: { transaction: { id: transactionId }, sequence: 1 } })

    // The console shows the delivery: its state, the receiver's status and answer, and the time it took.
    await endpointRow.getByTestId('webhook-endpoint-deliveries').click()
    const deliveries = admin.getByTestId('webhook-deliveries')
    const delivery = deliveries.getByTestId('webhook-delivery-row').first()
    await reloadUntil(admin, async (lookMs) => {
      await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('Delivered', { timeout: lookMs })
    })
    await expect(delivery).toContainText('transaction.created')
    await expect(delivery).toContainText('200')
    await expect(delivery).toContainText('"received":true')
    // Opened from the keyboard: the toggle says it is expanded.
    const toggle = delivery.getByTestId('webhook-delivery-toggle')
    await toggle.focus()
    await admin.keyboard.press('Enter')
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const details = deliveries.getByTestId('webhook-delivery-details')
    await expect(details).toContainText(eventId)
    await expect(details).toContainText(transactionId)
    await expect(details.getByTestId('webhook-delivery-request-body')).toContainText('"type": "transaction.created"')
    await expectNoAxeViolations(admin, 'webhook deliveries with one opened')
    await keepScreenshot(admin, 'admin-webhook-deliveries')

    // Replayed: the receiver gets the same event again, and the console says so.
    await delivery.getByTestId('webhook-delivery-replay').click()
    await expect(deliveries.getByTestId('webhook-replay-status')).toHaveText('1 event queued to be sent again.')
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2)
    expect(receiver.received[1]?.headers['webhook-id']).toBe(eventId)
    await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('Delivered')
    await expectNoAxeViolations(admin, 'webhook deliveries after a replay')
    await keepScreenshot(admin, 'admin-webhook-replayed')

    // A range replay: everything of the client in the hour around now (the dialog offers the last day).
    await deliveries.getByTestId('webhook-replay-range-open').click()
    const range = admin.getByTestId('webhook-replay-range')
    const local = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
    await range.getByTestId('webhook-replay-from').fill(local(new Date(Date.now() - 3_600_000)))
    await range.getByTestId('webhook-replay-to').fill(local(new Date(Date.now() + 3_600_000)))
    await expectNoAxeViolations(admin, 'webhook range replay')
    await keepScreenshot(admin, 'admin-webhook-replay-range')
    await range.getByTestId('webhook-replay-range-confirm').click()
    await expect(deliveries.getByTestId('webhook-replay-status')).toHaveText(/^\d+ events? queued to be sent again\.$/)
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3)

    // A new secret: the old one keeps working for 24 hours, the new one is shown once.
    await endpointRow.getByTestId('webhook-endpoint-rotate').click()
    await expect(admin.getByTestId('webhook-rotate')).toContainText('keeps working for 24 hours')
    await admin.getByTestId('webhook-rotate-confirm').click()
    const rotated = await secretDialog.getByTestId('webhook-secret-value').inputValue()
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(secret)
    await secretDialog.getByTestId('webhook-secret-done').click()
    await expectNoAxeViolations(admin, 'webhooks of a client')
    await keepScreenshot(admin, 'admin-webhooks')
    // The same page at a phone's width: the tables scroll inside their cards, nothing runs off the screen.
    await admin.setViewportSize({ width: 390, height: 844 })
    await expectNoAxeViolations(admin, 'webhooks of a client on a phone')
    await keepScreenshot(admin, 'admin-webhooks-phone')
  } finally {
    await receiver.close()
  }
})
