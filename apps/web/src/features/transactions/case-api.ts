import type { CaseView } from '@pactum/contracts/disputes'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useQuery } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export const caseKey = (id: string) => ['case', id] as const

/** How often an open case is read again: the other party's offer or the response window's end should show without a reload. */
const openCasePollMs = 10_000

/** `GET …/case`: the case the complaint opened; not asked before there is a complaint. */
export function useCase(transaction: Pick<AnyTransaction, 'id' | 'type' | 'complaint'>) {
  const api = useApiClient()
  return useQuery({
    queryKey: caseKey(transaction.id),
    enabled: transaction.complaint !== null,
    queryFn: ({ signal }) =>
      api.request<CaseView>(`${transaction.type === 'f2f' ? '/p2p' : ''}/transactions/${encodeURIComponent(transaction.id)}/case`, {
        signal,
      }),
    refetchInterval: (query) => (query.state.data?.state === 'closed' ? false : openCasePollMs),
    retry: false,
  })
}
