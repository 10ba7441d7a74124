import path from 'node:path'
import type { Page } from '@playwright/test'

/** Screenshots kept by the test run as artifacts (e2e/artifacts/screenshots), outside CI. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  // Pictures are for people to look at, and nobody looks at CI's: there they
  // cost 1.2 s each (128 a run) and check nothing. E2E_SCREENSHOTS=1 keeps them.
  if (process.env.CI && process.env.E2E_SCREENSHOTS !== '1') return
  // MUI transitions are JS-driven; let them settle so the picture shows the final state.
  await page.waitForTimeout(400)
  // The sidebar is sticky: from the top, a full-page picture shows it where a person sees it.
  await page.evaluate('window.scrollTo(0, 0)')
  await page.screenshot({ path: path.join(import.meta.dirname, '..', 'artifacts', 'screenshots', `${name}.png`), fullPage: true })
}
