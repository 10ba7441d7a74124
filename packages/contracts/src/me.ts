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
    /** Roles the address brings once it is confirmed (an ADMIN_EMAILS address not confirmed yet). */
    pending_roles: z.array(z.string()),
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
export const closeAccountBodySchema = z
  .object({ confirm_email: z.string().trim().min(1).max(254) })
  .meta({ id: 'CloseAccountRequest' })
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
