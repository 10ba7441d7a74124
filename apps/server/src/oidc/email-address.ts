/**
 * E-mail addresses are compared case-insensitively everywhere in the sign-in
 * (accounts, throttle, account id), so they are normalised once, here.
 */
export const emailMaxLength = 254

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** Deliberately loose (one @, a dot in the domain, no spaces): the real check is that mail arrives. */
export function isValidEmail(normalisedEmail: string): boolean {
  return normalisedEmail.length <= emailMaxLength && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalisedEmail)
}
