import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * Runs axe on what the page shows now and fails listing every violation.
 * `exclude` leaves parts out: a `sandbox=""` frame (the dev mailbox's e-mail)
 * runs no script, so axe, which runs inside each frame, would wait on it forever.
 */
export async function expectNoAxeViolations(page: Page, context: string, options: { exclude?: string } = {}): Promise<void> {
  // Lazy chunks and queries settle first, so axe sees the page a person sees.
  await page.waitForLoadState('networkidle')
  let summary = await analyseSettled(page, options.exclude)
  // A toast can start fading in or out while axe reads the page (it came from a
  // poll or a timer after the wait), and text at part opacity reads as low
  // contrast. A real violation is still there once that transition has ended.
  if (summary.length > 0) summary = await analyseSettled(page, options.exclude)
  expect(summary, `axe violations on ${context}`).toEqual([])
}

async function analyseSettled(page: Page, exclude: string | undefined): Promise<string[]> {
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
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
  const results = await (exclude ? builder.exclude(exclude) : builder).analyze()
  return results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
}
