import { expect, type Page } from '@playwright/test'

/**
 * A new account meets the blocking country-and-terms dialog first; this
 * picks a country, agrees to the terms and waits for the dialog to go.
 */
export async function completeCountryAndTerms(page: Page, country = 'Ireland'): Promise<void> {
  const dialog = page.getByTestId('country-dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('combobox', { name: /Country/ }).fill(country)
  await page.getByRole('option', { name: country, exact: true }).click()
  await dialog.getByRole('checkbox', { name: /I agree to the terms of service/ }).check()
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await expect(dialog).toBeHidden()
}
