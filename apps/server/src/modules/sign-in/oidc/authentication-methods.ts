/**
 * How a sign-in was made, as the `amr` claim says it (RFC 8176): what the
 * embedded sign-in records at login and puts in the access token, and what
 * ADMIN_REQUIRE_MFA reads. `mfa` marks every way that took two factors.
 */
export type AuthenticationMethods = readonly string[]

export const signedInWith = {
  password: ['pwd'],
  passwordAndCode: ['mfa', 'otp', 'pwd'],
  passwordAndPasskey: ['mfa', 'pop', 'pwd'],
  /** A passkey whose authenticator checked the person (PIN, fingerprint, face): something held and something known or been. */
  verifiedPasskey: ['mfa', 'pop', 'user'],
  /** A passkey whose authenticator only saw someone touch it. */
  passkey: ['pop'],
} as const satisfies Record<string, AuthenticationMethods>

/** Whether a token's `amr` shows two factors. */
export function showsSecondFactor(amr: unknown): boolean {
  return Array.isArray(amr) && amr.includes('mfa')
}
