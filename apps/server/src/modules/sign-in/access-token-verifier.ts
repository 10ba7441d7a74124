import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose'

/** What the API trusts from a verified access token. */
export interface AccessTokenClaims extends JWTPayload {
  iss: string
  sub: string
  email?: string
  email_verified?: boolean
  given_name?: string
  family_name?: string
  roles?: string[]
  /** How the person signed in (RFC 8176), when the issuer says. */
  amr?: string[]
}

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims>

/** Asymmetric algorithms only: `none` and HMAC can never verify. */
const allowedAlgorithms = ['RS256', 'PS256', 'ES256', 'EdDSA']

export function createAccessTokenVerifier(options: {
  issuer: string
  audience: string
  keys: { jwks: JSONWebKeySet } | { jwksUri: string }
}): AccessTokenVerifier {
  const getKey = 'jwks' in options.keys ? createLocalJWKSet(options.keys.jwks) : createRemoteJWKSet(new URL(options.keys.jwksUri))
  return async (token) => {
    const { payload } = await jwtVerify(token, getKey, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: allowedAlgorithms,
      requiredClaims: ['sub', 'exp'],
      clockTolerance: 5,
    })
    return payload as AccessTokenClaims
  }
}

/** Finds an external issuer's key set through its discovery document. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`)
  if (!response.ok) throw new Error(`OIDC discovery at ${issuer} answered ${response.status}`)
  const document = (await response.json()) as { jwks_uri?: unknown }
  if (typeof document.jwks_uri !== 'string') throw new Error(`OIDC discovery at ${issuer} has no jwks_uri`)
  return document.jwks_uri
}
