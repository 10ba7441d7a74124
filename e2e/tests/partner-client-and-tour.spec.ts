import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { answerCountryAndTerms, completeCountryAndTerms } from '../support/onboarding.ts'
import { finishRegistrationFromMail, newPerson, type Person, submitRegistration } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { sellerCreates } from '../support/sale.ts'
import { test } from '../support/test.ts'

/**
 * Issue 12 #3 and #4: a partner marketplace's `?client_id=` session (the
 * demo client of config/clients.json) and the guided tour a new person sees
 * once.
 */

/** Creates the account from the embedded sign-in page the app sent the person to. */
async function registerFromSignIn(page: Page, person: Person) {
  await expect(page).toHaveURL(/\/oidc\//)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await submitRegistration(page, person)
  await finishRegistrationFromMail(page, person)
}

test('a partner client session: its colours and top bar through sign-up and reload, its routes only, recorded on the sale', async ({
  page,
}) => {
  // Signed out, arriving from the partner's site: the client survives the sign-in round trip.
  await page.goto('/transactions?client_id=demo-marketplace')
  await registerFromSignIn(page, newPerson('Cleo'))
  await completeCountryAndTerms(page)
  await expect(page).toHaveURL(/\/transactions$/)

  const bar = page.getByTestId('partner-top-bar')
  await expect(bar).toBeVisible()
  await expect(bar).toHaveCSS('background-color', 'rgb(29, 53, 87)')
  const back = bar.getByRole('link', { name: 'Back to Demo Marketplace' })
  await expect(back).toHaveAttribute('href', 'https://marketplace.example/')
  // The partner's colour is the app's primary colour too (it reads well on white).
  await expect(page.getByTestId('logout-button')).toHaveCSS('color', 'rgb(29, 53, 87)')
  await keepScreenshot(page, 'partner-client-transactions')
  await expectNoAxeViolations(page, 'my transactions under a partner client')

  // A reload keeps it.
  await page.reload()
  await expect(bar).toBeVisible()

  // A route the client does not allow leads to my transactions.
  await page.goto('/profile/balance')
  await expect(page).toHaveURL(/\/transactions$/)
  await expect(bar).toBeVisible()

  // The sale created under the client records it.
  const created = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/api/v1/me/transactions'))
  await sellerCreates(page, 'Vintage lamp', '40')
  expect(new URL((await created).url()).searchParams.get('client_id')).toBe('demo-marketplace')

  // The client hides the mobile navbar on a phone-sized screen: the partner's bar stays,
  // and the menu (language, profile, sign-out) opens from a button in it.
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/transactions')
  await expect(bar).toBeVisible()
  await expect(page.getByTestId('open-menu-button')).toHaveCount(0)
  await keepScreenshot(page, 'partner-client-mobile')
  await expectNoAxeViolations(page, 'my transactions under a partner client, on a phone')
  await bar.getByTestId('partner-bar-menu-button').click()
  const menu = page.getByRole('complementary', { name: 'Menu' })
  await expect(menu.getByTestId('logout-button')).toBeVisible()
  await expect(menu.getByTestId('language-picker')).toBeVisible()
  await keepScreenshot(page, 'partner-client-mobile-menu')
  await expectNoAxeViolations(page, 'the menu opened from the partner bar on a phone')
})

test('an unknown client_id changes nothing', async ({ page }) => {
  await page.goto('/transactions?client_id=no-such-market')
  await registerFromSignIn(page, newPerson('Uma'))
  await completeCountryAndTerms(page)
  await expect(page.getByTestId('welcome-line')).toBeVisible()
  await expect(page.getByTestId('partner-top-bar')).toHaveCount(0)
  await page.goto('/profile/balance')
  await expect(page).toHaveURL(/\/profile\/balance$/)
})

test('the guided tour: shown once to a new person after the country prompt, skippable, reopened from the FAQ with its video', async ({
  page,
}) => {
  await page.goto('/transactions')
  await registerFromSignIn(page, newPerson('Tara'))
  await answerCountryAndTerms(page)

  const tour = page.getByTestId('guided-tour')
  await expect(tour).toBeVisible()
  await expect(tour.getByRole('heading', { name: 'Transact safely' })).toBeVisible()
  await keepScreenshot(page, 'guided-tour-first-step')
  await expectNoAxeViolations(page, 'the guided tour')
  // Keyboard only: Next is reached and pressed without the mouse; the new step's heading takes focus.
  await tour.getByTestId('guided-tour-next').focus()
  await page.keyboard.press('Enter')
  await expect(tour.getByRole('heading', { name: 'Create or join a transaction' })).toBeFocused()
  await expect(tour.getByTestId('guided-tour-announcement')).toHaveText('Step 2 of 5: Create or join a transaction')
  await tour.getByRole('button', { name: 'Skip tour' }).click()
  await expect(tour).toBeHidden()

  // Once: not again after a reload.
  await page.reload()
  await expect(page.getByTestId('welcome-line')).toBeVisible()
  await page.waitForLoadState('networkidle')
  await expect(tour).toHaveCount(0)

  // Reopened from the FAQ, up to the video step.
  await page.goto('/profile/help/faq')
  await page.getByTestId('open-guided-tour').click()
  await expect(tour).toBeVisible()
  await tour.getByRole('button', { name: 'Go to step 5: Watch how it works' }).click()
  const video = tour.getByTestId('guided-tour-video')
  await expect(video).toBeVisible()
  // The clip is served with the app and plays (no download from elsewhere), captions included.
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(1)
  expect(await video.evaluate((element: HTMLVideoElement) => element.autoplay)).toBe(false)
  const captions = await page.request.get('/tour/tour-video.en_gb.vtt')
  expect(await captions.text()).toContain('The seller creates a transaction')
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.currentTime = 4
    await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }))
  })
  await keepScreenshot(page, 'guided-tour-video-step')
  await expectNoAxeViolations(page, 'the guided tour video step')
  await tour.getByTestId('guided-tour-finish').click()
  await expect(tour).toBeHidden()
})
