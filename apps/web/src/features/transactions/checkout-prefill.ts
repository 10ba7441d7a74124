import type { LastShippingDetails, ShippingDetails } from '@pactum/contracts/transactions'
import { useQuery } from '@tanstack/react-query'
import { type Dispatch, type SetStateAction, useEffect, useRef } from 'react'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { fetchPersonalProfile, type PersonalProfile, personalProfileKey } from '../../lib/api/personal-profile.ts'

/** The checkout's shipping address as the buyer edits it ('' for an empty field). */
export interface ShippingAddress {
  name: string
  line1: string
  line2: string
  city: string
  postalCode: string
  country: string
}

export const emptyAddress: ShippingAddress = { name: '', line1: '', line2: '', city: '', postalCode: '', country: '' }

export const lastShippingDetailsKey = ['me', 'last_shipping_details'] as const

/**
 * What the checkout suggests: the address the buyer gave at their last
 * checkout, and where there is none, their name and country from the
 * profile. A country the checkout does not ship to is not suggested.
 */
export function suggestedAddress(
  last: ShippingDetails | null | undefined,
  profile: PersonalProfile | undefined,
  shippingCountries: readonly string[],
): Partial<ShippingAddress> {
  const offered = (code: string | null | undefined) => {
    const lower = code?.toLowerCase()
    return lower && shippingCountries.includes(lower) ? lower : undefined
  }
  const profileName = [profile?.name?.first, profile?.name?.last]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ')
  return {
    name: last?.name || profileName || undefined,
    line1: last?.line1,
    line2: last?.line2 ?? undefined,
    city: last?.city,
    postalCode: last?.postal_code,
    country: offered(last?.country_code) ?? offered(profile?.address?.country_code),
  }
}

/** Fills the fields the buyer has left empty; what they typed stays. */
export function fillEmptyFields(current: ShippingAddress, suggestion: Partial<ShippingAddress>): ShippingAddress {
  const filled = { ...current }
  for (const key of Object.keys(filled) as Array<keyof ShippingAddress>) {
    if (filled[key].trim() === '') filled[key] = suggestion[key] ?? filled[key]
  }
  return filled
}

/**
 * Prefills the checkout's address once, when the profile and the last
 * address have answered (either may fail: the buyer then types it all).
 * Once only, so that a field the buyer empties stays empty.
 */
export function useShippingPrefill(
  enabled: boolean,
  shippingCountries: readonly string[],
  setAddress: Dispatch<SetStateAction<ShippingAddress>>,
) {
  const api = useApiClient()
  const profile = useQuery({ queryKey: personalProfileKey, enabled, queryFn: () => fetchPersonalProfile(api), retry: false })
  const last = useQuery({
    queryKey: lastShippingDetailsKey,
    enabled,
    queryFn: ({ signal }) => api.request<LastShippingDetails>('/me/last_shipping_details', { signal }),
    retry: false,
  })
  const done = useRef(false)
  const settled = enabled && !profile.isPending && !last.isPending
  useEffect(() => {
    if (!settled || done.current) return
    done.current = true
    const suggestion = suggestedAddress(last.data?.shipping_details, profile.data, shippingCountries)
    setAddress((current) => fillEmptyFields(current, suggestion))
  }, [settled, last.data, profile.data, shippingCountries, setAddress])
}
