import { describe, expect, it } from 'vitest'
import { uuidPattern, uuidV7 } from './ids.ts'

describe('uuidV7', () => {
  it('is a version 7 UUID', () => {
    const id = uuidV7(new Date())
    expect(id).toMatch(uuidPattern)
    expect(id[14]).toBe('7')
    expect(['8', '9', 'a', 'b']).toContain(id[19])
  })
  it('carries its millisecond in the first 48 bits', () => {
    // Later than any test before it: an earlier millisecond would borrow the last one used.
    const ms = 2_000_000_123_456
    const id = uuidV7(new Date(ms))
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms)
  })
  it('sorts by creation time', () => {
    const ids = [0, 1, 2, 1000, 86_400_000].map((offset) => uuidV7(new Date(1_790_000_000_000 + offset)))
    expect([...ids].sort()).toEqual(ids)
  })
})

describe('uuidV7 within one millisecond', () => {
  it('still sorts in creation order', () => {
    const moment = new Date(1_800_000_000_000)
    const ids = Array.from({ length: 50 }, () => uuidV7(moment))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(50)
  })
})
