import type { CreateF2fTransactionBody, F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { CreateTransactionBody, Transaction } from '@pactum/contracts/transactions'
import { useMutation } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { savedClientId } from '../../lib/partner-client/client-id-memory.ts'

/** Spec §1: a sale created under a partner client records it (an unknown one is forgotten before this). */
function partnerClientQuery(): { client_id?: string } {
  const clientId = savedClientId()
  return clientId ? { client_id: clientId } : {}
}

/** `POST /me/transactions` → 201 with the join code for the creator. */
export function useCreateTransaction() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (body: CreateTransactionBody) =>
      api.request<Transaction>('/me/transactions', { method: 'POST', body, query: partnerClientQuery() }),
  })
}

/** `POST /p2p/me/transactions` → 201 with the join code for the creator. */
export function useCreateF2fTransaction() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (body: CreateF2fTransactionBody) =>
      api.request<F2fTransaction>('/p2p/me/transactions', { method: 'POST', body, query: partnerClientQuery() }),
  })
}
