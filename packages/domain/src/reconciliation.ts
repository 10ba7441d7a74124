/**
 * One day's reconciliation (DESIGN §2, decision 107): what the ledger says
 * moved against what the payment provider's balance says moved, matched by
 * the provider's id of each movement. Pure: the caller gathers both sides.
 *
 * The ledger side is in the sale's currency. The provider's balance is in
 * the platform's settlement currency, so a converted charge or refund is
 * compared through its presentment amount (what the buyer was charged),
 * and a converted transfer through its charge's own rate (decision 104).
 */

/**
 * What Pactum books: a payment held, a refund, a release to the seller, and
 * a card dispute's withdrawal and reinstatement (decision 109), both matched
 * by the dispute's id, and a recovery from the seller (a transfer reversal).
 */
export type LedgerMovementKind = 'charge' | 'refund' | 'transfer' | 'transfer_reversal' | 'dispute' | 'dispute_reversal'

export interface LedgerMovement {
  kind: LedgerMovementKind
  /** The provider's id Pactum recorded: the payment intent of a charge, the refund's or the transfer's own id. */
  providerId: string
  transactionId: string
  /** Minor units, positive, in the sale's currency. */
  amount: number
  currency: string
}

/**
 * The provider's balance movement kinds. `dispute` is a chargeback's
 * withdrawal (negative) or its reinstatement after a win (positive);
 * `payout` moves the platform's own balance to its bank and is totalled only.
 */
export type ProviderMovementKind = 'charge' | 'refund' | 'transfer' | 'transfer_reversal' | 'dispute' | 'payout' | 'fee' | 'other'

export interface ProviderMovement {
  /** The balance transaction's id. */
  id: string
  kind: ProviderMovementKind
  /** The provider's own name for it (Stripe's `type`: `charge`, `payment`, `payment_refund`, …). */
  providerType: string
  /** The id Pactum records for it (payment intent, refund, transfer); null for what Pactum never asks for. */
  objectId: string | null
  /** Signed, as the provider's balance moved: a charge adds, a refund or transfer takes. */
  amount: number
  fee: number
  currency: string
  /** A charge or refund converted into the settlement currency: its amount before conversion. */
  presentment?: { amount: number; currency: string } | undefined
  /** A converted transfer: its source charge, charged (sale currency) and settled. */
  sourceCharge?: { amount: number; currency: string; settledAmount: number } | undefined
  /**
   * Pieces of one movement share it: a release split over a sale's charges
   * is one transfer per charge, and Pactum records the first one's id only
   * (Stripe: the outbox's key in `metadata.pactum_idempotency_key`).
   */
  group?: string | undefined
}

export type DifferenceKind =
  /** The ledger booked a movement the provider's balance does not show. */
  | 'missing_at_provider'
  /** The provider moved money the ledger never booked. */
  | 'missing_in_ledger'
  | 'amount_mismatch'
  | 'currency_mismatch'
  /** A kind of movement Pactum does not book (a dispute, a stand-alone fee, a transfer reversal, an adjustment). */
  | 'unbooked_provider_movement'

export interface DifferenceSide {
  amount: number
  currency: string
}

export interface Difference {
  kind: DifferenceKind
  movement: ProviderMovementKind
  providerId: string
  transactionId: string | null
  /** What the ledger says, in the sale's currency; null when it says nothing. */
  ledger: DifferenceSide | null
  /** What the provider says, as a positive amount in the currency it is compared in; null when it says nothing. */
  provider: DifferenceSide | null
}

export interface CurrencyTotals {
  currency: string
  charged: number
  refunded: number
  transferred: number
  /** Chargebacks: withdrawn less reinstated. */
  disputed: number
  paidOut: number
  fees: number
}

export interface DayComparison {
  differences: Difference[]
  totals: { ledger: CurrencyTotals[]; provider: CurrencyTotals[] }
}

const ledgerKinds: readonly ProviderMovementKind[] = ['charge', 'refund', 'transfer', 'transfer_reversal', 'dispute']

/** The sign a booked movement has in the provider's balance. */
const balanceSign: Record<LedgerMovementKind, 1 | -1> = {
  charge: 1,
  refund: -1,
  transfer: -1,
  transfer_reversal: 1,
  dispute: -1,
  dispute_reversal: 1,
}

/** The ledger's kind a provider movement is matched as: a dispute's money back is its reinstatement. */
function bookedAs(movement: ProviderMovement): LedgerMovementKind {
  if (movement.kind === 'dispute') return movement.amount > 0 ? 'dispute_reversal' : 'dispute'
  return movement.kind as LedgerMovementKind
}

/** The provider's movement kind a booked one is reported under. */
function providerKind(kind: LedgerMovementKind): ProviderMovementKind {
  return kind === 'dispute_reversal' ? 'dispute' : kind
}

export function compareDay(input: { ledger: readonly LedgerMovement[]; provider: readonly ProviderMovement[] }): DayComparison {
  const byObject = new Map<string, ProviderMovement[]>()
  const differences: Difference[] = []
  for (const movement of input.provider) {
    if (ledgerKinds.includes(movement.kind) && movement.objectId) {
      const key = matchKey(bookedAs(movement), movement.objectId)
      byObject.set(key, [...(byObject.get(key) ?? []), movement])
    } else if (movement.kind !== 'payout' && movement.kind !== 'fee') {
      differences.push({
        kind: 'unbooked_provider_movement',
        movement: movement.kind,
        providerId: movement.objectId ?? movement.id,
        transactionId: null,
        ledger: null,
        provider: { amount: Math.abs(movement.amount), currency: movement.currency },
      })
    } else if (movement.kind === 'fee' && movement.amount !== 0) {
      // A fee charged on its own (Stripe's `stripe_fee`), not a charge's processing fee: the ledger books no provider fees.
      differences.push({
        kind: 'unbooked_provider_movement',
        movement: 'fee',
        providerId: movement.id,
        transactionId: null,
        ledger: null,
        provider: { amount: Math.abs(movement.amount), currency: movement.currency },
      })
    }
  }
  for (const booked of input.ledger) {
    const key = matchKey(booked.kind, booked.providerId)
    const found = byObject.get(key)
    byObject.delete(key)
    const group = found?.[0]?.group
    if (found && group) {
      for (const [otherKey, pieces] of byObject) {
        if (pieces[0] && bookedAs(pieces[0]) === booked.kind && pieces[0].group === group) {
          found.push(...pieces)
          byObject.delete(otherKey)
        }
      }
    }
    const ledgerSide = { amount: booked.amount, currency: booked.currency }
    const base = {
      movement: providerKind(booked.kind),
      providerId: booked.providerId,
      transactionId: booked.transactionId,
      ledger: ledgerSide,
    }
    if (!found) {
      differences.push({ kind: 'missing_at_provider', ...base, provider: null })
      continue
    }
    const compared = comparable(booked, found)
    const providerSide = { amount: compared.amount, currency: compared.currency }
    if (!compared.atChargeRate && compared.currency !== booked.currency) {
      differences.push({ kind: 'currency_mismatch', ...base, provider: providerSide })
    } else if (!compared.matches) {
      differences.push({ kind: 'amount_mismatch', ...base, provider: providerSide })
    }
  }
  for (const [, left] of byObject) {
    const first = left[0] as ProviderMovement
    const sign = balanceSign[bookedAs(first)]
    differences.push({
      kind: 'missing_in_ledger',
      movement: first.kind,
      providerId: first.objectId as string,
      transactionId: null,
      ledger: null,
      provider: { amount: sign * sum(left.map((movement) => movement.amount)) || 0, currency: first.currency },
    })
  }
  return { differences, totals: { ledger: ledgerTotals(input.ledger), provider: providerTotals(input.provider) } }
}

function matchKey(kind: string, id: string): string {
  return `${kind}:${id}`
}

/**
 * The provider's side in the terms the ledger uses, and whether it matches:
 * the presentment amount of a converted charge or refund; a converted
 * transfer's pieces checked against the ledger's amount at their charges'
 * rates (rounded down, as the adapter transfers them).
 */
function comparable(
  booked: LedgerMovement,
  found: ProviderMovement[],
): { amount: number; currency: string; matches: boolean; atChargeRate: boolean } {
  const first = found[0] as ProviderMovement
  const sign = balanceSign[booked.kind]
  const settled = sign * sum(found.map((movement) => movement.amount)) || 0
  if (first.presentment && first.currency !== booked.currency) {
    const presented = sum(found.map((movement) => Math.sign(movement.amount) * sign * (movement.presentment?.amount ?? 0)))
    return { amount: presented, currency: first.presentment.currency, matches: presented === booked.amount, atChargeRate: false }
  }
  const rates = found.map((movement) => movement.sourceCharge)
  const converted = rates.every((rate) => rate && rate.currency === booked.currency && rate.amount > 0 && rate.settledAmount > 0)
  if (converted && first.currency !== booked.currency) {
    // Compared in the settlement currency, and reported in it beside the ledger's own amount.
    const fits = ledgerAmountFits(
      booked.amount,
      found.map((movement) => ({
        settled: sign * movement.amount,
        rate: movement.sourceCharge as NonNullable<ProviderMovement['sourceCharge']>,
      })),
    )
    return { amount: settled, currency: first.currency, matches: fits, atChargeRate: true }
  }
  return { amount: settled, currency: first.currency, matches: settled === booked.amount, atChargeRate: false }
}

/**
 * Whether the ledger's amount is what these converted pieces were made
 * from: each piece is `floor(part × settled ÷ charged)` of its charge
 * (decision 104), so the part it came from lies in
 * [ceil(piece × charged ÷ settled), ceil((piece + 1) × charged ÷ settled) − 1];
 * the ledger's amount must lie within the sum of those ranges. With one
 * piece this is exactly "the piece is the ledger's amount at the rate".
 */
function ledgerAmountFits(amount: number, pieces: Array<{ settled: number; rate: { amount: number; settledAmount: number } }>): boolean {
  let low = 0n
  let high = 0n
  for (const { settled, rate } of pieces) {
    const charged = BigInt(rate.amount)
    const settledTotal = BigInt(rate.settledAmount)
    const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
    low += ceilDiv(BigInt(settled) * charged, settledTotal)
    high += ceilDiv(BigInt(settled + 1) * charged, settledTotal) - 1n
  }
  return BigInt(amount) >= low && BigInt(amount) <= high
}

/** `|| 0`: a negated zero would read as -0. */
function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0) || 0
}

function emptyTotals(currency: string): CurrencyTotals {
  return { currency, charged: 0, refunded: 0, transferred: 0, disputed: 0, paidOut: 0, fees: 0 }
}

function totalsFor(map: Map<string, CurrencyTotals>, currency: string): CurrencyTotals {
  const existing = map.get(currency)
  if (existing) return existing
  const created = emptyTotals(currency)
  map.set(currency, created)
  return created
}

function sorted(map: Map<string, CurrencyTotals>): CurrencyTotals[] {
  return [...map.values()].sort((a, b) => a.currency.localeCompare(b.currency))
}

function ledgerTotals(movements: readonly LedgerMovement[]): CurrencyTotals[] {
  const map = new Map<string, CurrencyTotals>()
  for (const movement of movements) {
    const totals = totalsFor(map, movement.currency)
    if (movement.kind === 'charge') totals.charged += movement.amount
    else if (movement.kind === 'refund') totals.refunded += movement.amount
    else if (movement.kind === 'dispute') totals.disputed += movement.amount
    else if (movement.kind === 'dispute_reversal') totals.disputed -= movement.amount
    else if (movement.kind === 'transfer_reversal') totals.transferred -= movement.amount
    else totals.transferred += movement.amount
  }
  return sorted(map)
}

/** In the settlement currency, as the provider's balance moved (positive amounts). */
function providerTotals(movements: readonly ProviderMovement[]): CurrencyTotals[] {
  const map = new Map<string, CurrencyTotals>()
  for (const movement of movements) {
    const totals = totalsFor(map, movement.currency)
    totals.fees += movement.fee
    switch (movement.kind) {
      case 'charge':
        totals.charged += movement.amount
        break
      case 'refund':
        totals.refunded -= movement.amount
        break
      case 'transfer':
      case 'transfer_reversal':
        totals.transferred -= movement.amount
        break
      case 'dispute':
        totals.disputed -= movement.amount
        break
      case 'payout':
        totals.paidOut -= movement.amount
        break
      case 'fee':
        totals.fees -= movement.amount
        break
      case 'other':
        break
    }
  }
  return sorted(map)
}
