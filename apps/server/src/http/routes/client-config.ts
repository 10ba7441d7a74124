import { clientConfigSchema } from '@pactum/contracts/client-config'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** Public: what the web app needs before anyone has signed in. */
export const clientConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/config',
    { schema: { tags: ['system'], summary: 'Web client configuration', response: { 200: clientConfigSchema } } },
    async () => {
      const { oidc, supportEmail } = app.services.config
      return {
        oidc: {
          authority: oidc.issuer,
          client_id: oidc.clientId,
          scope: 'openid profile email offline_access',
          supports_registration: oidc.mode === 'embedded',
          supports_email_confirmation: oidc.mode === 'embedded',
          supports_password_change: oidc.mode === 'embedded',
        },
        support_email: supportEmail,
      }
    },
  )
}
