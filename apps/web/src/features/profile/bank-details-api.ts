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
 * Bank linking (spec §6: country us only): a link token and which link
 * screen to open with it (Plaid Link, or the sandbox's stand-in), then the
 * public token and chosen account exchanged for the payout account.
 */
export function fetchLinkToken(api: ApiClient): Promise<LinkToken> {
  return api.request<LinkToken>('/me/plaid/link_token')
}

export function linkBankDetails(api: ApiClient, publicToken: string, accountId: string): Promise<{ bank_account: BankAccount }> {
  return api.request<{ bank_account: BankAccount }>('/me/plaid/link_bank_details', {
    method: 'POST',
    body: { public_token: publicToken, account_id: accountId },
  })
}

/** The sandbox's link screen (`institution`), then the exchange. */
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
  return linkBankDetails(api, completed.public_token, account.id)
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
