import type { BankAccount, DebitAccount, DebitAccountBody, LinkToken, SandboxLinkCompleteResponse } from '@pactum/contracts/bank-accounts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApiClient } from '../../lib/api/api-client.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { payoutRequirementsKey, retryUnlessClientError } from '../../lib/api/profile-queries.ts'

export const debitAccountKey = ['me', 'debit_account'] as const

export function fetchDebitAccount(api: ApiClient) {
  return api.request<DebitAccount>('/me/debit_account')
}

/** GET /me/debit_account: the stored payout bank account, or null. */
export function useDebitAccount() {
  const api = useApiClient()
  return useQuery({ queryKey: debitAccountKey, queryFn: () => fetchDebitAccount(api), retry: retryUnlessClientError })
}

/** POST /me/debit_account. The caller decides when to refresh (after the success message). */
export function useSaveDebitAccount() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (body: DebitAccountBody) => api.request<DebitAccount>('/me/debit_account', { method: 'POST', body }),
  })
}

/**
 * The sandbox bank-link flow (spec §6: country us only): a link token, the
 * sandbox provider's screen (`institution`), then the public token exchanged
 * for the bank account.
 */
export async function fetchLinkToken(api: ApiClient): Promise<string> {
  const { link_token } = await api.request<LinkToken>('/me/plaid/link_token')
  return link_token
}

export async function completeSandboxLink(
  api: ApiClient,
  linkToken: string,
  institution: 'success' | 'failure',
): Promise<{ bank_account: BankAccount }> {
  const completed = await api.request<SandboxLinkCompleteResponse>(`/sandbox/plaid/link/${encodeURIComponent(linkToken)}/complete`, {
    method: 'POST',
    body: { institution },
    fromSiteRoot: true,
  })
  const account = completed.accounts[0]
  if (!completed.public_token || !account) throw new Error('The bank link returned no account')
  return api.request<{ bank_account: BankAccount }>('/me/plaid/link_bank_details', {
    method: 'POST',
    body: { public_token: completed.public_token, account_id: account.id },
  })
}

/** Fetches the stored account and the payout requirements again (spec §4 bank link outcome). */
export function useRefreshBankDetails() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: debitAccountKey, exact: true }),
      queryClient.invalidateQueries({ queryKey: payoutRequirementsKey, exact: true }),
    ])
}
