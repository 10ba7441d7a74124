import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { skipGuidedTour } from '../support/onboarding.ts'
import { finishRegistrationFromMail, newPerson, registeredPerson, submitRegistration } from '../support/people.ts'
import { test } from '../support/test.ts'

/**
 * A brand-new person follows a join link: they register, meet the blocking
 * country-and-terms dialog, cannot continue without agreeing, and end up on
 * the transaction the link pointed to.
 */
test('a new person arriving by join link registers, agrees to the terms and lands on the join page', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Stella'))
  await seller.goto('/create-transaction')
  await seller.getByTestId('role-seller').check()
  await seller.getByTestId('create-next').click()
  await seller.getByTestId('description-input').fill('Record player')
  await seller.getByTestId('price-input').fill('75.00')
  await seller.getByTestId('currency-select').selectOption('eur')
  await seller.getByTestId('method-card').check()
  await seller.getByTestId('create-next').click()
  await seller.getByTestId('create-submit').click()
  const code = (await seller.getByTestId('created-join-code').textContent())?.replace(/\s/g, '') ?? ''

  const context = await browser.newContext()
  const page = await context.newPage()
  const person = newPerson('Nina')
  await page.goto(`/join-transaction/${code}`)
  // Signed out, the link lands on its code and the two ways in (issue 33), not on a bare sign-in page.
  await expect(page.getByTestId('landing-code')).toHaveText(code)
  await page.getByTestId('landing-register').click()
  await expect(page).toHaveURL(/\/oidc\//)
  await submitRegistration(page, person)
  await finishRegistrationFromMail(page, person)

  const dialog = page.getByTestId('country-dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('combobox', { name: /Country/ }).fill('Poland')
  await page.getByRole('option', { name: 'Poland', exact: true }).click()
  // A country alone is not enough: the terms must be agreed to.
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled()
  const agree = dialog.getByRole('checkbox', { name: /I agree to the terms of service/ })
  await agree.check()
  await agree.uncheck()
  await expect(dialog.getByText('You must agree.')).toBeVisible()
  await expectNoAxeViolations(page, 'the country dialog with an error')
  await agree.check()
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await expect(dialog).toBeHidden()
  await skipGuidedTour(page)
  await expect(page).toHaveURL(new RegExp(`/join-transaction/${code}$`))
  await expect(page.getByTestId('join-preview')).toContainText('Record player')
})
