import { describe, expect, it } from 'vitest'
import { createI18n } from '../../i18n/i18n.ts'
import { ApiError } from './api-error.ts'
import { errorMessage } from './error-message.ts'

const refusal = (code: ApiError['code'], details: Record<string, unknown> = {}) =>
  new ApiError({ status: 429, code, message: 'x', details, requestId: 'r' })

describe('what a refused call says', () => {
  it('says how many minutes to wait when a limit’s window closes later than in a minute, in the interface language', async () => {
    const english = await createI18n('en_gb')
    expect(errorMessage(english.t, refusal('rate_limited', { reason: 'transaction_creates', retry_after: 3600 }))).toBe(
      'Too many requests. Try again in 60 minutes.',
    )
    expect(errorMessage(english.t, refusal('rate_limited', { reason: 'transaction_creates', retry_after: 61 }))).toBe(
      'Too many requests. Try again in 2 minutes.',
    )
    expect(errorMessage(english.t, refusal('rate_limited', { retry_after: 30 }))).toBe('Too many attempts. Wait a minute and try again.')
    expect(errorMessage(english.t, refusal('rate_limited'))).toBe('Too many attempts. Wait a minute and try again.')
    const polish = await createI18n('pl_pl')
    expect(errorMessage(polish.t, refusal('rate_limited', { retry_after: 300 }))).toBe('Zbyt wiele żądań. Spróbuj ponownie za 5 minut.')
  })

  it('names each invitation refusal in its own words', async () => {
    const english = await createI18n('en_gb')
    expect(errorMessage(english.t, refusal('too_many_invitations'))).toMatch(/^You have sent as many invitations/)
    expect(errorMessage(english.t, refusal('too_many_invitations_to_recipient'))).toMatch(/^This address has been sent as many invitations/)
    expect(errorMessage(english.t, refusal('invitations_stopped_by_recipient'))).toMatch(/^The owner of this address has asked Pactum/)
  })
})
