import rateLimit from '@fastify/rate-limit'
import { sandboxLinkCompleteBodySchema, sandboxLinkCompleteResponseSchema } from '@pactum/contracts/bank-accounts'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Clock } from '../../clock.ts'
import { AppError } from '../../errors.ts'
import type { SandboxBankLink } from './sandbox.ts'
import { named } from '../../http/named-plugin.ts'

/**
 * The sandbox bank-link provider's browser API, what Plaid Link would do in
 * the browser: `POST /sandbox/plaid/link/{link_token}/complete
 * {institution: 'success'|'failure'}` → `{public_token, accounts}`. Public
 * (the link token is the capability, single use), rate-limited.
 */
export async function sandboxBankLinkRoutes(app: FastifyInstance, deps: { bankLink: SandboxBankLink; clock: Clock }): Promise<void> {
  const plugin = named('sandbox-bank-link-pages', async (plain: FastifyInstance) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>()
    if (!scope.hasDecorator('rateLimit')) await scope.register(rateLimit, { global: false })
    scope.post(
      '/sandbox/plaid/link/:link_token/complete',
      {
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags: ['sandbox'],
          summary: 'Sandbox bank link: finish the link screen with a test institution outcome',
          params: z.object({ link_token: z.string().min(1).max(200) }),
          body: sandboxLinkCompleteBodySchema,
          response: { 200: sandboxLinkCompleteResponseSchema, 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
        },
      },
      async (request) => {
        const result = await deps.bankLink.completeLink({
          linkToken: request.params.link_token,
          institution: request.body.institution,
          now: deps.clock.now(),
        })
        if (!result.ok) throw new AppError('not_found', 'Unknown, used or expired link token')
        return { public_token: result.publicToken, accounts: result.accounts }
      },
    )
  })
  await app.register(plugin)
}
