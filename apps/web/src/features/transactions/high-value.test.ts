import { describe, expect, it } from 'vitest'
import { ApiError } from '../../lib/api/api-error.ts'
import { apiError, fakeTransaction } from '../../test/fake-api-client.ts'
import { awaitsIdentityVerification, unverifiedRoles } from './high-value.ts'

const refusal = (details: Record<string, unknown>) =>
  new ApiError({ status: 409, code: 'identity_verification_required', message: 'verify first', details, requestId: 'test' })

describe('high-value identity gate', () => {
  it('applies to a joined high-value sale of our own clients only', () => {
    const sale = fakeTransaction({ status: 'joined', high_value: true, client_id: 'pactum-app' })
    expect(awaitsIdentityVerification(sale)).toBe(true)
    expect(awaitsIdentityVerification({ ...sale, client_id: 'pactum-landing' })).toBe(true)
    expect(awaitsIdentityVerification({ ...sale, client_id: 'partner-shop' })).toBe(false)
    expect(awaitsIdentityVerification({ ...sale, client_id: null })).toBe(false)
    expect(awaitsIdentityVerification({ ...sale, high_value: false })).toBe(false)
    expect(awaitsIdentityVerification({ ...sale, status: 'created' })).toBe(false)
    expect(awaitsIdentityVerification({ ...sale, status: 'paid' })).toBe(false)
    expect(awaitsIdentityVerification({ ...sale, is_payment_in_progress: true })).toBe(false)
  })

  it('reads who is still unverified from the refusal, and nothing from other errors', () => {
    expect(unverifiedRoles(refusal({ unverified: ['buyer', 'seller'] }))).toEqual(['buyer', 'seller'])
    expect(unverifiedRoles(refusal({ unverified: ['seller', 'admin', 7] }))).toEqual(['seller'])
    expect(unverifiedRoles(refusal({}))).toEqual([])
    expect(unverifiedRoles(apiError(409, 'invalid_state'))).toEqual([])
    expect(unverifiedRoles(new Error('offline'))).toEqual([])
  })
})
