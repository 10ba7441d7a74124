import { describe, expect, it } from 'vitest'
import { ForbiddenTargetError, isForbiddenAddress, safeLookup } from './safe-target.ts'

describe('where a partner webhook may not go', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(['203.0.114.10', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('takes %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false)
  })
})

describe('the lookup a delivery connects with', () => {
  const resolvingTo =
    (address: string) =>
    (_host: string, _options: object, callback: (error: null, addresses: Array<{ address: string; family: number }>) => void) =>
      callback(null, [{ address, family: 4 }])

  it('refuses a name that resolves to a private address, after the lookup', async () => {
    const lookup = safeLookup(false, resolvingTo('10.0.0.1'))
    const error = await new Promise((resolve) => lookup('hooks.example.com', {}, (failure) => resolve(failure)))
    expect(error).toBeInstanceOf(ForbiddenTargetError)
    expect(String(error)).toContain('hooks.example.com resolves to 10.0.0.1')
  })

  it('connects to a public address, and to a private one when WEBHOOK_ALLOW_PRIVATE says so', async () => {
    const answer = (lookup: ReturnType<typeof safeLookup>) =>
      new Promise((resolve) => lookup('hooks.example.com', {}, (failure, address) => resolve({ failure, address })))
    expect(await answer(safeLookup(false, resolvingTo('203.0.114.10')))).toEqual({ failure: null, address: '203.0.114.10' })
    expect(await answer(safeLookup(true, resolvingTo('10.0.0.1')))).toEqual({ failure: null, address: '10.0.0.1' })
  })
})
