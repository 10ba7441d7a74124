import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { expectSavedInPlace } from '../support/result.ts'
import { test } from '../support/test.ts'

/**
 * A seller fills in what payouts need: personal details and a bank account.
 * What is still due shrinks as they go; every profile and help page passes axe.
 */
test('a seller completes personal and bank details, and the due list shrinks', async ({ browser }) => {
  const page = await registeredPerson(browser, newPerson('Greta'))
  await page.goto('/profile/details')
  await expect(page.getByTestId('payout-requirements')).toBeVisible()
  await expect(page.getByTestId('payout-requirement-dob')).toBeVisible()
  await expectNoAxeViolations(page, 'personal details')

  await page.getByTestId('personal-dob-day').selectOption('12')
  await page.getByTestId('personal-dob-month').selectOption('5')
  await page.getByTestId('personal-dob-year').selectOption('1990')
  await page.getByTestId('personal-phone').fill('851234567')
  await page.getByTestId('personal-address-line1').fill('1 Main Street')
  await page.getByTestId('personal-address-city').fill('Dublin')
  await page.getByTestId('personal-address-postal-code').fill('D01 F5P2')
  await page.getByTestId('personal-details-save').click()
  await expectSavedInPlace(page, 'Your personal details have been saved.')
  await expect(page.getByTestId('payout-requirement-dob')).toBeHidden()
  await expect(page.getByTestId('payout-requirement-credit_account')).toBeVisible()
  await keepScreenshot(page, 'personal-details')

  await page.goto('/profile/payment/bank-details')
  await expect(page.getByTestId('bank-iban')).toBeVisible()
  await expectNoAxeViolations(page, 'bank details')
  await page.getByTestId('bank-iban').fill('DE89370400440532013001')
  await page.getByTestId('bank-save').click()
  await expect(page.getByTestId('bank-details-form')).toContainText(/IBAN/)
  await page.getByTestId('bank-iban').fill('IE29 AIBK 9311 5212 3456 78')
  await page.getByTestId('bank-save').click()
  await expect(page.getByTestId('bank-stored-number')).toContainText('5678', { timeout: 10_000 })
  await keepScreenshot(page, 'bank-details')

  await page.goto('/profile/details')
  await expect(page.getByTestId('payout-requirement-credit_account')).toBeHidden()
  await expect(page.getByTestId('payout-requirement-identity_document')).toBeVisible()

  for (const path of ['/profile/help/account', '/profile/help/faq', '/profile/help/contact-us']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expectNoAxeViolations(page, path)
  }
  await page.goto('/profile/help/contact-us')
  await page.getByTestId('contact-subject').fill('Question about fees')
  await page.getByTestId('contact-message').fill('How is the buyer protection fee calculated?')
  await page.getByTestId('contact-submit').click()
  await expect(page.getByRole('heading', { name: 'Success!' })).toBeVisible()

  await page.goto('/terms')
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of service' })).toBeVisible()
  await expectNoAxeViolations(page, 'the terms of service')
})
