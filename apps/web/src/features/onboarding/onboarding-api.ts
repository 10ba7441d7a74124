import { useQuery } from '@tanstack/react-query'
import type { ApiClient } from '../../lib/api/api-client.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/** GET /supported_countries (public). */
export interface SupportedCountry {
  code: string
  name: string
  divisionLabel?: string
  dialCode?: string
}

export function useSupportedCountries() {
  const api = useApiClient()
  return useQuery({
    queryKey: ['supported_countries'],
    queryFn: () => api.request<SupportedCountry[]>('/supported_countries'),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

export function setActiveCountry(api: ApiClient, countryCode: string) {
  return api.request<void>('/me/personal/set_active_country', { method: 'POST', body: { country_code: countryCode } })
}

export function acceptTermsDirect(api: ApiClient) {
  return api.request<unknown>('/me/accept_tos_direct', { method: 'POST' })
}

/** Country names in the interface language; the server's English name when Intl has none. */
export function localisedCountryNames(countries: SupportedCountry[], languageTag: string): SupportedCountry[] {
  let names: Intl.DisplayNames | undefined
  try {
    names = new Intl.DisplayNames([languageTag], { type: 'region', fallback: 'none' })
  } catch {
    names = undefined
  }
  const collator = new Intl.Collator(languageTag)
  return countries
    .map((country) => {
      let name: string | undefined
      try {
        name = names?.of(country.code.toUpperCase())
      } catch {
        name = undefined
      }
      return { ...country, name: name ?? country.name }
    })
    .sort((a, b) => collator.compare(a.name, b.name))
}
