import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { registerSecurityHeaders, type SecurityHeadersOptions } from './security-headers.ts'

async function policyWith(options: SecurityHeadersOptions): Promise<Map<string, string[]>> {
  const app = Fastify()
  registerSecurityHeaders(app, options)
  app.get('/', async () => 'ok')
  const response = await app.inject({ url: '/' })
  await app.close()
  const header = String(response.headers['content-security-policy'])
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name as string, sources]),
  )
}

/** The sandbox's policy, as it was before any real provider: nothing outside our origin. */
const sandboxPolicy = new Map([
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'", "'unsafe-inline'"]],
  ['img-src', ["'self'", 'data:']],
  ['font-src', ["'self'", 'data:']],
  ['connect-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'self'"]],
  ['frame-ancestors', ["'none'"]],
  ['form-action', ["'self'"]],
])

describe('Content-Security-Policy', () => {
  it('stays as strict as ever with the sandbox payment provider and bank link: no frames, no outside scripts', async () => {
    expect(await policyWith({ trustProxy: false })).toEqual(sandboxPolicy)
    expect(await policyWith({ trustProxy: false, stripe: false })).toEqual(sandboxPolicy)
  })

  it('lets Stripe.js load, frame the Payment Element and 3-D Secure, and call Stripe’s API when Stripe is the provider', async () => {
    const policy = await policyWith({ trustProxy: false, stripe: true })
    expect(policy.get('script-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'])
    expect(policy.get('frame-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'])
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com'])
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'https://*.stripe.com'])
    // Still no inline script, no eval, nothing from Plaid.
    expect([...policy.values()].flat()).not.toContain("'unsafe-eval'")
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'")
    expect([...policy.values()].flat().some((source) => source.includes('plaid'))).toBe(false)
    expect(policy.get('frame-ancestors')).toEqual(["'none'"])
  })

  it('lets Plaid Link load and talk to the configured Plaid environment when Plaid is the bank link', async () => {
    const sandbox = await policyWith({ trustProxy: false, plaid: 'sandbox' })
    expect(sandbox.get('script-src')).toEqual(["'self'", 'https://cdn.plaid.com'])
    expect(sandbox.get('frame-src')).toEqual(["'self'", 'https://cdn.plaid.com'])
    expect(sandbox.get('connect-src')).toEqual(["'self'", 'https://sandbox.plaid.com'])
    expect([...sandbox.values()].flat().some((source) => source.includes('stripe'))).toBe(false)
    expect((await policyWith({ trustProxy: false, plaid: 'production' })).get('connect-src')).toEqual([
      "'self'",
      'https://production.plaid.com',
    ])
  })

  it('adds both providers and an external sign-in side by side', async () => {
    const policy = await policyWith({
      trustProxy: false,
      stripe: true,
      plaid: 'production',
      externalIssuer: 'https://login.example.com/realms/pactum',
    })
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://login.example.com',
      'https://api.stripe.com',
      'https://production.plaid.com',
    ])
    expect(policy.get('script-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://cdn.plaid.com'])
    expect(policy.get('form-action')).toEqual(["'self'", 'https://login.example.com'])
  })
})

describe('the headers besides the policy', () => {
  it('are on every answer as helmet sets them, worked out once: the same on a second answer and on a 404', async () => {
    const app = Fastify()
    registerSecurityHeaders(app, { trustProxy: false })
    app.get('/', async () => 'ok')
    const answers = [await app.inject({ url: '/' }), await app.inject({ url: '/' }), await app.inject({ url: '/missing' })]
    await app.close()
    for (const answer of answers) {
      expect(answer.headers).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      })
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      // One framing rule (frame-ancestors), no isolation that would break Stripe's frames, no HSTS over plain HTTP.
      for (const absent of ['x-frame-options', 'cross-origin-embedder-policy', 'strict-transport-security', 'x-powered-by'])
        expect(answer.headers[absent]).toBeUndefined()
    }
  })
})
