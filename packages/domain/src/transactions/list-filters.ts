import type { F2fStatus } from './f2f-state.ts'
import type { Party } from './kernel.ts'
import type { OnlineStatus } from './online-state.ts'
import { isTerminal, statusesByKind, type TransactionKind, type TransactionState } from './transaction.ts'

/**
 * Whose move it is, and the list filters built on it (spec §3: active,
 * inputRequired, waiting, completed, cancelled). The server turns
 * `filterClauses` into SQL, so the list and the status page can never
 * disagree about what needs someone's input.
 */

export type NextActor = Party | 'counterparty' | 'system' | null

/** The few fields whose move it is depends on. */
export type FilterInput = Pick<TransactionState, 'kind' | 'status' | 'isPaymentInProgress'> & { readonly sellerConfirmsHandover?: boolean }

const onlineNext: Readonly<Record<OnlineStatus, NextActor>> = {
  created: 'counterparty',
  joined: 'buyer',
  paid: 'seller',
  // The buyer confirms delivery (or the carrier reports it).
  tracked: 'buyer',
  // The buyer has the window to check the goods and complain.
  delivered: 'buyer',
  complained: 'seller',
  complaint_period_ended: 'system',
  cancelled_with_payment: 'system',
  funds_released: null,
  cancelled: null,
  rejected: null,
  payment_refunded: null,
}

function f2fNext(status: F2fStatus, sellerConfirmsHandover: boolean): NextActor {
  switch (status) {
    case 'created':
      return 'counterparty'
    case 'joined':
    case 'priced':
      return 'buyer'
    case 'deposit_paid':
    case 'deposit_accepted':
    case 'complained':
      return 'seller'
    case 'remainder_paid':
    case 'remainder_skipped':
    case 'buyer_handover_confirmed':
      // The one whose confirmation starts the window; after it, the buyer's window.
      return sellerConfirmsHandover ? 'seller' : 'buyer'
    case 'seller_handover_confirmed':
      return 'buyer'
    case 'complaint_period_ended':
    case 'cancelled_with_deposit':
      return 'system'
    default:
      return null
  }
}

export function whoMustAct(input: FilterInput): NextActor {
  const next =
    input.kind === 'online'
      ? onlineNext[input.status as OnlineStatus]
      : f2fNext(input.status as F2fStatus, input.sellerConfirmsHandover ?? true)
  // A payment on its way (SEPA) is the provider's move.
  return next === 'buyer' && input.isPaymentInProgress ? 'system' : next
}

export type TransactionFilter = 'active' | 'inputRequired' | 'waiting' | 'completed' | 'cancelled'

/** Money is on its way back: no longer active, not yet closed. */
const refunding: readonly string[] = ['cancelled_with_payment', 'cancelled_with_deposit']
const cancelledStatuses: readonly string[] = [
  'rejected',
  'cancelled',
  'cancelled_with_payment',
  'payment_refunded',
  'cancelled_with_deposit',
  'deposit_refunded',
]

/** Whether a transaction falls under a list filter for one of its parties. */
export function matchesFilter(input: FilterInput, role: Party, filter: TransactionFilter): boolean {
  const active = !isTerminal(input) && !refunding.includes(input.status)
  switch (filter) {
    case 'active':
      return active
    case 'inputRequired':
      return active && whoMustAct(input) === role
    case 'waiting':
      return active && whoMustAct(input) !== role
    case 'completed':
      return input.status === 'funds_released'
    case 'cancelled':
      return cancelledStatuses.includes(input.status)
  }
}

/**
 * One SQL-ready condition: a kind, the statuses, and the flags that must hold
 * too (left out where either value matches).
 */
export interface FilterClause {
  readonly kind: TransactionKind
  readonly statuses: readonly string[]
  readonly isPaymentInProgress?: boolean
  readonly sellerConfirmsHandover?: boolean
}

const flagCombinations = [
  { isPaymentInProgress: false, sellerConfirmsHandover: true },
  { isPaymentInProgress: false, sellerConfirmsHandover: false },
  { isPaymentInProgress: true, sellerConfirmsHandover: true },
  { isPaymentInProgress: true, sellerConfirmsHandover: false },
] as const

/**
 * The filter as clauses a row must meet one of, found by asking
 * `matchesFilter` about every kind, status and flag combination, and merging
 * the statuses that need the same flags.
 */
export function filterClauses(filter: TransactionFilter, role: Party): FilterClause[] {
  const clauses = new Map<string, { kind: TransactionKind; statuses: string[]; flags: Partial<(typeof flagCombinations)[number]> }>()
  for (const kind of ['online', 'f2f'] as const) {
    for (const status of statusesByKind[kind]) {
      const matching = flagCombinations.filter((flags) => matchesFilter({ kind, status, ...flags } as FilterInput, role, filter))
      for (const flags of narrowest(matching)) {
        const key = `${kind}:${JSON.stringify(flags)}`
        const clause = clauses.get(key) ?? { kind, statuses: [], flags }
        clause.statuses.push(status)
        clauses.set(key, clause)
      }
    }
  }
  return [...clauses.values()].map(({ kind, statuses, flags }) => ({ kind, statuses, ...flags }))
}

/** The fewest flag conditions that cover exactly the matching combinations. */
function narrowest(matching: readonly (typeof flagCombinations)[number][]): Partial<(typeof flagCombinations)[number]>[] {
  if (matching.length === flagCombinations.length) return [{}]
  for (const flag of ['isPaymentInProgress', 'sellerConfirmsHandover'] as const) {
    for (const value of [false, true]) {
      const withValue = flagCombinations.filter((flags) => flags[flag] === value)
      if (matching.length === withValue.length && withValue.every((flags) => matching.includes(flags))) return [{ [flag]: value }]
    }
  }
  return matching.map((flags) => ({ ...flags }))
}
