import { describe, expect, it } from 'vitest'
import { compareDay, type LedgerMovement, type ProviderMovement } from './reconciliation.ts'

const charge: LedgerMovement = { kind: 'charge', providerId: 'pi_1', transactionId: 't1', amount: 10340, currency: 'eur' }
const refund: LedgerMovement = { kind: 'refund', providerId: 're_1', transactionId: 't1', amount: 10340, currency: 'eur' }
const transfer: LedgerMovement = { kind: 'transfer', providerId: 'tr_1', transactionId: 't2', amount: 10000, currency: 'eur' }

const at = (movement: Partial<ProviderMovement> & Pick<ProviderMovement, 'kind' | 'objectId' | 'amount'>): ProviderMovement => ({
  id: `txn_${movement.objectId ?? 'x'}`,
  providerType: movement.kind,
  fee: 0,
  currency: 'eur',
  ...movement,
})

const cleanProvider = [
  at({ kind: 'charge', objectId: 'pi_1', amount: 10340, fee: 330 }),
  at({ kind: 'refund', objectId: 're_1', amount: -10340 }),
  at({ kind: 'transfer', objectId: 'tr_1', amount: -10000 }),
]

describe('compareDay', () => {
  it('finds nothing when every booked movement is at the provider with its amount and currency', () => {
    const day = compareDay({ ledger: [charge, refund, transfer], provider: cleanProvider })
    expect(day.differences).toEqual([])
    expect(day.totals.ledger).toEqual([
      { currency: 'eur', charged: 10340, refunded: 10340, transferred: 10000, disputed: 0, paidOut: 0, fees: 0 },
    ])
    expect(day.totals.provider).toEqual([
      { currency: 'eur', charged: 10340, refunded: 10340, transferred: 10000, disputed: 0, paidOut: 0, fees: 330 },
    ])
  })

  it('names a booked movement the provider does not show', () => {
    const day = compareDay({ ledger: [charge, refund, transfer], provider: cleanProvider.slice(0, 2) })
    expect(day.differences).toEqual([
      {
        kind: 'missing_at_provider',
        movement: 'transfer',
        providerId: 'tr_1',
        transactionId: 't2',
        ledger: { amount: 10000, currency: 'eur' },
        provider: null,
      },
    ])
  })

  it('names a provider movement the ledger never booked', () => {
    const day = compareDay({ ledger: [charge, transfer], provider: cleanProvider })
    expect(day.differences).toEqual([
      {
        kind: 'missing_in_ledger',
        movement: 'refund',
        providerId: 're_1',
        transactionId: null,
        ledger: null,
        provider: { amount: 10340, currency: 'eur' },
      },
    ])
  })

  it('names an amount that differs', () => {
    const provider = [cleanProvider[0], at({ kind: 'refund', objectId: 're_1', amount: -5000 }), cleanProvider[2]] as ProviderMovement[]
    expect(compareDay({ ledger: [charge, refund, transfer], provider }).differences).toEqual([
      expect.objectContaining({
        kind: 'amount_mismatch',
        providerId: 're_1',
        ledger: { amount: 10340, currency: 'eur' },
        provider: { amount: 5000, currency: 'eur' },
      }),
    ])
  })

  it('names a currency that differs when nothing converted it', () => {
    const provider = [at({ kind: 'charge', objectId: 'pi_1', amount: 10340, currency: 'gbp' })]
    expect(compareDay({ ledger: [charge], provider }).differences).toEqual([
      expect.objectContaining({ kind: 'currency_mismatch', provider: { amount: 10340, currency: 'gbp' } }),
    ])
  })

  it('compares a converted charge through what the buyer was charged', () => {
    const pln: LedgerMovement = { ...charge, amount: 50000, currency: 'pln' }
    const provider = [at({ kind: 'charge', objectId: 'pi_1', amount: 11634, presentment: { amount: 50000, currency: 'pln' } })]
    expect(compareDay({ ledger: [pln], provider }).differences).toEqual([])
    const short = [at({ kind: 'charge', objectId: 'pi_1', amount: 11634, presentment: { amount: 49000, currency: 'pln' } })]
    expect(compareDay({ ledger: [pln], provider: short }).differences).toEqual([
      expect.objectContaining({ kind: 'amount_mismatch', provider: { amount: 49000, currency: 'pln' } }),
    ])
  })

  it("compares a converted transfer at its charge's own rate, rounded down (decision 104)", () => {
    const pln: LedgerMovement = { ...transfer, amount: 48000, currency: 'pln' }
    const sourceCharge = { amount: 50000, currency: 'pln', settledAmount: 11634 }
    // floor(48000 × 11634 / 50000) = 11168
    const provider = [at({ kind: 'transfer', objectId: 'tr_1', amount: -11168, sourceCharge })]
    expect(compareDay({ ledger: [pln], provider }).differences).toEqual([])
    const more = [at({ kind: 'transfer', objectId: 'tr_1', amount: -11169, sourceCharge })]
    expect(compareDay({ ledger: [pln], provider: more }).differences).toEqual([
      expect.objectContaining({
        kind: 'amount_mismatch',
        ledger: { amount: 48000, currency: 'pln' },
        provider: { amount: 11169, currency: 'eur' },
      }),
    ])
  })

  it('reads a refund and its failure together: nothing was refunded', () => {
    const provider = [
      at({ kind: 'refund', objectId: 're_1', amount: -10340 }),
      at({ kind: 'refund', objectId: 're_1', amount: 10340, providerType: 'refund_failure', id: 'txn_fail' }),
    ]
    expect(compareDay({ ledger: [refund], provider }).differences).toEqual([
      expect.objectContaining({ kind: 'amount_mismatch', provider: { amount: 0, currency: 'eur' } }),
    ])
  })

  it('reports what Pactum booked nothing for (a dispute the ledger lacks, a stand-alone fee) and only totals payouts', () => {
    const provider = [
      at({ kind: 'dispute', objectId: 'dp_1', amount: -10340, providerType: 'adjustment' }),
      at({ kind: 'fee', objectId: null, amount: -1500, providerType: 'stripe_fee', id: 'txn_fee' }),
      at({ kind: 'payout', objectId: 'po_1', amount: -20000 }),
    ]
    const day = compareDay({ ledger: [], provider })
    expect(day.differences.map((difference) => [difference.kind, difference.movement, difference.providerId])).toEqual([
      ['unbooked_provider_movement', 'fee', 'txn_fee'],
      ['missing_in_ledger', 'dispute', 'dp_1'],
    ])
    expect(day.totals.provider).toEqual([
      { currency: 'eur', charged: 0, refunded: 0, transferred: 0, disputed: 10340, paidOut: 20000, fees: 1500 },
    ])
  })

  it("matches a dispute's withdrawal and its reinstatement by the dispute's id, each in its own direction", () => {
    const ledger: LedgerMovement[] = [
      { kind: 'dispute', providerId: 'du_1', transactionId: 't9', amount: 10340, currency: 'eur' },
      { kind: 'dispute_reversal', providerId: 'du_1', transactionId: 't9', amount: 10340, currency: 'eur' },
    ]
    const provider = [
      at({ kind: 'dispute', objectId: 'du_1', amount: -10340, providerType: 'adjustment', id: 'txn_w' }),
      at({ kind: 'dispute', objectId: 'du_1', amount: 10340, providerType: 'adjustment', id: 'txn_r' }),
    ]
    expect(compareDay({ ledger, provider }).differences).toEqual([])
    // The reinstatement alone does not pass for the withdrawal.
    const onlyBack = compareDay({ ledger: [ledger[0] as LedgerMovement], provider: [provider[1] as ProviderMovement] })
    expect(onlyBack.differences.map((difference) => difference.kind).sort()).toEqual(['missing_at_provider', 'missing_in_ledger'])
  })

  it('does not match a refund against a charge of the same id', () => {
    const day = compareDay({ ledger: [{ ...refund, providerId: 'pi_1' }], provider: [cleanProvider[0] as ProviderMovement] })
    expect(day.differences.map((difference) => difference.kind).sort()).toEqual(['missing_at_provider', 'missing_in_ledger'])
  })
})

describe('compareDay with a release split over two charges', () => {
  const release: LedgerMovement = { kind: 'transfer', providerId: 'tr_a', transactionId: 't3', amount: 20000, currency: 'eur' }

  it('adds up the pieces that share the first one’s group', () => {
    const provider = [
      at({ kind: 'transfer', objectId: 'tr_a', amount: -5190, group: 'k' }),
      at({ kind: 'transfer', objectId: 'tr_b', amount: -14810, group: 'k' }),
    ]
    expect(compareDay({ ledger: [release], provider }).differences).toEqual([])
    const short = [provider[0], { ...provider[1], amount: -14000 }] as ProviderMovement[]
    expect(compareDay({ ledger: [release], provider: short }).differences).toEqual([
      expect.objectContaining({ kind: 'amount_mismatch', provider: { amount: 19190, currency: 'eur' } }),
    ])
  })

  it('checks converted pieces each at its own charge’s rate', () => {
    const pln: LedgerMovement = { ...release, amount: 20000, currency: 'pln' }
    // 5000 PLN of a 5000 PLN deposit settled as 1163 EUR; 15000 PLN of a 15000 PLN remainder settled as 3490 EUR.
    const pieces = (second: number) => [
      at({
        kind: 'transfer',
        objectId: 'tr_a',
        amount: -1163,
        group: 'k',
        sourceCharge: { amount: 5000, currency: 'pln', settledAmount: 1163 },
      }),
      at({
        kind: 'transfer',
        objectId: 'tr_b',
        amount: -second,
        group: 'k',
        sourceCharge: { amount: 15000, currency: 'pln', settledAmount: 3490 },
      }),
    ]
    expect(compareDay({ ledger: [pln], provider: pieces(3490) }).differences).toEqual([])
    expect(compareDay({ ledger: [pln], provider: pieces(3400) }).differences).toEqual([
      expect.objectContaining({ kind: 'amount_mismatch', provider: { amount: 4563, currency: 'eur' } }),
    ])
  })

  it('leaves a piece of another group alone', () => {
    const provider = [
      at({ kind: 'transfer', objectId: 'tr_a', amount: -20000, group: 'k' }),
      at({ kind: 'transfer', objectId: 'tr_x', amount: -700, group: 'other' }),
    ]
    expect(compareDay({ ledger: [release], provider }).differences.map((difference) => [difference.kind, difference.providerId])).toEqual([
      ['missing_in_ledger', 'tr_x'],
    ])
  })
})
