import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** Runs axe on what the page shows now and fails listing every violation. */
export async function expectNoAxeViolations(page: Page, context: string): Promise<void> {
  // Lazy chunks and queries settle first, so axe sees the page a person sees.
  await page.waitForLoadState('networkidle')
  // A toast or dialog still fading in has text at part opacity, which axe reads as low
  // contrast: wait for finite transitions to end (spinners loop forever and are left alone).
  await page.waitForFunction(
    () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
    undefined,
    { timeout: 10_000 },
  )
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  const summary = results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
  expect(summary, `axe violations on ${context}`).toEqual([])
}
