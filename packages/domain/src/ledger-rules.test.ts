import { describe, expect, it } from 'vitest'
import { entrySumsToZero, escrowBalances, type LedgerEntry, ledgerBreaches } from './ledger-rules.ts'

const hold: LedgerEntry = {
  entry: 'hold',
  postings: [
    { account: 'buyer_funding', amount: -10340, currency: 'eur' },
    { account: 'escrow', amount: 10340, currency: 'eur' },
  ],
}
const release: LedgerEntry = {
  entry: 'release',
  postings: [
    { account: 'escrow', amount: -10340, currency: 'eur' },
    { account: 'seller', amount: 10000, currency: 'eur' },
    { account: 'revenue', amount: 340, currency: 'eur' },
  ],
}
const refund: LedgerEntry = {
  entry: 'refund',
  postings: [
    { account: 'escrow', amount: -10340, currency: 'eur' },
    { account: 'buyer_refund', amount: 10340, currency: 'eur' },
  ],
}

describe('balanced entries', () => {
  it('accepts postings that cancel out per currency', () => {
    expect(entrySumsToZero(hold.postings)).toBe(true)
    expect(entrySumsToZero([])).toBe(true)
    expect(
      entrySumsToZero([
        { account: 'a', amount: 5, currency: 'eur' },
        { account: 'b', amount: -5, currency: 'eur' },
        { account: 'a', amount: 7, currency: 'usd' },
        { account: 'b', amount: -7, currency: 'usd' },
      ]),
    ).toBe(true)
  })
  it('refuses postings that only cancel out across currencies', () => {
    expect(
      entrySumsToZero([
        { account: 'a', amount: 5, currency: 'eur' },
        { account: 'b', amount: -5, currency: 'usd' },
      ]),
    ).toBe(false)
  })
  it('refuses amounts that are not safe integers', () => {
    expect(
      entrySumsToZero([
        { account: 'a', amount: 0.5, currency: 'eur' },
        { account: 'b', amount: -0.5, currency: 'eur' },
      ]),
    ).toBe(false)
  })
})

describe('ledger invariants of a transaction', () => {
  it('finds nothing wrong with hold then release, or hold then refund', () => {
    expect(ledgerBreaches({ entries: [hold, release], terminal: true })).toEqual([])
    expect(ledgerBreaches({ entries: [hold, refund], terminal: true })).toEqual([])
    expect(ledgerBreaches({ entries: [hold], terminal: false })).toEqual([])
    expect(ledgerBreaches({ entries: [], terminal: true })).toEqual([])
  })
  it('does not count money sent straight back (refund_unheld) as resolving a hold', () => {
    const sentBack: LedgerEntry = {
      entry: 'refund_unheld',
      postings: [
        { account: 'buyer_funding', amount: -500, currency: 'eur' },
        { account: 'buyer_refund', amount: 500, currency: 'eur' },
      ],
    }
    expect(ledgerBreaches({ entries: [sentBack], terminal: true })).toEqual([])
    expect(ledgerBreaches({ entries: [hold, sentBack, refund, sentBack], terminal: true })).toEqual([])
    expect(ledgerBreaches({ entries: [hold, sentBack, release, refund], terminal: true })).toContainEqual({
      kind: 'hold_resolved_more_than_once',
      entryIndex: 3,
    })
  })
  it('reports an unbalanced entry', () => {
    const broken: LedgerEntry = { entry: 'hold', postings: [{ account: 'escrow', amount: 1, currency: 'eur' }] }
    expect(ledgerBreaches({ entries: [broken], terminal: false })).toEqual([{ kind: 'unbalanced_entry', entryIndex: 0 }])
  })
  it('reports escrow going negative', () => {
    expect(ledgerBreaches({ entries: [release], terminal: false })).toContainEqual({
      kind: 'escrow_negative',
      entryIndex: 0,
      currency: 'eur',
      balance: -10340,
    })
  })
  it('reports money left in escrow once the transaction is over', () => {
    expect(ledgerBreaches({ entries: [hold], terminal: true })).toEqual([
      { kind: 'escrow_not_zero_in_terminal_state', currency: 'eur', balance: 10340 },
    ])
  })
  it('reports a hold resolved twice', () => {
    const breaches = ledgerBreaches({ entries: [hold, release, refund], terminal: true })
    expect(breaches).toContainEqual({ kind: 'hold_resolved_more_than_once', entryIndex: 2 })
    expect(breaches).toContainEqual({ kind: 'escrow_negative', entryIndex: 2, currency: 'eur', balance: -10340 })
  })
  it('recognises escrow accounts qualified by the server', () => {
    const qualified = release.postings.map((p) => (p.account === 'escrow' ? { ...p, account: 'escrow:tx_1' } : p))
    expect(ledgerBreaches({ entries: [hold, { entry: 'release', postings: qualified }], terminal: true })).toEqual([])
    expect(
      ledgerBreaches({
        entries: [
          { entry: 'hold', postings: [] },
          { entry: 'release', postings: qualified },
        ],
        terminal: false,
      }),
    ).toContainEqual({
      kind: 'escrow_negative',
      entryIndex: 1,
      currency: 'eur',
      balance: -10340,
    })
    expect(escrowBalances([hold])).toEqual(new Map([['eur', 10340]]))
    expect(escrowBalances([hold, refund])).toEqual(new Map())
  })
})
