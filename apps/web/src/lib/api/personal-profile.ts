import type { ApiClient } from './api-client.ts'

/**
 * GET /me/personal once a country is set (409 active_country_not_set before
 * that), shared by the profile (where it is edited) and the checkout (which
 * prefills the buyer's name and country from it), so both read one cached answer.
 */
export interface PersonalProfile {
  details_submitted: boolean
  business_type?: string | null
  phone?: string | null
  name?: { first?: string | null; last?: string | null }
  address?: {
    line1?: string | null
    line2?: string | null
    city?: string | null
    state?: string | null
    postal_code?: string | null
    country_code?: string | null
  }
  metadata?: { phone_country_code?: string | null }
  dob?: { day: number; month: number; year: number } | null
  /** 0 means the terms of service have not been accepted. */
  tos_acceptance: { unix_timestamp: number }
  /** US sellers: whether the SSN's last four were given (to the payment provider; never shown back). */
  ssn_last_4_provided?: boolean
  /** The web page where a company sells (POST /me/personal/business_url); '' when not given. */
  business_url?: string | null
}

export const personalProfileKey = ['me', 'personal'] as const

export function fetchPersonalProfile(api: ApiClient) {
  return api.request<PersonalProfile>('/me/personal')
}
