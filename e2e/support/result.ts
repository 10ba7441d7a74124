import { expect, type Page } from '@playwright/test'

/**
 * Closes the success message an action ends with. It loads on first use, so
 * it may appear a moment after the status changed: wait for it, then close
 * it and wait until it is gone, or it would cover the next click.
 */
export async function closeSuccess(page: Page): Promise<void> {
  const heading = page.getByRole('heading', { name: 'Success!' })
  await expect(heading).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(heading).toBeHidden()
}

/**
 * For a success message that closes itself (the spec's 3 s ones): runs
 * `action`, watching the page from before it for the message, so that a
 * message that came and went while the browser was busy (three test
 * workers on two cores) still counts as seen. Closes it if it is still up.
 */
export async function expectSelfClosingSuccess(page: Page, action: () => Promise<void>): Promise<void> {
  await page.evaluate(() => {
    const seen = window as Window & { successSeen?: boolean }
    seen.successSeen = false
    const shown = () => Array.from(document.querySelectorAll('h2'), (heading) => heading.textContent).includes('Success!')
    new MutationObserver((_records, observer) => {
      if (!shown()) return
      seen.successSeen = true
      observer.disconnect()
    }).observe(document.body, { childList: true, subtree: true, characterData: true })
  })
  await action()
  await page.waitForFunction(() => (window as Window & { successSeen?: boolean }).successSeen === true)
  const heading = page.getByRole('heading', { name: 'Success!' })
  if (await heading.isVisible()) await page.keyboard.press('Escape')
  await expect(heading).toBeHidden()
}

/**
 * A small save's confirmation (issue 33 item 4): a polite status toast by
 * the screen's edge, never the full-screen 'Success!' of payments and sales.
 */
export async function expectSavedInPlace(page: Page, message: string): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Success!' })).toHaveCount(0)
}
