import type { ClientConfig } from '@pactum/contracts/client-config'

/** The issuer the sign-in tests talk to (a realm path, as Keycloak serves it). */
export const testAuthority = 'https://id.example.test/realms/pactum'

/** A client config for the sign-in tests: the web client at `testAuthority`, with none of the optional account pages. */
export const oidcTestConfig: ClientConfig = {
  oidc: {
    authority: testAuthority,
    client_id: 'pactum-web',
    scope: 'openid profile email offline_access',
    supports_registration: false,
    supports_email_confirmation: false,
    supports_password_change: false,
  },
  support_email: 'support@pactum.test',
}
