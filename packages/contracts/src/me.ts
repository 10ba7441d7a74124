import { passwordMaxLength, passwordProblems } from '@pactum/domain/password'
import { z } from 'zod'

export const meSchema = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    roles: z.array(z.string()),
    /** Whether the sign-in proved the address (the token's `email_verified`). */
    email_verified: z.boolean(),
    /** Roles the address brings once the person does what `pending_role_needs` says (an ADMIN_EMAILS address). */
    pending_roles: z.array(z.string()),
    /**
     * What the pending roles wait for: the address confirmed, a sign-in with
     * a second factor (ADMIN_REQUIRE_MFA). Empty when nothing is pending.
     */
    pending_role_needs: z.array(z.enum(['email_confirmation', 'second_factor'])),
    created: z.string(),
  })
  .meta({ id: 'Me' })

export type Me = z.infer<typeof meSchema>

/** POST /me/email_confirmation: where the new confirmation link went (embedded sign-in only). */
export const emailConfirmationSentSchema = z.object({ email: z.string() }).meta({ id: 'EmailConfirmationSent' })
export type EmailConfirmationSent = z.infer<typeof emailConfirmationSentSchema>

/**
 * POST /me/close_account: the person types their address again to say they
 * mean it. Refused while money is held or owed (issue 30).
 */
export const closeAccountBodySchema = z.object({ confirm_email: z.string().trim().min(1).max(254) }).meta({ id: 'CloseAccountRequest' })
export type CloseAccountBody = z.infer<typeof closeAccountBodySchema>

/**
 * POST /me/email (embedded sign-in only): the new address and the current
 * password. The address changes when the link e-mailed to it is opened.
 */
export const changeEmailBodySchema = z
  .object({
    new_email: z.email().trim().toLowerCase().max(254),
    current_password: z.string().min(1).max(1024),
  })
  .meta({ id: 'ChangeEmailRequest' })
export type ChangeEmailBody = z.infer<typeof changeEmailBodySchema>

/**
 * POST /me/password (embedded sign-in only): the current password and the
 * new one, which follows the registration page's rule (domain/password.ts).
 * The refusals are the rule's problem names, for the form to translate.
 */
export const changePasswordSchema = z
  .object({
    current_password: z.string().min(1).max(passwordMaxLength),
    new_password: z.string().superRefine((value, context) => {
      for (const problem of passwordProblems(value)) context.addIssue({ code: 'custom', message: problem })
    }),
  })
  .meta({ id: 'ChangePassword' })
export type ChangePassword = z.infer<typeof changePasswordSchema>

/** How many other sessions a password change or "sign out everywhere else" ended; the asking one stays signed in. */
export const sessionsSignedOutSchema = z.object({ signed_out_sessions: z.number().int().min(0) }).meta({ id: 'SessionsSignedOut' })
export type SessionsSignedOut = z.infer<typeof sessionsSignedOutSchema>

/** GET /me/sessions (embedded sign-in only): the browsers signed in to the account. */
export const signedInSessionSchema = z
  .object({
    id: z.string(),
    signed_in_at: z.string(),
    last_used_at: z.string(),
    /** The session of the browser asking. */
    current: z.boolean(),
  })
  .meta({ id: 'SignedInSession' })
export type SignedInSession = z.infer<typeof signedInSessionSchema>
export const signedInSessionsSchema = z.array(signedInSessionSchema)
