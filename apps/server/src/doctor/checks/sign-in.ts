import { discoverJwksUri } from '../../modules/sign-in/access-token-verifier.ts'
import type { OidcConfig } from '../../config.ts'
import { answered, type ProviderReport } from '../report.ts'

/** Sign-in: the embedded OpenID provider, or an external one found through its discovery document. */
export async function checkSignIn(oidc: OidcConfig): Promise<ProviderReport> {
  if (oidc.mode === 'embedded') {
    return { service: 'sign-in', mode: 'embedded', summary: `the embedded sign-in at ${oidc.issuer} (people sign up here)`, checks: [] }
  }
  return {
    service: 'sign-in',
    mode: 'real',
    summary: `the OpenID provider ${oidc.issuer} (client ${oidc.clientId}, audience ${oidc.audience})`,
    checks: [await answered('discovery', async () => `keys at ${await discoverJwksUri(oidc.issuer)}`)],
  }
}
