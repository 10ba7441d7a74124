import { describe, expect, it } from 'vitest'
import { explainDifferenceSchema, reconciliationDateSchema } from './reconciliation.ts'

describe('the reconciliation schemas', () => {
  it('take a calendar day of this millennium as YYYY-MM-DD, and nothing else', () => {
    for (const day of ['2026-11-20', '2028-02-29']) expect(reconciliationDateSchema.safeParse(day).success).toBe(true)
    for (const day of ['2026-02-30', '2027-02-29', '2026-13-01', '1999-12-31', '20261120', '2026-11-20T00:00:00Z', ' 2026-11-20']) {
      expect(reconciliationDateSchema.safeParse(day).success, day).toBe(false)
    }
  })

  it('want a reason with something in it, of at most 1000 characters', () => {
    expect(explainDifferenceSchema.parse({ reason: '  A test transfer  ' })).toEqual({ reason: 'A test transfer' })
    expect(explainDifferenceSchema.safeParse({ reason: '   ' }).success).toBe(false)
    expect(explainDifferenceSchema.safeParse({ reason: 'x'.repeat(1001) }).success).toBe(false)
  })
})
