import { expect, type Page } from '@playwright/test'

/**
 * Reloads the page until `check` passes: for a change the server makes on
 * its own (a timer, the sandbox provider's events). Each look gives the page
 * `lookMs` to render and show it (the page polls too): on CI two browsers and
 * the server share two cores, and a reload there took over a second, so a
 * one-second look never saw a change that had long happened (CI of
 * 2026-11-27: three tests failed that way).
 */
export async function reloadUntil(
  page: Page,
  check: (lookMs: number) => Promise<void>,
  options: { timeout?: number; lookMs?: number } = {},
): Promise<void> {
  const lookMs = options.lookMs ?? 10_000
  await expect(async () => {
    await page.reload()
    await check(lookMs)
  }).toPass({ timeout: options.timeout ?? 120_000, intervals: [500, 1000, 2000] })
}
