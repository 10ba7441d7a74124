import { createHash, randomBytes } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

/**
 * For tests: a tiny browser over `app.inject` that keeps cookies (by name,
 * ignoring paths — the provider's paths only narrow what a real browser
 * sends) and walks the authorization code + PKCE flow of the web app.
 */
export const testPublicUrl = 'http://localhost:3999'
export const testRedirectUri = `${testPublicUrl}/auth/callback`

export class TestBrowser {
  readonly app: FastifyInstance
  readonly cookies = new Map<string, string>()
  /** The client address the server sees (light-my-request's default is 127.0.0.1). */
  readonly remoteAddress: string | undefined

  constructor(app: FastifyInstance, options: { remoteAddress?: string } = {}) {
    this.app = app
    this.remoteAddress = options.remoteAddress
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  private remember(response: LightMyRequestResponse) {
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now()) || cookie.value === ''
      if (expired) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
  }

  async request(options: {
    method?: 'GET' | 'POST'
    url: string
    form?: Record<string, string>
    headers?: Record<string, string>
  }): Promise<LightMyRequestResponse> {
    const url = options.url.startsWith(testPublicUrl) ? options.url.slice(testPublicUrl.length) : options.url
    const response = await this.app.inject({
      method: options.method ?? 'GET',
      url,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      headers: {
        host: new URL(testPublicUrl).host,
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
        ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...options.headers,
      },
      ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
    })
    this.remember(response)
    return response
  }

  /** Follows redirects within our origin; stops at the client's redirect_uri (returned as its URL). */
  async follow(response: LightMyRequestResponse): Promise<{ response: LightMyRequestResponse; callback?: URL }> {
    let current = response
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.location
      if (current.statusCode < 300 || current.statusCode >= 400 || typeof location !== 'string') return { response: current }
      const target = new URL(location, testPublicUrl)
      if (target.href.startsWith(testRedirectUri)) return { response: current, callback: target }
      current = await this.request({ url: `${target.pathname}${target.search}` })
    }
    throw new Error('too many redirects')
  }
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  return { verifier, challenge }
}

export function authorizationUrl(o: {
  challenge: string
  prompt?: string
  uiLocales?: string
  state?: string
  loginHint?: string
}): string {
  const params = new URLSearchParams({
    client_id: 'pactum-app',
    redirect_uri: testRedirectUri,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    code_challenge: o.challenge,
    code_challenge_method: 'S256',
    state: o.state ?? 'state-1',
    ...(o.prompt ? { prompt: o.prompt } : {}),
    ...(o.uiLocales ? { ui_locales: o.uiLocales } : {}),
    ...(o.loginHint ? { login_hint: o.loginHint } : {}),
  })
  return `/oidc/auth?${params}`
}

/** The path of the interaction page the authorization request led to. */
export function interactionPath(response: LightMyRequestResponse): string {
  const location = response.headers.location
  if (typeof location !== 'string' || !location.includes('/interaction/')) {
    throw new Error(`expected a redirect to an interaction page, got ${response.statusCode} ${location} ${response.body}`)
  }
  return new URL(location, testPublicUrl).pathname
}

export async function exchangeCode(browser: TestBrowser, code: string, verifier: string) {
  const response = await browser.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { host: new URL(testPublicUrl).host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: testRedirectUri,
      code_verifier: verifier,
      client_id: 'pactum-app',
    }).toString(),
  })
  return response
}

/**
 * A finished sign-in's answer (303) followed to the client's callback and
 * its code exchanged: the tokens. Throws, failing the test, at any other
 * turn, with the page or answer that was there instead.
 */
export async function tokensAfter(browser: TestBrowser, posted: LightMyRequestResponse, verifier: string) {
  if (posted.statusCode !== 303) throw new Error(`expected the sign-in to end with 303, got ${posted.statusCode}: ${posted.body}`)
  const { callback } = await browser.follow(posted)
  const code = callback?.searchParams.get('code')
  if (!code) throw new Error(`no authorization code, ended at ${callback}`)
  const response = await exchangeCode(browser, code, verifier)
  if (response.statusCode !== 200) throw new Error(`the token endpoint answered ${response.statusCode}: ${response.body}`)
  return response.json() as { access_token: string; refresh_token: string; id_token: string; expires_in: number }
}

export async function refresh(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { host: new URL(testPublicUrl).host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'pactum-app' }).toString(),
  })
}
