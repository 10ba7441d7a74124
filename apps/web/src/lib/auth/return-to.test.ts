import { describe, expect, it } from 'vitest'
import { safeReturnTo } from './return-to.ts'

describe('safeReturnTo', () => {
  it('keeps in-app paths and refuses anything that could leave the site', () => {
    expect(safeReturnTo('/join-transaction/ABCD2345?x=1')).toBe('/join-transaction/ABCD2345?x=1')
    expect(safeReturnTo('//evil.example')).toBe('/transactions')
    expect(safeReturnTo('/\\evil.example')).toBe('/transactions')
    expect(safeReturnTo('https://evil.example')).toBe('/transactions')
    expect(safeReturnTo(undefined)).toBe('/transactions')
  })
})
