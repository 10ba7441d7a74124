import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** Runs axe on what the page shows now and fails listing every violation. */
export async function expectNoAxeViolations(page: Page, context: string): Promise<void> {
  // Lazy chunks and queries settle first, so axe sees the page a person sees.
  await page.waitForLoadState('networkidle')
  let summary = await analyseSettled(page)
  // A toast can start fading in or out while axe reads the page (it came from a
  // poll or a timer after the wait), and text at part opacity reads as low
  // contrast. A real violation is still there once that transition has ended.
  if (summary.length > 0) summary = await analyseSettled(page)
  expect(summary, `axe violations on ${context}`).toEqual([])
}

async function analyseSettled(page: Page): Promise<string[]> {
  // A toast or dialog still fading in has text at part opacity, which axe reads as low
  // contrast: wait for finite transitions to end (spinners loop forever and are left alone).
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
    undefined,
    { timeout: 10_000 },
  )
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
}
