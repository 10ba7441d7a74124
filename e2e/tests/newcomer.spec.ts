import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * What a newcomer tripped over (issue 33), at a phone's width and a
 * desktop's: a mistyped join code says only that, and My transactions comes
 * back by itself once Pactum answers again, without blaming the connection
 * or waiting for "Try again".
 */

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
] as const

/**
 * My transactions' own read (first page), not the profile or anything else
 * the shell asks for; and the early batch that index.html starts for the
 * first screen (app/first-requests.ts), which would otherwise bring the list.
 */
const myTransactionsList = /\/api\/v1\/me\/(transactions|batch)(\?|$)/

test('a wrong join code is explained without an offer to join, and My transactions recovers by itself', async ({ browser }) => {
  const page = await registeredPerson(browser, newPerson('Nora'))
  for (const { name, viewport } of sizes) {
    await page.setViewportSize(viewport)
    await wrongJoinCode(page, name)
    await myTransactionsRecover(page, name)
  }
})

test('a join-code link opened signed out names the code and the ways in, and signing in is one click away', async ({ browser }) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  for (const { name, viewport } of sizes) {
    await page.setViewportSize(viewport)
    await page.goto('/join-transaction/ZZZZ2222')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You have a code to join a sale through Pactum')
    await expect(page.getByTestId('landing-code')).toHaveText('ZZZZ2222')
    await expectNoAxeViolations(page, `the join-code landing (${name})`)
    await keepScreenshot(page, `newcomer-code-landing-${name}`)
  }
  await page.getByTestId('landing-sign-in').click()
  await expect(page.getByLabel('E-mail')).toBeVisible()
  await context.close()
})

async function wrongJoinCode(page: Page, size: string) {
  // The right shape (eight letters of the code alphabet), but no such transaction.
  await page.goto('/join-transaction/ZZZZ2222')
  await expect(page.getByText('There is no transaction with this code.')).toBeVisible()
  await expect(page.getByText('You are about to join the transaction with this code.')).toHaveCount(0)
  await expect(page.getByTestId('join-submit')).toHaveCount(0)
  await expectNoAxeViolations(page, `the wrong-code page (${size})`)
  await keepScreenshot(page, `newcomer-wrong-code-${size}`)
}

async function myTransactionsRecover(page: Page, size: string) {
  // Pactum unreachable for this one read: the browser gets no answer at all.
  await page.route(myTransactionsList, (route) => route.abort('connectionrefused'))
  await page.goto('/transactions')
  const error = page.getByTestId('transactions-error')
  // The client asks a few times before it gives up (react-query's retries).
  await expect(error).toBeVisible({ timeout: 30_000 })
  await expect(error).toContainText('Pactum cannot be reached right now')
  await expect(error).not.toContainText('Check your internet connection')
  await expectNoAxeViolations(page, `My transactions while Pactum is unreachable (${size})`)
  await keepScreenshot(page, `newcomer-unreachable-${size}`)

  // Pactum answers again: the page asks by itself (every 10 s) and shows the list; nobody presses "Try again".
  await page.unroute(myTransactionsList)
  await expect(page.getByTestId('transactions-empty')).toBeVisible({ timeout: 30_000 })
  await expect(error).toHaveCount(0)
}
