import { expect, type Page } from '@playwright/test'

/**
 * A new account meets the blocking country-and-terms dialog first; this
 * picks a country, agrees to the terms and waits for the dialog to go, then
 * skips the guided tour that comes next.
 */
export async function completeCountryAndTerms(page: Page, country = 'Ireland'): Promise<void> {
  await answerCountryAndTerms(page, country)
  await skipGuidedTour(page)
}

/** The country-and-terms dialog alone, for tests of what follows it. */
export async function answerCountryAndTerms(page: Page, country = 'Ireland'): Promise<void> {
  const dialog = page.getByTestId('country-dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('combobox', { name: /Country/ }).fill(country)
  await page.getByRole('option', { name: country, exact: true }).click()
  await dialog.getByRole('checkbox', { name: /I agree to the terms of service/ }).check()
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await expect(dialog).toBeHidden()
}

/** The guided tour follows the country-and-terms dialog for a new account, once (spec §2); this skips it. */
export async function skipGuidedTour(page: Page): Promise<void> {
  const tour = page.getByTestId('guided-tour')
  await expect(tour).toBeVisible()
  await tour.getByRole('button', { name: 'Skip tour' }).click()
  await expect(tour).toBeHidden()
}
