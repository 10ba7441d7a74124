import { type F2fStatus, f2fStatuses, f2fTerminalStatuses } from './f2f-state.ts'
import { type OnlineStatus, onlineStatuses, onlineTerminalStatuses } from './online-state.ts'

/**
 * The two kinds' statuses and which of them end a sale, apart from the
 * machines (transaction.ts), so that a client reading a status need not
 * load the state machines with it (the web's first load, decision 080).
 */

export type TransactionKind = 'online' | 'f2f'

export const statusesByKind = { online: onlineStatuses, f2f: f2fStatuses } as const
export const terminalStatusesByKind = { online: onlineTerminalStatuses, f2f: f2fTerminalStatuses } as const

/** Every status of either kind, each once (both kinds share created, joined, complained, …). */
export const allStatuses: readonly (OnlineStatus | F2fStatus)[] = [
  ...new Set<OnlineStatus | F2fStatus>([...onlineStatuses, ...f2fStatuses]),
]

export function isTerminal(state: { readonly kind: TransactionKind; readonly status: string }): boolean {
  return (terminalStatusesByKind[state.kind] as readonly string[]).includes(state.status)
}
