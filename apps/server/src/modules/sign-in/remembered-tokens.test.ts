import { describe, expect, it } from 'vitest'
import type { AccessTokenClaims } from './access-token-verifier.ts'
import { rememberVerifiedTokens } from './remembered-tokens.ts'

/** A verifier that counts its calls; tokens are `valid-<exp>` or anything else (refused). */
function countingVerifier() {
  const calls: string[] = []
  const verify = async (token: string): Promise<AccessTokenClaims> => {
    calls.push(token)
    const match = /^valid-(\d+)$/.exec(token)
    if (!match) throw new Error('signature verification failed')
    return { iss: 'https://issuer.example', sub: token, exp: Number(match[1]) }
  }
  return { calls, verify }
}

describe('remembered access tokens', () => {
  it('checks a token once, then answers from memory with the same claims', async () => {
    let now = 1_000_000_000_000
    const { calls, verify } = countingVerifier()
    const remembered = rememberVerifiedTokens(verify, { now: () => now, maxSeconds: 60 })
    const token = `valid-${now / 1000 + 3600}`
    const first = await remembered(token)
    now += 30_000
    expect(await remembered(token)).toEqual(first)
    expect(calls).toEqual([token])
  })

  it('checks again after maxSeconds, and never answers from memory past the token’s expiry', async () => {
    let now = 1_000_000_000_000
    const { calls, verify } = countingVerifier()
    const remembered = rememberVerifiedTokens(verify, { now: () => now, maxSeconds: 60 })
    const longLived = `valid-${now / 1000 + 3600}`
    const shortLived = `valid-${now / 1000 + 10}`
    await remembered(longLived)
    await remembered(shortLived)
    now += 11_000
    await remembered(shortLived)
    expect(calls).toEqual([longLived, shortLived, shortLived])
    now += 50_000
    await remembered(longLived)
    expect(calls).toEqual([longLived, shortLived, shortLived, longLived])
  })

  it('never remembers a refusal, nor a token without an expiry', async () => {
    const { calls, verify } = countingVerifier()
    const remembered = rememberVerifiedTokens(verify)
    await expect(remembered('forged')).rejects.toThrow('signature verification failed')
    await expect(remembered('forged')).rejects.toThrow('signature verification failed')
    const noExpiry = rememberVerifiedTokens(async (token) => ({ iss: 'https://issuer.example', sub: token }))
    expect(await noExpiry('a')).toMatchObject({ sub: 'a' })
    expect(calls).toEqual(['forged', 'forged'])
  })

  it('keeps at most maxEntries tokens', async () => {
    const now = 1_000_000_000_000
    const { calls, verify } = countingVerifier()
    const remembered = rememberVerifiedTokens(verify, { now: () => now, maxEntries: 2 })
    const tokens = [1, 2, 3].map((n) => `valid-${now / 1000 + 3600 + n}`)
    for (const token of tokens) await remembered(token)
    await remembered(tokens[0]!)
    expect(calls).toEqual([...tokens, tokens[0]])
  })
})
