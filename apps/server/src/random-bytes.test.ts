import { describe, expect, it } from 'vitest'
import { randomBytesFromBatch } from './random-bytes.ts'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('random bytes from a batch', () => {
  it('gives as many bytes as asked for, never the same ones twice, across many batches', () => {
    const drawn = Array.from({ length: 5000 }, () => randomBytesFromBatch(16))
    expect(drawn.every((bytes) => bytes.length === 16)).toBe(true)
    // 80,000 bytes span some twenty batches: a repeat of 16 random bytes would mean bytes handed out twice.
    expect(new Set(drawn.map(hex)).size).toBe(drawn.length)
  })

  it('hands out a copy: what one caller does with its bytes does not reach the next', () => {
    const first = randomBytesFromBatch(8)
    first.fill(0)
    const next = randomBytesFromBatch(8)
    expect(hex(next)).not.toBe(hex(first))
    expect(first.buffer).not.toBe(next.buffer)
  })

  it('draws a request larger than a batch on its own', () => {
    const large = randomBytesFromBatch(10_000)
    expect(large).toHaveLength(10_000)
    // Uniform bytes: every value turns up among 10,000 (a miss has odds of about 256 × e^-39).
    expect(new Set(large).size).toBe(256)
  })
})
