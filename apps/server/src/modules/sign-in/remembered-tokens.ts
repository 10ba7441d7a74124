import { LRUCache } from 'lru-cache'
import type { AccessTokenClaims, AccessTokenVerifier } from './access-token-verifier.ts'

/**
 * Remembers the claims of access tokens already verified, so that a client
 * polling with the same token pays for one signature check rather than one
 * per request (an RSA verification was 9 % of a GET's time, issue 13).
 *
 * A token is immutable and its signature either holds or not, so the only
 * things that change with time are its expiry, which bounds each entry, and
 * the key set, which may drop a key: entries are kept at most
 * `maxSeconds`, so a withdrawn key stops working within that time. Refused
 * tokens are not remembered (each is checked again, and stays refused).
 */
export function rememberVerifiedTokens(
  verify: AccessTokenVerifier,
  options: { maxEntries?: number; maxSeconds?: number; now?: () => number } = {},
): AccessTokenVerifier {
  const maxMs = (options.maxSeconds ?? 60) * 1000
  const now = options.now ?? Date.now
  const verified = new LRUCache<string, { claims: AccessTokenClaims; until: number }>({ max: options.maxEntries ?? 10_000 })
  return async (token) => {
    const remembered = verified.get(token)
    if (remembered && remembered.until > now()) return remembered.claims
    const claims = await verify(token)
    // Until the token expires (jose's 5 s tolerance is not extended), at most maxSeconds.
    const until = Math.min(claims.exp === undefined ? 0 : claims.exp * 1000, now() + maxMs)
    if (until > now()) verified.set(token, { claims: Object.freeze(claims), until })
    return claims
  }
}
