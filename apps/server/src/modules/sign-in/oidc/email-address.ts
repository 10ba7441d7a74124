/**
 * E-mail addresses are compared case-insensitively everywhere in the sign-in
 * (accounts, throttle, account id), so they are normalised once, here.
 */
export const emailMaxLength = 254

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** RFC 5321's limit on the part before the @ (the contracts' e-mail schemas hold the same). */
export const localPartMaxLength = 64

/** Deliberately loose (one @, a dot in the domain, no spaces): the real check is that mail arrives. */
export function isValidEmail(normalisedEmail: string): boolean {
  const localPart = normalisedEmail.slice(0, normalisedEmail.lastIndexOf('@'))
  return (
    normalisedEmail.length <= emailMaxLength && localPart.length <= localPartMaxLength && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalisedEmail)
  )
}

/**
 * The address an authorization request suggests (OIDC `login_hint`: the
 * one an invitation went to), to fill in on the sign-in and registration
 * pages; undefined unless it reads as an address. Only a prefill: the form
 * posts what the person leaves there, and registering still proves it.
 */
export function emailHint(loginHint: unknown): string | undefined {
  if (typeof loginHint !== 'string') return undefined
  const email = normaliseEmail(loginHint)
  return isValidEmail(email) ? email : undefined
}
