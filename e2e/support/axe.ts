import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

interface AxeOptions {
  /**
   * Leave frames out, for a page with a `sandbox=""` frame (the dev
   * mailbox's e-mail), which runs no script. On such a page Chromium never
   * reported the network idle (the wait ran until the test timed out), so
   * the caller waits for what it needs to see instead; and axe's default
   * mode runs inside every frame, while the legacy mode injects with a
   * one-second limit per frame and, with `iframes: false`, reads the top
   * document only.
   */
  skipFrames?: boolean
}

/** Runs axe on what the page shows now and fails listing every violation. */
export async function expectNoAxeViolations(page: Page, context: string, options: AxeOptions = {}): Promise<void> {
  // The page a person is looking at: a test with two people drives two
  // windows, and Chromium runs no animation frames for one in the background,
  // so a dialog's fade there never ended and the wait below timed out (once in
  // CI on 2026-12-06, after the blank page axe used to open and close, which
  // brought the page forward as a side effect, had gone).
  await page.bringToFront()
  // Lazy chunks and queries settle first, so axe sees the page a person sees.
  if (!options.skipFrames) await page.waitForLoadState('networkidle')
  let summary = await analyseSettled(page, options)
  // A toast can start fading in or out while axe reads the page (it came from a
  // poll or a timer after the wait), and text at part opacity reads as low
  // contrast. A real violation is still there once that transition has ended.
  if (summary.length > 0) summary = await analyseSettled(page, options)
  expect(summary, `axe violations on ${context}`).toEqual([])
}

async function analyseSettled(page: Page, options: AxeOptions): Promise<string[]> {
  // A toast or dialog still fading in has text at part opacity, which axe reads as low
  // contrast: wait for finite transitions to end (spinners loop forever and are left alone).
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
    undefined,
    // Polled on a timer, not on animation frames, which a busy or background page may not run.
    { timeout: 10_000, polling: 100 },
  )
  const runOnly = { type: 'tag' as const, values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }
  // options() replaces what withTags() set, so the tags go in with iframes: false.
  // Legacy mode runs axe.run in the page (and its same-origin frames) instead of
  // runPartial in each frame and finishRun in a blank page the builder opens
  // for every check: 0.7 s less per check (136 checks a run). It cannot test
  // a cross-origin frame, and these pages have none: the sandbox provider
  // needs no Stripe.js.
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options(options.skipFrames ? { runOnly, iframes: false } : { runOnly })
  const results = await builder.analyze()
  return results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
}
