import { User } from 'oidc-client-ts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { oidcTestConfig, testAuthority } from '../../test/fake-client-config.ts'
import { createOidcAuthService, createUserManager } from './oidc-auth-service.ts'

const authority = testAuthority
const config = oidcTestConfig
const origin = 'https://pactum.example.test'

/** The issuer's discovery document, as it answers: its own end_session_endpoint, at a path of its choosing. */
function answerDiscovery(document: Record<string, unknown>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    if (String(input) !== `${authority}/.well-known/openid-configuration`) return new Response('not found', { status: 404 })
    return Response.json({
      issuer: authority,
      authorization_endpoint: `${authority}/auth`,
      token_endpoint: `${authority}/token`,
      ...document,
    })
  })
  vi.stubGlobal('fetch', fetchMock)
}

/** Where the page was sent; the navigation itself goes nowhere in a test. */
function watchNavigation() {
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined)
  return () => assign.mock.calls.map(([url]) => new URL(String(url)))
}

async function signedInManager(storage: Storage) {
  const manager = createUserManager(config, origin, storage)
  await manager.storeUser(
    new User({
      id_token: 'the-id-token',
      access_token: 'the-access-token',
      refresh_token: 'the-refresh-token',
      token_type: 'Bearer',
      profile: { sub: 'anna', iss: authority, aud: 'pactum-web', exp: 0, iat: 0 },
      expires_at: Math.floor(Date.now() / 1000) + 600,
    }),
  )
  return manager
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('signing out', () => {
  it("forgets the tokens and goes to the issuer's end_session_endpoint with the ID token as hint", async () => {
    answerDiscovery({ end_session_endpoint: `${authority}/protocol/openid-connect/logout` })
    const navigations = watchNavigation()
    const manager = await signedInManager(localStorage)

    // The promise settles only when the browser comes back, which a test never does.
    void createOidcAuthService(manager, false).signOut()
    await vi.waitFor(() => expect(navigations()).toHaveLength(1))

    const [target] = navigations()
    expect(`${target!.origin}${target!.pathname}`).toBe(`${authority}/protocol/openid-connect/logout`)
    expect(target!.searchParams.get('id_token_hint')).toBe('the-id-token')
    expect(target!.searchParams.get('post_logout_redirect_uri')).toBe(`${origin}/`)
    expect(await manager.getUser()).toBeNull()
    expect(Object.keys(localStorage).filter((key) => key.startsWith('oidc.user:'))).toEqual([])
  })

  it('still forgets the tokens when the issuer offers no end_session_endpoint, and says so', async () => {
    answerDiscovery({})
    const navigations = watchNavigation()
    const manager = await signedInManager(localStorage)

    await expect(createOidcAuthService(manager, false).signOut()).rejects.toThrow()
    expect(navigations()).toEqual([])
    expect(await manager.getUser()).toBeNull()
  })
})

describe('signing in', () => {
  it('asks for the registration page with the invited address as login_hint, for the provider to fill in', async () => {
    answerDiscovery({})
    const navigations = watchNavigation()
    const manager = createUserManager(config, origin, localStorage)

    void createOidcAuthService(manager, true).signIn({
      returnTo: '/join-guest-transaction/secret/online',
      register: true,
      loginHint: 'guest@example.com',
      uiLocales: 'fi',
    })
    await vi.waitFor(() => expect(navigations()).toHaveLength(1))
    const [url] = navigations()
    expect(url?.searchParams.get('login_hint')).toBe('guest@example.com')
    expect(url?.searchParams.get('prompt')).toBe('create')
    expect(url?.searchParams.get('ui_locales')).toBe('fi')
  })

  it('sends no login_hint when there is no address to suggest', async () => {
    answerDiscovery({})
    const navigations = watchNavigation()
    const manager = createUserManager(config, origin, localStorage)

    void createOidcAuthService(manager, true).signIn({ returnTo: '/transactions', uiLocales: 'en' })
    await vi.waitFor(() => expect(navigations()).toHaveLength(1))
    expect(navigations()[0]?.searchParams.has('login_hint')).toBe(false)
  })
})
