import type { FastifyReply, FastifyRequest } from 'fastify'
import type Provider from 'oidc-provider'
import type { AuthenticationMethods } from './authentication-methods.ts'
import { apiResourceIndicator, apiScope, openIdScopes } from './provider-configuration.ts'

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>

/**
 * Ends an interaction with the account signed in and everything the client
 * asked for granted: Pactum's web app is first party, so there is no consent
 * screen. Granting here, in the same step as the login, saves a second
 * round through the interaction endpoint. `amr` says how the person
 * signed in; it travels with the grant into every access token.
 */
export async function finishInteraction(
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  interaction: Interaction,
  accountId: string,
  amr: AuthenticationMethods,
): Promise<void> {
  const clientId = String(interaction.params.client_id)
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined
  const grant =
    existing && existing.accountId === accountId && existing.clientId === clientId ? existing : new provider.Grant({ accountId, clientId })

  const requested = new Set(String(interaction.params.scope ?? '').split(' '))
  const oidcScopes = openIdScopes.filter((scope) => requested.has(scope))
  if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '))
  // The API scope is granted whether or not the client named it: the access
  // token is only ever for the Pactum API.
  grant.addResourceScope(apiResourceIndicator, apiScope)

  const details = interaction.prompt.details as {
    missingOIDCClaims?: string[]
    missingResourceScopes?: Record<string, string[]>
  }
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims)
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '))
  }
  const grantId = await grant.save()

  // Fastify must not answer too: oidc-provider writes the redirect itself.
  reply.hijack()
  await provider.interactionFinished(
    request.raw,
    reply.raw,
    // `create` answers a prompt=create request whichever form the user ended up submitting.
    { create: {}, login: { accountId, amr: [...amr] }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  )
}
