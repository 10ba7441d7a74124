import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { mailsTo, nthMailTo } from '../support/mailbox.ts'
import { completeCountryAndTerms } from '../support/onboarding.ts'
import { finishRegistrationFromMail, newPerson, registeredPerson, submitRegistration } from '../support/people.ts'
import { buyerPays } from '../support/sale.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { closeSuccess } from '../support/result.ts'
import { test } from '../support/test.ts'

/**
 * Guest transactions (issue 12 #2): the seller invites a buyer known only by
 * e-mail; the buyer opens the e-mailed link, signs up on the way, meets the
 * country-and-terms dialog, comes back to the invitation, claims it and pays.
 * The used link then says so.
 */
test('a guest signs up through the e-mailed claim link and pays', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Sam'))
  const guest = newPerson('Gia')

  await seller.goto('/create-transaction')
  await seller.getByTestId('role-seller').check()
  await seller.getByTestId('create-next').click()
  await seller.getByTestId('description-input').fill('Green desk lamp')
  await seller.getByTestId('price-input').fill('40.00')
  await seller.getByTestId('currency-select').selectOption('eur')
  await seller.getByTestId('method-card').check()
  await seller.getByTestId('create-next').click()
  await expect(seller.getByTestId('amount-fee')).toBeVisible()
  await seller.getByTestId('invite-by-email').check()
  await seller.getByTestId('invite-email').fill(guest.email)
  await expectNoAxeViolations(seller, 'the create review step with the invitation')
  await keepScreenshot(seller, 'guest-invite-review')
  await seller.getByTestId('create-submit').click()
  await expect(seller.getByTestId('created-invited')).toContainText(guest.email)
  await expect(seller.getByTestId('created-join-code')).toHaveCount(0)
  await keepScreenshot(seller, 'guest-invite-created')

  const mail = await nthMailTo(guest.email, 1)
  expect(mail.subject).toBe('You are invited to buy “Green desk lamp” safely with Pactum')
  const link = /https?:\/\/\S+\/join-guest-transaction\/[A-Za-z0-9_-]{43}\/online/.exec(mail.text)?.[0]
  expect(link).toBeTruthy()
  const claimPath = new URL(link!).pathname

  // A new person, on a phone: the link lands on who invited them to what (issue 33 item 8), not on a bare sign-in.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto(claimPath)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sam invited you to buy “Green desk lamp” for €40.00 through Pactum')
  await expect(page.getByTestId('landing-sent-to')).toHaveText(`This invitation was sent to ${guest.email}.`)
  await expectNoAxeViolations(page, 'the invitation landing on a phone')
  await keepScreenshot(page, 'guest-invitation-landing-phone')
  await page.getByRole('button', { name: 'Create an account' }).click()
  // The invited address is filled in on sign-up (login_hint); registering still proves it by mail.
  await expect(page.getByLabel('E-mail')).toHaveValue(guest.email)
  await keepScreenshot(page, 'guest-invitation-registration-prefilled')
  await submitRegistration(page, guest)
  await finishRegistrationFromMail(page, guest)
  await completeCountryAndTerms(page)

  // Back on the invitation after the dialogs.
  await expect(page).toHaveURL(new RegExp(`${claimPath}$`))
  const preview = page.getByTestId('claim-preview')
  await expect(preview).toBeVisible()
  await expect(page.getByTestId('claim-description')).toHaveText('Green desk lamp')
  await expect(page.getByTestId('claim-inviter')).toHaveText('Sam is selling this item.')
  await expectNoAxeViolations(page, 'the guest claim page')
  await keepScreenshot(page, 'guest-claim')
  await page.getByTestId('claim-submit').click()
  await expect(page).toHaveURL(/\/transactions\/[0-9a-f-]{36}$/)
  await expect(page.getByTestId('transaction-status')).toHaveAttribute('data-status', 'joined')

  await buyerPays(page, '4242 4242 4242 4242')
  await closeSuccess(page)
  await expect(page.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')

  // The link works once.
  await page.goto(claimPath)
  await expect(page.getByTestId('claim-used')).toBeVisible()
  await expectNoAxeViolations(page, 'a used claim link')
  await keepScreenshot(page, 'guest-claim-used')

  // The seller's side: an ordinary paid sale.
  await seller.goto('/transactions')
  await seller.getByTestId('transaction-row').first().click()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
})

test('someone with an account opens an invitation signed out, signs in with the address filled in, and claims it', async ({ browser }) => {
  const buyer = await registeredPerson(browser, newPerson('Bo'))
  const invited = newPerson('Ivy')
  const invitedPage = await registeredPerson(browser, invited)
  await invitedPage.context().close()
  await buyer.goto('/create-transaction?model=f2f')
  await buyer.getByTestId('role-buyer').check()
  await buyer.getByTestId('description-input').fill('Oak bookcase')
  await buyer.getByTestId('currency-select').selectOption('eur')
  await buyer.getByTestId('create-next').click()
  await buyer.getByTestId('deposit-input').fill('25.00')
  await expect(buyer.getByTestId('amount-fee')).toContainText(/\d/)
  await buyer.getByTestId('invite-by-email').check()
  await buyer.getByTestId('invite-email').fill(invited.email)
  await buyer.getByTestId('create-submit').click()
  await expect(buyer.getByTestId('created-invited')).toContainText(invited.email)
  let claimPath = ''
  await expect(async () => {
    const link = (await mailsTo(invited.email))
      .map((mail) => /https?:\/\/\S+\/join-guest-transaction-as-seller\/[A-Za-z0-9_-]{43}\/f2f/.exec(mail.text)?.[0])
      .find((found) => found !== undefined)
    expect(link, 'the invitation mailed to the account’s address').toBeTruthy()
    claimPath = new URL(link!).pathname
  }).toPass({ timeout: 10_000 })

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await page.goto(claimPath)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Bo invited you to sell “Oak bookcase” face to face through Pactum, with a deposit of €25.00',
  )
  await expectNoAxeViolations(page, 'the invitation landing on a desktop')
  await keepScreenshot(page, 'guest-invitation-landing-desktop')
  await page.getByRole('button', { name: 'I already have an account' }).click()
  await expect(page.getByLabel('E-mail')).toHaveValue(invited.email)
  await page.getByLabel('Password').fill(invited.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`${claimPath}$`))
  await expect(page.getByTestId('claim-description')).toHaveText('Oak bookcase')
  await page.getByTestId('claim-submit').click()
  await expect(page).toHaveURL(/\/transactions\/[0-9a-f-]{36}$/)
})

test('a face-to-face buyer invites the seller by e-mail, who gets the seller’s link', async ({ browser }) => {
  const buyer = await registeredPerson(browser, newPerson('Ben'))
  const invited = newPerson('Sol')
  await buyer.goto('/create-transaction?model=f2f')
  await buyer.getByTestId('role-buyer').check()
  await buyer.getByTestId('description-input').fill('Cargo bike, met at the station')
  await buyer.getByTestId('currency-select').selectOption('eur')
  await buyer.getByTestId('create-next').click()
  await buyer.getByTestId('deposit-input').fill('50.00')
  await expect(buyer.getByTestId('amount-fee')).toContainText(/\d/)
  await buyer.getByTestId('invite-by-email').check()
  await buyer.getByTestId('invite-email').fill('not an address')
  await buyer.getByTestId('create-submit').click()
  await expect(buyer.getByText('Enter a valid e-mail address, such as name@example.com.')).toBeVisible()
  await buyer.getByTestId('invite-email').fill(invited.email)
  await expectNoAxeViolations(buyer, 'the face-to-face deposit step with the invitation')
  await keepScreenshot(buyer, 'guest-invite-f2f')
  await buyer.getByTestId('create-submit').click()
  await expect(buyer.getByTestId('created-invited')).toContainText(invited.email)
  const mail = await nthMailTo(invited.email, 1)
  expect(mail.subject).toBe('You are invited to sell “Cargo bike, met at the station” safely with Pactum')
  expect(mail.text).toMatch(/\/join-guest-transaction-as-seller\/[A-Za-z0-9_-]{43}\/f2f/)
  // No code to share: the last step is the e-mailed invitation.
  await expect(buyer.getByText('Invite by e-mail')).toBeVisible()
  await expect(buyer.getByText('Share the code')).toHaveCount(0)

  // The creator's status page says whom it went to, and refuses a second e-mail within the minute.
  await buyer.getByTestId('go-to-status').click()
  await expect(buyer.getByTestId('invitation-sent')).toContainText(`Invitation sent to ${invited.email} on`)
  await expect(buyer.getByTestId('invitation-expires')).toContainText('The link works until')
  await expectNoAxeViolations(buyer, 'the status page of an invitation not yet claimed')
  await keepScreenshot(buyer, 'guest-invitation-status')
  await buyer.getByTestId('invitation-resend').click()
  await expect(buyer.getByTestId('invitation-resend-error')).toHaveText('You have just sent it. You can send it again in a minute.')
})

test('an unknown or mismatched claim link gets a page that says so', async ({ browser }) => {
  const page = await registeredPerson(browser, newPerson('Uma'))
  await page.goto(`/join-guest-transaction/${'A'.repeat(43)}/online`)
  await expect(page.getByTestId('claim-error')).toContainText('This invitation link is unknown.')
  await expectNoAxeViolations(page, 'an unknown claim link')
  await keepScreenshot(page, 'guest-claim-unknown')
  await page.goto('/join-guest-transaction-as-seller/not-a-secret/shipped')
  await expect(page.getByTestId('claim-invalid')).toBeVisible()
})
