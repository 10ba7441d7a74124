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
