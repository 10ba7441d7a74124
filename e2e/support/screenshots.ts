import path from 'node:path'
import type { Page } from '@playwright/test'

/** Screenshots kept by the test run as artifacts (e2e/artifacts/screenshots). */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  // MUI transitions are JS-driven; let them settle so the picture shows the final state.
  await page.waitForTimeout(400)
  // The sidebar is sticky: from the top, a full-page picture shows it where a person sees it.
  await page.evaluate('window.scrollTo(0, 0)')
  await page.screenshot({ path: path.join(import.meta.dirname, '..', 'artifacts', 'screenshots', `${name}.png`), fullPage: true })
}
