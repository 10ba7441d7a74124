import type { KoaContextWithOIDC } from 'oidc-provider'

/**
 * RP-initiated logout normally asks the person first: a logout request that
 * anyone can make a browser send (a link, an image) would otherwise sign
 * them out (OpenID Connect RP-Initiated Logout 1.0 §2 and §6). It need not
 * ask when the request carries an ID token that oidc-provider has verified
 * (signature, issuer, audience: see end_session's checks, which run before
 * logoutSource) and that belongs to the session being ended: issued to one
 * of our own clients, for the account signed in here, in a session that
 * signed in to that client. Another person's ID token (an attacker's own)
 * does not match the account, so a forged request still gets the question.
 */
export function hintProvesOwnSession(ctx: KoaContextWithOIDC, ownClientIds: readonly string[]): boolean {
  const hint = ctx.oidc.entities.IdTokenHint
  const { session, client } = ctx.oidc
  if (!hint || !session?.accountId || !client) return false
  if (!ownClientIds.includes(client.clientId) || hint.payload.aud !== client.clientId) return false
  return hint.payload.sub === session.accountId && session.authorizations?.[client.clientId] !== undefined
}

/**
 * Ends the provider session as its own "yes, sign out" does (oidc-provider's
 * end_session confirm step with `logout=yes`, back-channel logout being off
 * here): every grant of the session revoked with its tokens, the session and
 * its cookie gone, then straight to the client's post_logout_redirect_uri,
 * which end_session has already checked against the client's registered
 * ones (or to the signed-out page when the client named none).
 */
export async function endSessionNow(ctx: KoaContextWithOIDC): Promise<void> {
  const { provider, session, params } = ctx.oidc
  if (!session) throw new Error('endSessionNow needs the session that end_session loaded')
  await Promise.all(
    Object.values(session.authorizations ?? {}).map(async ({ grantId, persistsLogout }) => {
      if (!grantId || persistsLogout) return
      await Promise.all([
        provider.AccessToken.revokeByGrantId(grantId),
        provider.RefreshToken.revokeByGrantId(grantId),
        provider.AuthorizationCode.revokeByGrantId(grantId),
        provider.Grant.find(grantId).then((grant) => grant?.destroy()),
      ])
    }),
  )
  await session.destroy()
  // Deleted with the options it was set with (oidc-provider's default `cookies.long`).
  ctx.cookies.set(provider.cookieName('session'), null, { httpOnly: true, sameSite: 'lax' })

  const postLogoutRedirectUri = typeof params?.post_logout_redirect_uri === 'string' ? params.post_logout_redirect_uri : undefined
  const target = new URL(postLogoutRedirectUri ?? ctx.oidc.urlFor('end_session_success'))
  if (postLogoutRedirectUri && typeof params?.state === 'string') target.searchParams.set('state', params.state)
  provider.emit('end_session.success', ctx)
  ctx.status = 303
  ctx.redirect(target.href)
}
