/** What the app needs to know about the signed-in person, taken from the ID token. */
export interface AuthUser {
  accessToken: string
  /** Seconds since the epoch, as in the token's `exp`; undefined when the provider gave none. */
  expiresAt: number | undefined
  /** `emailVerified` follows the ID token, so a confirmation shows after the next token refresh. */
  profile: { givenName?: string; familyName?: string; email?: string; emailVerified?: boolean }
}

export interface SignInOptions {
  /** Where to land after the provider sends the person back. */
  returnTo: string
  /** Start on the provider's registration page instead of the sign-in page. */
  register?: boolean
  /**
   * An address for the provider's pages to fill in (OIDC `login_hint`): the
   * one an invitation was sent to. Only a prefill; the account still proves it.
   */
  loginHint?: string | undefined
  /** Space-separated BCP 47 tags for the provider's pages. */
  uiLocales: string
}

/**
 * The sign-in port. The app talks only to this, so tests can hand it a fake
 * and never need an OpenID provider.
 */
export interface AuthService {
  getUser(): Promise<AuthUser | null>
  /**
   * The stored user when it can be read at once, so a signed-in page renders
   * on the first pass instead of after a loading screen (issue 13, LCP).
   * Optional: without it the provider waits for `getUser`.
   */
  peekUser?(): AuthUser | null
  signIn(options: SignInOptions): Promise<void>
  /** Finishes the redirect back from the provider; resolves to the path to return to. */
  completeSignIn(url: string): Promise<{ user: AuthUser; returnTo: string }>
  /** Uses the refresh token; rejects when the provider refuses. */
  refresh(): Promise<AuthUser>
  /** Forgets the stored user without contacting the provider. */
  clear(): Promise<void>
  /** Ends the provider session too, then comes back to the app's start page. */
  signOut(): Promise<void>
}
