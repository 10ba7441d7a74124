import { z } from 'zod'

/**
 * An authenticator app as the second factor of the embedded sign-in
 * (issue 30): set up from the Account page with the password, confirmed
 * with a code the app made, removed with the password.
 */

/** GET /me/totp: whether the account signs in with an authenticator app's code too. */
export const totpStatusSchema = z
  .object({
    enabled: z.boolean(),
    since: z.string().nullable(),
  })
  .meta({ id: 'TotpStatus' })
export type TotpStatusView = z.infer<typeof totpStatusSchema>

/** POST /me/totp/setup and POST /me/totp/remove: the current password. */
export const totpPasswordBodySchema = z.object({ current_password: z.string().min(1).max(1024) }).meta({ id: 'TotpPasswordRequest' })
export type TotpPasswordBody = z.infer<typeof totpPasswordBodySchema>

/** What the app needs: the secret to type in, the `otpauth://` link, and that link as a QR code (an image data URL). */
export const totpSetupSchema = z
  .object({
    secret: z.string(),
    otpauth_uri: z.string(),
    qr_code: z.string(),
  })
  .meta({ id: 'TotpSetup' })
export type TotpSetup = z.infer<typeof totpSetupSchema>

/** Six digits, as the app shows them (a space in the middle is allowed). */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'six digits'))

/** POST /me/totp: a code the app made from the secret, which turns the factor on. */
export const confirmTotpBodySchema = z.object({ code: totpCodeSchema }).meta({ id: 'ConfirmTotpRequest' })
export type ConfirmTotpBody = z.input<typeof confirmTotpBodySchema>
