import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * Issue 33 (Deliver): on the Account page a person turns an optional kind
 * of e-mail off; the switch saves at once, says Saved in place, and the
 * choice is still there after a reload. On a desktop and on a phone, with
 * no axe violations.
 */
async function turnOff(page: Page, category: string, screenshot: string) {
  await page.goto('/profile/help/account')
  const section = page.getByRole('region', { name: 'E-mail notifications' })
  const toggle = section.getByRole('switch', { name: category })
  await expect(toggle).toBeChecked()
  await expect(section.getByText(/are always sent/)).toBeVisible()
  await expectNoAxeViolations(page, 'the Account page with its e-mail notifications')

  await toggle.focus()
  await page.keyboard.press('Space')
  await expect(section.getByTestId('notification-preferences-state')).toHaveText('Saved')
  await expect(toggle).not.toBeChecked()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expectNoAxeViolations(page, 'the e-mail notifications once saved')
  await section.screenshot({ path: `/tmp/notif-prefs-${screenshot}.png` })
  await keepScreenshot(page, `notification-preferences-${screenshot}`)

  await page.reload()
  await expect(page.getByRole('region', { name: 'E-mail notifications' }).getByRole('switch', { name: category })).not.toBeChecked()
}

test('a person turns message e-mails off on the Account page (desktop)', async ({ browser }) => {
  const page = await registeredPerson(browser, newPerson('Nora'))
  await page.setViewportSize({ width: 1280, height: 900 })
  await turnOff(page, 'New messages', 'desktop')
})

test('a person turns progress e-mails off on a phone', async ({ browser }) => {
  const page = await registeredPerson(browser, newPerson('Pia'))
  await page.setViewportSize({ width: 390, height: 844 })
  await turnOff(page, 'Progress updates', 'phone')
  // A string, evaluated in the page: the e2e project has no DOM types.
  expect(await page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth')).toBe(false)
})
