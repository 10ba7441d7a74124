import type { VerificationStatus } from '@pactum/contracts/verification'
import type { ApiClient } from './api-client.ts'

/**
 * GET /me/verification_status, shared by the profile (where the person
 * verifies) and the transaction page (where a high-value sale waits for it),
 * so both read and refresh one cached answer.
 */
export const verificationStatusKey = ['me', 'verification_status'] as const

export function fetchVerificationStatus(api: ApiClient, signal?: AbortSignal) {
  return api.request<VerificationStatus>('/me/verification_status', { signal })
}
