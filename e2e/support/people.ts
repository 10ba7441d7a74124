import { type Browser, expect, type Page } from '@playwright/test'
import { completeCountryAndTerms } from './onboarding.ts'

export interface Person {
  firstName: string
  lastName: string
  email: string
  password: string
}

export function newPerson(firstName: string): Person {
  return {
    firstName,
    lastName: 'Tester',
    email: `${firstName.toLowerCase()}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`,
    password: 'correct horse 42',
  }
}

/** The tests that sign in as an admin, each with addresses of its own. */
export const adminSlots = ['console', 'clients'] as const

/**
 * An address the e2e server lists in ADMIN_EMAILS (playwright.config.ts),
 * one per test and attempt: a retry cannot register the first one again,
 * and two admin tests may run at once.
 */
export function adminPerson(attempt: number, slot: (typeof adminSlots)[number] = 'console'): Person {
  return { firstName: 'Ada', lastName: 'Admin', email: adminEmail(slot, attempt), password: 'correct horse 42' }
}

export function adminEmail(slot: (typeof adminSlots)[number], attempt: number): string {
  return slot === 'console' ? `admin.e2e.${attempt}@pactum.test` : `admin.${slot}.e2e.${attempt}@pactum.test`
}

/** A fresh browser context (own cookies and storage) with a newly registered person signed in, living in `country` (as the country dialog names it). */
export async function registeredPerson(browser: Browser, person: Person, country = 'Ireland'): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/register')
  await page.getByLabel('First name').fill(person.firstName)
  await page.getByLabel('Last name').fill(person.lastName)
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page).toHaveURL(/\/transactions$/)
  await completeCountryAndTerms(page, country)
  return page
}
