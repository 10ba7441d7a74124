import { type DevMail, type DevMailSummary, devMailboxPageSize } from '@pactum/contracts/dev-mailbox'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { ApiError } from '../../lib/api/api-error.ts'

/** A 404 (no such e-mail, or no mailbox at all: the server sends over SMTP) will not change on a retry. */
const noRetryOn404 = (failures: number, error: Error) => !isMissing(error) && failures < 1

export function useDevMailbox() {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: ['admin', 'dev_mailbox'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<DevMailSummary[]>('/admin/dev_mailbox', { query: { limit: devMailboxPageSize, after_id: pageParam }, signal }),
    // A short page is the last one; otherwise the next starts after its last id.
    getNextPageParam: (page: DevMailSummary[]) => (page.length < devMailboxPageSize ? undefined : page.at(-1)?.id),
    retry: noRetryOn404,
  })
}

export function useDevMail(id: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['admin', 'dev_mailbox', id],
    queryFn: ({ signal }) => api.request<DevMail>(`/admin/dev_mailbox/${encodeURIComponent(id)}`, { signal }),
    retry: noRetryOn404,
  })
}

export function isMissing(error: Error): boolean {
  return error instanceof ApiError && error.status === 404
}
