/**
 * Ledger invariants (DESIGN §2 "Ledger"). A journal entry is a list of
 * postings; a posting's amount is the signed change of that account's balance
 * in minor units (positive: money into the account). The server runs
 * `ledgerBreaches` after writing entries and in `ledger verify`; the state
 * machine's property tests run it over every random history.
 */

export interface Posting {
  /**
   * `escrow`, `seller`, `revenue`, `buyer_funding`, `buyer_refund`; the server
   * may qualify them with ids (`escrow:<transaction id>`).
   */
  readonly account: string
  /** Signed minor units. */
  readonly amount: number
  readonly currency: string
}

/**
 * Hold / release / refund are TigerBeetle's pending / post / void.
 * `refund_unheld` is money that came in and went straight back without
 * entering escrow (buyer funding → buyer refund): it resolves no hold.
 * `split` is a settled or decided case: a partial refund and a partial
 * release in one entry, which resolves the hold once.
 */
export type LedgerEntryKind =
  | 'hold'
  | 'release'
  | 'refund'
  | 'refund_unheld'
  | 'split'
  /** A card dispute (docs/decisions/109): opened (escrow or the platform's losses → disputed), won (back), lost. */
  | 'dispute_opened'
  | 'dispute_won'
  /** Lost while held: the bank's return and the refund of the rest, resolving the hold. */
  | 'chargeback_refund'
  /** Lost on money no longer held: the platform's loss goes to the buyer. */
  | 'chargeback_loss'
  | 'dispute_fee'
  /** Taken back from the seller after a loss. */
  | 'chargeback_recovery'

/** The entries that resolve a hold (one per transaction). */
export const holdResolvingKinds = ['release', 'refund', 'split', 'chargeback_refund'] as const

/** The entries whose buyer-refund postings count as refunded on the sale (`amountRefunded`). */
export const refundingKinds = ['refund', 'refund_unheld', 'split', 'chargeback_refund', 'chargeback_loss'] as const

export function resolvesHold(kind: string): boolean {
  return (holdResolvingKinds as readonly string[]).includes(kind)
}

export interface LedgerEntry {
  readonly entry: LedgerEntryKind
  readonly postings: readonly Posting[]
}

export function isEscrowAccount(account: string): boolean {
  return account === 'escrow' || account.startsWith('escrow:')
}

/** Money a card dispute took back, one account per transaction as escrow (`disputed:<transaction id>`). */
export function isDisputedAccount(account: string): boolean {
  return account === 'disputed' || account.startsWith('disputed:')
}

/** Every amount a safe integer and the postings of each currency cancel out. */
export function entrySumsToZero(postings: readonly Posting[]): boolean {
  const sums = new Map<string, number>()
  for (const posting of postings) {
    if (!Number.isSafeInteger(posting.amount)) return false
    sums.set(posting.currency, (sums.get(posting.currency) ?? 0) + posting.amount)
  }
  return [...sums.values()].every((sum) => sum === 0)
}

export type LedgerBreach =
  | { kind: 'unbalanced_entry'; entryIndex: number }
  | { kind: 'escrow_negative'; entryIndex: number; currency: string; balance: number }
  | { kind: 'escrow_not_zero_in_terminal_state'; currency: string; balance: number }
  | { kind: 'hold_resolved_more_than_once'; entryIndex: number }
  | { kind: 'disputed_negative'; entryIndex: number; currency: string; balance: number }
  | { kind: 'disputed_not_zero_without_open_dispute'; currency: string; balance: number }

/**
 * Checks one transaction's entries, in the order they were written. A release
 * or refund resolves a hold; there may never be more resolutions than holds so
 * far (a second release of the same money is exactly the bug this exists to
 * catch). An empty list means the history is sound.
 */
export function ledgerBreaches(input: { entries: readonly LedgerEntry[]; terminal: boolean; openDispute?: boolean }): LedgerBreach[] {
  const breaches: LedgerBreach[] = []
  const escrow = new Map<string, number>()
  const disputed = new Map<string, number>()
  let holds = 0
  let resolutions = 0
  input.entries.forEach((entry, entryIndex) => {
    if (!entrySumsToZero(entry.postings)) breaches.push({ kind: 'unbalanced_entry', entryIndex })
    if (entry.entry === 'hold') holds += 1
    else if (resolvesHold(entry.entry)) {
      resolutions += 1
      if (resolutions > holds) breaches.push({ kind: 'hold_resolved_more_than_once', entryIndex })
    }
    const touched = new Set<string>()
    for (const posting of entry.postings) {
      if (isDisputedAccount(posting.account)) {
        const balance = (disputed.get(posting.currency) ?? 0) + posting.amount
        disputed.set(posting.currency, balance)
        if (balance < 0) breaches.push({ kind: 'disputed_negative', entryIndex, currency: posting.currency, balance })
      }
      if (!isEscrowAccount(posting.account)) continue
      escrow.set(posting.currency, (escrow.get(posting.currency) ?? 0) + posting.amount)
      touched.add(posting.currency)
    }
    // Judged after the whole entry: within one entry the order of postings means nothing.
    for (const currency of touched) {
      const balance = escrow.get(currency) ?? 0
      if (balance < 0) breaches.push({ kind: 'escrow_negative', entryIndex, currency, balance })
    }
  })
  // A dispute won or lost ends with nothing left in dispute.
  if (!input.openDispute) {
    for (const [currency, balance] of disputed) {
      if (balance !== 0) breaches.push({ kind: 'disputed_not_zero_without_open_dispute', currency, balance })
    }
  }
  if (input.terminal) {
    for (const [currency, balance] of escrow) {
      if (balance !== 0) breaches.push({ kind: 'escrow_not_zero_in_terminal_state', currency, balance })
    }
  }
  return breaches
}

/** Sum of the escrow postings per currency; currencies that net to zero are left out. */
export function escrowBalances(entries: readonly LedgerEntry[]): Map<string, number> {
  const balances = new Map<string, number>()
  for (const entry of entries) {
    for (const posting of entry.postings) {
      if (isEscrowAccount(posting.account)) {
        balances.set(posting.currency, (balances.get(posting.currency) ?? 0) + posting.amount)
      }
    }
  }
  for (const [currency, balance] of balances) if (balance === 0) balances.delete(currency)
  return balances
}
