import { queryOptions } from '@tanstack/react-query'
import { fetchClientConfig } from './client-config.ts'

/** The configuration never changes while the page is open; main.tsx asks for it before the first render. */
export const clientConfigQuery = queryOptions({
  queryKey: ['client-config'],
  queryFn: () => fetchClientConfig(),
  staleTime: Number.POSITIVE_INFINITY,
})
