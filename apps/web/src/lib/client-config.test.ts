import { clientConfigSchema } from '@pactum/contracts/client-config'
import { describe, expect, it, vi } from 'vitest'
import { forgetEarlyResponses, startEarlyGet } from './api/early-responses.ts'
import { clientConfigRequest, fetchClientConfig, parseClientConfig } from './client-config.ts'

const valid = {
  oidc: {
    authority: 'https://pactum.example/oidc',
    client_id: 'pactum-web',
    scope: 'openid profile email offline_access',
    supports_registration: true,
    supports_email_confirmation: false,
    supports_password_change: false,
  },
  support_email: 'help@pactum.example',
}

const invalid: Array<[string, unknown]> = [
  ['no body', null],
  ['an array', []],
  ['no oidc', { support_email: valid.support_email }],
  ['an authority that is not a URL', { ...valid, oidc: { ...valid.oidc, authority: 'pactum' } }],
  ['a missing client id', { ...valid, oidc: { ...valid.oidc, client_id: undefined } }],
  ['a numeric scope', { ...valid, oidc: { ...valid.oidc, scope: 1 } }],
  ['a flag as a string', { ...valid, oidc: { ...valid.oidc, supports_registration: 'true' } }],
  ['a missing e-mail flag', { ...valid, oidc: { ...valid.oidc, supports_email_confirmation: undefined } }],
  ['no support e-mail', { oidc: valid.oidc }],
]

describe('the client configuration, checked without zod', () => {
  it('reads what the contract schema reads, dropping unknown keys as it does', () => {
    const body = { ...valid, extra: 1, oidc: { ...valid.oidc, extra: 2 } }
    expect(parseClientConfig(body)).toEqual(clientConfigSchema.parse(body))
  })

  it.each(invalid)('refuses %s, as the contract schema does', (_name, body) => {
    expect(clientConfigSchema.safeParse(body).success).toBe(false)
    expect(() => parseClientConfig(body)).toThrow(/GET \/config/)
  })

  it('knows every field of the contract schema', () => {
    const shape = (schema: { shape: Record<string, unknown> }): string[] =>
      Object.entries(schema.shape).flatMap(([key, value]) =>
        value && typeof value === 'object' && 'shape' in value
          ? shape(value as { shape: Record<string, unknown> }).map((inner) => `${key}.${inner}`)
          : [key],
      )
    const parsed = parseClientConfig(valid) as unknown as Record<string, Record<string, unknown>>
    const read = Object.entries(parsed).flatMap(([key, value]) =>
      typeof value === 'object' ? Object.keys(value).map((inner) => `${key}.${inner}`) : [key],
    )
    expect(read.sort()).toEqual(shape(clientConfigSchema).sort())
  })
})

describe('fetchClientConfig', () => {
  const body = {
    oidc: {
      authority: 'http://localhost:3000/oidc',
      client_id: 'pactum-app',
      scope: 'openid',
      supports_registration: true,
      supports_email_confirmation: false,
      supports_password_change: false,
    },
    support_email: 'support@pactum.test',
  }
  const answer = () => new Response(JSON.stringify(body), { status: 200 })

  it('takes the answer index.html’s first script asked for, instead of asking again', async () => {
    void startEarlyGet(clientConfigRequest(), async () => answer())
    const doFetch = vi.fn(async () => answer())
    expect(await fetchClientConfig(undefined, doFetch)).toEqual(body)
    expect(doFetch).not.toHaveBeenCalled()
    // Only once: a retry after an error asks the server.
    expect(await fetchClientConfig(undefined, doFetch)).toEqual(body)
    expect(doFetch).toHaveBeenCalledTimes(1)
    forgetEarlyResponses()
  })
})
