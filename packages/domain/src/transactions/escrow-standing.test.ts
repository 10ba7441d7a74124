import { describe, expect, it } from 'vitest'
import { type EscrowFacts, escrowStandingOf } from './escrow-standing.ts'

const created = new Date('2026-11-02T10:00:00Z')
const paid = new Date('2026-11-02T11:00:00Z')
const later = new Date('2026-11-09T11:00:00Z')

const unpaid: EscrowFacts = {
  kind: 'online',
  status: 'joined',
  price: 10_000,
  charge: 340,
  amountHeld: 0,
  amountReleased: 0,
  amountRefunded: 0,
  timestamps: { created, joined: created },
}
const held: EscrowFacts = { ...unpaid, status: 'paid', amountHeld: 10_340, timestamps: { ...unpaid.timestamps, paid } }

describe('the public standing of a sale’s money', () => {
  it('is awaiting payment until the buyer paid, for the price and the buyer’s fee', () => {
    expect(escrowStandingOf(unpaid)).toEqual({ state: 'awaiting_payment', amount: 10_340, paid: null, released: null, refunded: null })
  })

  it('is cancelled when the sale ended before anyone paid', () => {
    expect(escrowStandingOf({ ...unpaid, status: 'cancelled' }).state).toBe('cancelled')
    expect(escrowStandingOf({ ...unpaid, status: 'rejected' }).state).toBe('cancelled')
  })

  it('is held from the payment on, through shipping, delivery and a complaint', () => {
    for (const status of ['paid', 'tracked', 'delivered', 'complained', 'complaint_period_ended'])
      expect(escrowStandingOf({ ...held, status })).toEqual({ state: 'held', amount: 10_340, paid, released: null, refunded: null })
  })

  it('is released once the seller was paid', () => {
    const released = {
      ...held,
      status: 'funds_released',
      amountReleased: 10_000,
      timestamps: { ...held.timestamps, funds_released: later },
    }
    expect(escrowStandingOf(released)).toEqual({ state: 'released', amount: 10_340, paid, released: later, refunded: null })
  })

  it('is refunded from the step that sent the money back, the earliest of them', () => {
    const cancelled = {
      ...held,
      status: 'payment_refunded',
      amountRefunded: 10_340,
      timestamps: { ...held.timestamps, cancelled_with_payment: later, payment_refunded: new Date('2026-11-10T00:00:00Z') },
    }
    expect(escrowStandingOf(cancelled)).toEqual({ state: 'refunded', amount: 10_340, paid, released: null, refunded: later })
  })

  it('reads a face-to-face sale’s deposit as its payment', () => {
    const deposit = {
      ...unpaid,
      kind: 'f2f' as const,
      status: 'deposit_paid',
      amountHeld: 2_000,
      timestamps: { created, deposit_paid: paid },
    }
    expect(escrowStandingOf(deposit)).toMatchObject({ state: 'held', amount: 2_000, paid })
    const refunded = { ...deposit, status: 'deposit_refunded', timestamps: { ...deposit.timestamps, cancelled_with_deposit: later } }
    expect(escrowStandingOf(refunded)).toMatchObject({ state: 'refunded', refunded: later })
  })
})
