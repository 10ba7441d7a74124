import { type PasswordProblem, passwordMaxLength, passwordMinLength, passwordProblems } from '@pactum/domain/password'
import { isValidEmail, normaliseEmail } from './email-address.ts'
import { nameMaxLength } from './pages.ts'
import type { Translate } from './translations.ts'

/**
 * Reads and checks the sign-in and registration forms. Errors come back
 * already translated, one entry per field, so the page can show each next
 * to its field.
 */
export function formString(body: unknown, name: string): string {
  if (!body || typeof body !== 'object') return ''
  const value = (body as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : ''
}

type Field = 'email' | 'password' | 'firstName' | 'lastName'
export type TranslatedErrors = Partial<Record<Field, string | string[]>>

function emailError(email: string, t: Translate): string | undefined {
  if (!email) return t('error.email.required')
  if (!isValidEmail(email)) return t('error.email.invalid')
  return undefined
}

export function readSignIn(body: unknown, t: Translate) {
  const email = normaliseEmail(formString(body, 'email'))
  const password = formString(body, 'password')
  const errors: TranslatedErrors = {}
  const invalidEmail = emailError(email, t)
  if (invalidEmail) errors.email = invalidEmail
  if (!password) errors.password = t('error.password.required')
  // No account can have a longer one, and scrypt over a megabyte of input is a cheap way to load the server.
  else if (password.length > passwordMaxLength) errors.password = t('error.password.too_long', { max: passwordMaxLength })
  return { email, password, errors }
}

/** Names keep the user's spelling; only outer space and invisible control characters go. */
function cleanName(value: string): string {
  return value
    .normalize('NFC')
    .replace(/\p{Cc}/gu, '')
    .trim()
}

export function passwordErrors(password: string, t: Translate): string[] {
  const messages: Record<PasswordProblem, string> = {
    too_short: t('error.password.too_short', { min: passwordMinLength }),
    too_long: t('error.password.too_long', { max: passwordMaxLength }),
    needs_letter: t('error.password.needs_letter'),
    needs_digit: t('error.password.needs_digit'),
  }
  return passwordProblems(password).map((problem) => messages[problem])
}

export function readRegistration(body: unknown, t: Translate) {
  const firstName = cleanName(formString(body, 'firstName'))
  const lastName = cleanName(formString(body, 'lastName'))
  const email = normaliseEmail(formString(body, 'email'))
  const password = formString(body, 'password')
  const errors: TranslatedErrors = {}
  if (!firstName) errors.firstName = t('error.firstName.required')
  else if (firstName.length > nameMaxLength) errors.firstName = t('error.name.tooLong', { max: nameMaxLength })
  if (!lastName) errors.lastName = t('error.lastName.required')
  else if (lastName.length > nameMaxLength) errors.lastName = t('error.name.tooLong', { max: nameMaxLength })
  const invalidEmail = emailError(email, t)
  if (invalidEmail) errors.email = invalidEmail
  const weak = passwordErrors(password, t)
  if (weak.length > 0) errors.password = weak
  return { firstName, lastName, email, password, errors }
}
