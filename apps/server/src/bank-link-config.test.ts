import { describe, expect, it } from 'vitest'
import { loadBankLinkConfig } from './bank-link-config.ts'
import { ConfigError, loadConfig } from './config.ts'

const clientId = '5f0e4c2a9b1d3e7f8a6c4b2d'
const secret = '0123456789abcdef0123456789abcd'

describe('bank link configuration', () => {
  it('is the sandbox with no Plaid keys', () => {
    expect(loadBankLinkConfig({})).toEqual({ bankLink: { provider: 'sandbox' }, problems: [] })
    expect(loadConfig({}).bankLink).toEqual({ provider: 'sandbox' })
  })

  it('is Plaid’s sandbox environment with the two keys, production when PLAID_ENV says so', () => {
    expect(loadBankLinkConfig({ PLAID_CLIENT_ID: clientId, PLAID_SECRET: secret }).bankLink).toEqual({
      provider: 'plaid',
      clientId,
      secret,
      environment: 'sandbox',
      apiUrl: 'https://sandbox.plaid.com',
    })
    expect(loadBankLinkConfig({ PLAID_CLIENT_ID: clientId, PLAID_SECRET: secret, PLAID_ENV: 'production' }).bankLink).toMatchObject({
      environment: 'production',
      apiUrl: 'https://production.plaid.com',
    })
  })

  it('takes PLAID_API_URL for tests and proxies: https, or http on loopback only', () => {
    const keys = { PLAID_CLIENT_ID: clientId, PLAID_SECRET: secret }
    expect(loadBankLinkConfig({ ...keys, PLAID_API_URL: 'http://127.0.0.1:4010/' }).bankLink).toMatchObject({
      apiUrl: 'http://127.0.0.1:4010',
    })
    expect(loadBankLinkConfig({ ...keys, PLAID_API_URL: 'https://plaid-proxy.internal/api' }).bankLink).toMatchObject({
      apiUrl: 'https://plaid-proxy.internal/api',
    })
    expect(loadBankLinkConfig({ ...keys, PLAID_API_URL: 'http://plaid-proxy.internal' }).problems).toEqual([
      'PLAID_API_URL: must be https:// (plain http only for localhost)',
    ])
    expect(loadBankLinkConfig({ ...keys, PLAID_API_URL: 'https://user:pw@plaid-proxy.internal' }).problems).toEqual([
      'PLAID_API_URL: no credentials in the URL',
    ])
  })

  it('names every problem, never the secret', () => {
    const { problems } = loadBankLinkConfig({ PLAID_SECRET: 'has a space in it', PLAID_ENV: 'development' })
    expect(problems).toEqual([
      'PLAID_CLIENT_ID: required when PLAID_SECRET is set',
      'PLAID_SECRET: expected 8–200 printable characters without spaces',
      'PLAID_ENV: expected sandbox or production',
    ])
    expect(problems.join('\n')).not.toContain('has a space')
    expect(loadBankLinkConfig({ PLAID_CLIENT_ID: clientId }).problems).toEqual(['PLAID_SECRET: required when PLAID_CLIENT_ID is set'])
    expect(loadBankLinkConfig({ PLAID_ENV: 'sandbox' }).problems).toEqual([
      'PLAID_ENV: only used with PLAID_CLIENT_ID and PLAID_SECRET, which are not set',
    ])
    expect(() => loadConfig({ PLAID_CLIENT_ID: clientId })).toThrow(ConfigError)
  })
})
