import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'
import { behindTrustedProxy, parseTrustProxy } from './trust-proxy.ts'

describe('TRUST_PROXY', () => {
  it('trusts nobody by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(behindTrustedProxy(false)).toBe(false)
  })

  it('takes true, false, or the proxies’ addresses and ranges', () => {
    expect(parseTrustProxy('true')).toEqual({ setting: true })
    expect(parseTrustProxy('false')).toEqual({ setting: false })
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual({
      setting: ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback'],
    })
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback'])
    expect(behindTrustedProxy(['loopback'])).toBe(true)
  })

  it('refuses what is neither, naming it', () => {
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', '127.0.0.1/8/1', 'nginx.local', ' , ']) {
      expect(parseTrustProxy(bad)).toHaveProperty('problem')
    }
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1,proxy' })).toThrow(ConfigError)
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1,proxy' })).toThrow(/TRUST_PROXY: .*not proxy/)
  })
})
