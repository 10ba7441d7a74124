import { z } from 'zod'

/** What the web app needs to know before it can sign anyone in. Public. */
export const clientConfigSchema = z
  .object({
    oidc: z.object({
      authority: z.string().url(),
      client_id: z.string(),
      scope: z.string(),
      /** Embedded provider only: where "create an account" starts. */
      supports_registration: z.boolean(),
      /** Embedded provider only: the account page can send the e-mail confirmation link again. */
      supports_email_confirmation: z.boolean(),
      /** Embedded provider only: the account page can change the password (POST /me/password). */
      supports_password_change: z.boolean(),
    }),
    support_email: z.string(),
  })
  .meta({ id: 'ClientConfig' })

export type ClientConfig = z.infer<typeof clientConfigSchema>
