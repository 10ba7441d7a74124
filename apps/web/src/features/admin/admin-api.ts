import {
  type AdminClient,
  type AdminFilterForm,
  type AdminTransactionDetail,
  adminPageSize,
  type AuditLogEntry,
  type ClientChange,
  type IssuedApiKey,
  type LedgerVerification,
  type LongHolds,
} from '@pactum/contracts/admin'
import type {
  AdminChargeback,
  ChargebackListQuery,
  RecoverChargebackBody,
  SandboxDecideDisputeBody,
  SandboxOpenDisputeBody,
} from '@pactum/contracts/chargebacks'
import type { ExplainDifference, ReconciliationDay, ReconciliationDifference } from '@pactum/contracts/reconciliation'
import type { NewPartnerClientBody, PartnerClientBody } from '@pactum/contracts/partner-clients'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { CaseView } from '@pactum/contracts/disputes'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/** The console's list filters; empty strings mean "any". */
export type AdminFilters = AdminFilterForm

export const noFilters: AdminFilters = { status: '', type: '', currency: '', client_id: '', created_from: '', created_to: '', search: '' }

function filterQuery(filters: AdminFilters): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(filters).map(([name, value]) => [name, value.trim() === '' ? undefined : value.trim()]))
}

/** A short page is the last one; otherwise the next starts after its last id. */
const nextAfter =
  <Row>(idOf: (row: Row) => string) =>
  (page: Row[]) =>
    page.length < adminPageSize ? undefined : idOf(page.at(-1) as Row)

export function useAdminTransactions(filters: AdminFilters) {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: ['admin', 'transactions', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<AnyTransaction[]>('/admin/transactions', {
        query: { limit: adminPageSize, after_id: pageParam, ...filterQuery(filters) },
        signal,
      }),
    getNextPageParam: nextAfter<AnyTransaction>((transaction) => transaction.id),
  })
}

export const adminTransactionKey = (id: string) => ['admin', 'transaction', id] as const

export function useAdminTransaction(id: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: adminTransactionKey(id),
    queryFn: ({ signal }) => api.request<AdminTransactionDetail>(`/admin/transactions/${id}`, { signal }),
  })
}

/** GET /admin/cases: the cases waiting for an admin, oldest first. */
export function useCaseQueue() {
  const api = useApiClient()
  return useQuery({
    queryKey: ['admin', 'cases'],
    queryFn: ({ signal }) => api.request<CaseView[]>('/admin/cases', { query: { limit: 200 }, signal }),
  })
}

export function useAuditLog() {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: ['admin', 'audit_log'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<AuditLogEntry[]>('/admin/audit_log', { query: { limit: adminPageSize, after_id: pageParam }, signal }),
    getNextPageParam: nextAfter<AuditLogEntry>((event) => event.id),
  })
}

export function useLedgerHealth() {
  const api = useApiClient()
  return useQuery({
    queryKey: ['admin', 'ledger'],
    queryFn: ({ signal }) => api.request<LedgerVerification>('/admin/ledger/verify', { signal }),
  })
}

/** Money held longer than HOLD_ALERT_DAYS, oldest first (issue 34). */
export function useLongHolds() {
  const api = useApiClient()
  return useQuery({
    queryKey: ['admin', 'long-holds'],
    queryFn: ({ signal }) => api.request<LongHolds>('/admin/long_holds', { signal }),
  })
}

/** A day's reconciliation with the payment provider (decision 107). */
export function useReconciliationDay(date: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['admin', 'reconciliation', date],
    queryFn: ({ signal }) => api.request<ReconciliationDay>('/admin/reconciliation', { query: { date }, signal }),
  })
}

export function useExplainDifference(date: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ExplainDifference }) =>
      api.request<ReconciliationDifference>(`/admin/reconciliation/differences/${encodeURIComponent(id)}/explain`, {
        method: 'POST',
        body,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'reconciliation', date] }),
  })
}

/** GET /admin/chargebacks: the card disputes on sales (issue 34, decision 109). */
export function useAdminChargebacks(state: ChargebackListQuery['state']) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['admin', 'chargebacks', state],
    queryFn: ({ signal }) => api.request<AdminChargeback[]>('/admin/chargebacks', { query: { state }, signal }),
  })
}

export type ChargebackAction =
  | { type: 'evidence'; body: { reason: string } }
  | { type: 'accept'; body: { reason: string } }
  | { type: 'recover'; body: RecoverChargebackBody }

/** Sends evidence, accepts or recovers from the seller, then re-reads the list (and the sales, which show the dispute). */
export function useChargebackAction(id: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (action: ChargebackAction) =>
      api.request<AdminChargeback>(`/admin/chargebacks/${encodeURIComponent(id)}/${action.type}`, { method: 'POST', body: action.body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

/** The sandbox provider's card network deciding a dispute; 404 with a real provider. */
export function useSandboxDecideDispute(id: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SandboxDecideDisputeBody) =>
      api.request<unknown>(`/admin/sandbox/disputes/${encodeURIComponent(id)}/decide`, { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

/** The sandbox provider's card network opening a dispute on one of a sale's payments; 404 with a real provider. */
export function useSandboxOpenDispute() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SandboxOpenDisputeBody) => api.request<unknown>('/admin/sandbox/disputes', { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

export function useAdminClients() {
  const api = useApiClient()
  return useQuery({ queryKey: ['admin', 'clients'], queryFn: ({ signal }) => api.request<AdminClient[]>('/admin/clients', { signal }) })
}

export function useClientChanges() {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: ['admin', 'client_changes'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<ClientChange[]>('/admin/client_changes', { query: { limit: adminPageSize, after_id: pageParam }, signal }),
    getNextPageParam: nextAfter<ClientChange>((change) => change.id),
  })
}

/** After any change to a client: its row and the change list are stale. */
function useClientsChanged() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin', 'clients'] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'client_changes'] }),
    ])
}

/** Adds a client (`existing` null) or changes one. */
export function useSaveClient() {
  const api = useApiClient()
  const changed = useClientsChanged()
  return useMutation({
    mutationFn: (request: { existing: string; body: PartnerClientBody } | { existing: null; body: NewPartnerClientBody }) =>
      request.existing === null
        ? api.request<AdminClient>('/admin/clients', { method: 'POST', body: request.body })
        : api.request<AdminClient>(`/admin/clients/${encodeURIComponent(request.existing)}`, { method: 'PUT', body: request.body }),
    onSuccess: changed,
  })
}

export function useIssueApiKey(clientId: string) {
  const api = useApiClient()
  const changed = useClientsChanged()
  return useMutation({
    mutationFn: () => api.request<IssuedApiKey>(`/admin/clients/${encodeURIComponent(clientId)}/api_key`, { method: 'POST' }),
    onSuccess: changed,
  })
}

export function useRevokeApiKey(clientId: string) {
  const api = useApiClient()
  const changed = useClientsChanged()
  return useMutation({
    mutationFn: () => api.request<void>(`/admin/clients/${encodeURIComponent(clientId)}/api_key`, { method: 'DELETE' }),
    onSuccess: changed,
  })
}

export type AdminAction =
  | { type: 'confirm_delivery' }
  | { type: 'release_funds'; to: 'seller' | 'buyer' }
  /** A case's decision: the split of the price in dispute. */
  | { type: 'decide'; refund_to_buyer: number; release_to_seller: number }
  /** The card issuer's early fraud warning, checked: the release is no longer held by it (decision 109). */
  | { type: 'clear_fraud_warning' }

/**
 * Runs an admin action through the engine's endpoints, then re-reads
 * everything the console shows. `idempotencyKey` (one per dialog) makes a
 * double submit or a retried request harmless.
 */
export function useAdminAction(id: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ action, reason, idempotencyKey }: { action: AdminAction; reason: string; idempotencyKey: string }) =>
      api.request<AnyTransaction>(`/admin/transactions/${id}/${action.type}`, {
        method: 'POST',
        query: action.type === 'release_funds' ? { to: action.to } : undefined,
        body:
          action.type === 'decide'
            ? { reason, refund_to_buyer: action.refund_to_buyer, release_to_seller: action.release_to_seller }
            : { reason },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}
