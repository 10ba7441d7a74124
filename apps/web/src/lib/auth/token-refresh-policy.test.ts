import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tokenCheckIntervalMs, tokenMinValiditySeconds } from '../constants.ts'
import { needsRefresh, startTokenWatch } from './token-refresh-policy.ts'

describe('needsRefresh', () => {
  const now = 1_000_000_000_000

  it('refreshes when fewer than 70 seconds remain', () => {
    expect(tokenMinValiditySeconds).toBe(70)
    expect(needsRefresh(now / 1000 + 71, now)).toBe(false)
    expect(needsRefresh(now / 1000 + 70, now)).toBe(false)
    expect(needsRefresh(now / 1000 + 69, now)).toBe(true)
    expect(needsRefresh(now / 1000 - 5, now)).toBe(true)
  })

  it('leaves tokens without an expiry alone', () => {
    expect(needsRefresh(undefined, now)).toBe(false)
  })
})

describe('startTokenWatch', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }))
  afterEach(() => vi.useRealTimers())

  it('checks every 6 seconds and refreshes once the token is within 70 seconds of expiry', async () => {
    expect(tokenCheckIntervalMs).toBe(6000)
    let expiresAt = 100 // seconds; due for refresh from t = 30 s
    const refresh = vi.fn(async () => {
      expiresAt = Date.now() / 1000 + 3600
    })
    const stop = startTokenWatch({ expiresAt: () => expiresAt, refresh })

    await vi.advanceTimersByTimeAsync(30_000) // checks at 6..30 s: remaining 94..70 s
    expect(refresh).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(5999)
    expect(refresh).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1) // t = 36 s, 64 s left
    expect(refresh).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(refresh).toHaveBeenCalledTimes(1)

    stop()
    expiresAt = 0
    await vi.advanceTimersByTimeAsync(60_000)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it('does not start a second refresh while one is running', async () => {
    let finish: () => void = () => undefined
    const refresh = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    const stop = startTokenWatch({ expiresAt: () => 0, refresh })
    await vi.advanceTimersByTimeAsync(18_000)
    expect(refresh).toHaveBeenCalledTimes(1)
    finish()
    await vi.advanceTimersByTimeAsync(6000)
    expect(refresh).toHaveBeenCalledTimes(2)
    stop()
  })
})
