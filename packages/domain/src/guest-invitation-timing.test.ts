import { describe, expect, it } from 'vitest'
import { checkResend, guestInvitationMaxSends, invitationExpiresAt, isInvitationExpired } from './guest-invitation-timing.ts'

const sent = new Date('2026-03-01T10:00:00Z')

describe('guest invitation timing', () => {
  it('expires fourteen days after it was sent', () => {
    expect(invitationExpiresAt(sent).toISOString()).toBe('2026-03-15T10:00:00.000Z')
    expect(isInvitationExpired(sent, new Date('2026-03-15T09:59:59Z'))).toBe(false)
    expect(isInvitationExpired(sent, new Date('2026-03-15T10:00:00Z'))).toBe(true)
  })

  it('lets the creator re-send once a minute, saying how long to wait', () => {
    expect(checkResend(sent, 1, new Date('2026-03-01T10:00:20Z'))).toEqual({ allowed: false, reason: 'too_soon', retryAfterSeconds: 40 })
    expect(checkResend(sent, 1, new Date('2026-03-01T10:00:59.500Z'))).toEqual({ allowed: false, reason: 'too_soon', retryAfterSeconds: 1 })
    expect(checkResend(sent, 1, new Date('2026-03-01T10:01:00Z'))).toEqual({ allowed: true })
  })

  it('stops after the cap, however long ago the last one went', () => {
    expect(checkResend(sent, guestInvitationMaxSends - 1, new Date('2026-03-02T10:00:00Z'))).toEqual({ allowed: true })
    expect(checkResend(sent, guestInvitationMaxSends, new Date('2026-03-02T10:00:00Z'))).toEqual({ allowed: false, reason: 'too_many' })
  })
})
