import { describe, expect, it } from 'vitest'
import { formatRemaining } from './dates.ts'

const hour = 3_600_000
const minute = 60_000

describe('formatRemaining', () => {
  it('shows days, hours and minutes for long waits and seconds in the last hour', () => {
    expect(formatRemaining(24 * hour + 3 * hour + 5 * minute, 'en_gb')).toBe('1 day 3 hrs 5 mins')
    expect(formatRemaining(23 * hour + 59 * minute + 30_000, 'en_gb')).toBe('23 hrs 59 mins')
    expect(formatRemaining(5 * minute + 7_000, 'en_gb')).toBe('5 mins 7 secs')
    expect(formatRemaining(-5, 'en_gb')).toBe('0 secs')
  })

  it('leaves out a unit at zero, so the last minute reads "59 secs" (issue 33 item 12)', () => {
    expect(formatRemaining(59_000, 'en_gb')).toBe('59 secs')
    expect(formatRemaining(2 * hour + 30_000, 'en_gb')).toBe('2 hrs')
    expect(formatRemaining(24 * hour + 5 * minute, 'en_gb')).toBe('1 day 5 mins')
  })

  it('speaks the interface language, with its own plurals', () => {
    expect(formatRemaining(2 * hour + 3 * minute, 'pl_pl')).toBe('2 godz. i 3 min')
    expect(formatRemaining(2 * hour + minute, 'sv_se')).toMatch(/^2 tim.* 1 min$/)
  })
})
