import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { buyerJoins, buyerPays, sellerCreates } from '../support/sale.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { closeSuccess } from '../support/result.ts'
import { test } from '../support/test.ts'

/**
 * Escrow you can check (issue 35 item 4, decision 114): the buyer of a paid
 * sale finds its verification link and QR code on the status page, and
 * anyone, signed in or not, opens it to read that Pactum holds the money,
 * and nothing that would help a fraudster.
 */
test('anyone with a paid sale’s verification link reads that Pactum holds the money, on a desktop and a phone', async ({ browser }) => {
  const sol = newPerson('Sol')
  const bo = newPerson('Bo')
  const seller = await registeredPerson(browser, sol)
  const buyer = await registeredPerson(browser, bo)
  await buyerJoins(buyer, await sellerCreates(seller, 'Walnut bookshelf', '40.00'))
  await buyerPays(buyer, '4242 4242 4242 4242')
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')

  const card = buyer.getByTestId('verify-card')
  await expect(card.getByTestId('verify-qr')).toBeVisible()
  const verifyUrl = (await card.getByTestId('verify-link').getAttribute('href')) ?? ''
  expect(verifyUrl).toMatch(/\/verify\/[A-Za-z0-9_-]{22}$/)
  await card.scrollIntoViewIfNeeded()
  await keepScreenshot(buyer, 'verify-card-on-status-page')

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    // Nobody signed in: a fresh context, as a stranger scanning the QR code.
    const context = await browser.newContext({ viewport })
    const page = await context.newPage()
    await page.goto(new URL(verifyUrl).pathname)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pactum holds €41.60 for this sale')
    const facts = page.getByTestId('verify-facts')
    await expect(facts.getByTestId('verify-state')).toHaveText('Money held by Pactum')
    await expect(facts.getByTestId('verify-seller')).toHaveText('Sol (s***@e***.com)')
    await expect(facts.getByTestId('verify-buyer')).toHaveText('Bo (b***@e***.com)')
    // Nothing more than the listed facts: no description, full address or surname.
    const text = (await page.locator('main').textContent()) ?? ''
    for (const secret of ['Walnut bookshelf', sol.email, bo.email, 'Tester']) expect(text).not.toContain(secret)
    await expect(page.getByRole('heading', { name: 'How to tell a fake escrow site' })).toBeVisible()
    await expectNoAxeViolations(page, `the verification page (${size})`)
    await keepScreenshot(page, `verify-page-${size}`)
    await context.close()
  }

  // The badge a partner embeds: Pactum's own picture of the same facts.
  const badge = await buyer.request.get(`${new URL(verifyUrl).pathname.replace('/verify/', '/api/v1/verify/')}/badge.svg`)
  expect(badge.status()).toBe(200)
  expect(badge.headers()['content-type']).toBe('image/svg+xml; charset=utf-8')
  expect(await badge.text()).toContain('Escrow verified by Pactum: Money held · €41.60')

  // A made-up link says plainly that it proves nothing.
  const stranger = await browser.newContext()
  const guess = await stranger.newPage()
  await guess.goto('/verify/AAAAAAAAAAAAAAAAAAAAAA')
  await expect(guess.getByTestId('verify-not-found')).toContainText('do not pay')
  await expectNoAxeViolations(guess, 'the verification page of an unknown link')
  await stranger.close()
})
