import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/** True when the page is wider than the screen, so a person has to scroll sideways to read it. */
function scrollsSideways(page: Page): Promise<boolean> {
  // A string, evaluated in the page: the e2e project has no DOM types.
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth')
}

/**
 * Issue 4: every profile and help page works in all 7 languages and on a
 * phone. Polish has some of the longest labels of the seven; the pages must
 * fit a 390-pixel screen in it without sideways scrolling, and stay accessible.
 * The e-mail language follows the interface language until one is chosen.
 */
test('every profile and help page fits a phone in Polish and passes axe', async ({ browser, baseURL }) => {
  const page = await registeredPerson(browser, newPerson('Zofia'))
  await page.context().addCookies([{ name: 'locale', value: 'pl_pl', url: baseURL! }])
  await page.setViewportSize({ width: 390, height: 844 })

  const pages = [
    { path: '/profile/details', heading: 'Dane osobowe', screenshot: 'phone-pl-personal-details' },
    { path: '/profile/payment/bank-details', heading: 'Dane bankowe', screenshot: 'phone-pl-bank-details' },
    { path: '/profile/balance', heading: 'Saldo i wypłaty', screenshot: 'phone-pl-balance' },
    { path: '/profile/help/account', heading: 'Konto', screenshot: 'phone-pl-account' },
    { path: '/profile/help/faq', heading: 'Najczęściej zadawane pytania', screenshot: 'phone-pl-faq' },
    { path: '/profile/help/contact-us', heading: 'Kontakt', screenshot: 'phone-pl-contact-us' },
  ]
  for (const { path, heading, screenshot } of pages) {
    await page.goto(path)
    const h1 = page.getByRole('heading', { level: 1 })
    await expect(h1).toHaveText(heading)
    await expect(page.locator('html')).toHaveAttribute('lang', /^pl/)
    await expectNoAxeViolations(page, `${path} on a phone in Polish`)
    expect(await scrollsSideways(page), `${path} scrolls sideways on a phone`).toBe(false)
    // A person who uses Pactum in Polish gets e-mails in Polish without having to choose it.
    if (path === '/profile/help/account') await expect(page.getByTestId('notification-language')).toHaveValue('pl_pl')
    await keepScreenshot(page, screenshot)
  }
  await page.context().close()
})
