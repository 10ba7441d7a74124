import { onlineStatusSchema, type OnlineStatus } from '@pactum/contracts/transactions'
import { describe, expect, it } from 'vitest'
import { type ActionInput, availableActions, awaitsAsyncChange } from './available-actions.ts'

const now = Date.parse('2026-11-02T12:00:00Z')
const future = '2026-11-03T12:00:00Z'
const past = '2026-11-01T12:00:00Z'

function tx(status: OnlineStatus, role: 'buyer' | 'seller' | null, extra: Partial<ActionInput> = {}): ActionInput {
  return {
    status,
    role,
    is_payment_in_progress: false,
    tracking_deadline: status === 'paid' ? future : null,
    complaint_period_deadline: status === 'delivered' ? future : null,
    order_issue: null,
    ...extra,
  }
}

const expected: Record<OnlineStatus, { buyer: string[]; seller: string[] }> = {
  created: { buyer: ['cancel'], seller: ['cancel'] },
  joined: { buyer: ['pay', 'cancel'], seller: ['cancel'] },
  paid: { buyer: ['submit_order_issue'], seller: ['track', 'cancel'] },
  tracked: { buyer: ['confirm_delivery'], seller: [] },
  delivered: { buyer: ['complain', 'end_complaint_period'], seller: [] },
  complained: { buyer: [], seller: ['accept_complaint'] },
  complaint_period_ended: { buyer: [], seller: [] },
  funds_released: { buyer: [], seller: [] },
  cancelled: { buyer: [], seller: [] },
  rejected: { buyer: [], seller: [] },
  cancelled_with_payment: { buyer: [], seller: [] },
  payment_refunded: { buyer: [], seller: [] },
}

describe('available actions', () => {
  it('covers every status', () => {
    expect(Object.keys(expected).sort()).toEqual([...onlineStatusSchema.options].sort())
  })

  for (const status of onlineStatusSchema.options) {
    for (const role of ['buyer', 'seller'] as const) {
      it(`${status} × ${role} → ${expected[status][role].join(', ') || 'nothing'}`, () => {
        expect(availableActions(tx(status, role), now)).toEqual(expected[status][role])
      })
    }
    it(`${status} offers nothing to someone who is no party`, () => {
      expect(availableActions(tx(status, null), now)).toEqual([])
    })
  }

  it('hides pay and cancel while a payment is in progress', () => {
    expect(availableActions(tx('joined', 'buyer', { is_payment_in_progress: true }), now)).toEqual([])
    expect(availableActions(tx('joined', 'seller', { is_payment_in_progress: true }), now)).toEqual([])
  })

  it('stops offering tracking once the tracking deadline has passed', () => {
    expect(availableActions(tx('paid', 'seller', { tracking_deadline: past }), now)).toEqual(['cancel'])
  })

  it('offers one order issue report only', () => {
    expect(availableActions(tx('paid', 'buyer', { order_issue: { description: 'Wrong size' } }), now)).toEqual([])
  })

  it('stops offering a complaint once the window has closed', () => {
    expect(availableActions(tx('delivered', 'buyer', { complaint_period_deadline: past }), now)).toEqual([])
  })

  it('waits for the server while a payment is in progress or the carrier has the parcel', () => {
    expect(awaitsAsyncChange(tx('joined', 'buyer', { is_payment_in_progress: true }), now)).toBe(true)
    expect(awaitsAsyncChange(tx('tracked', 'seller'), now)).toBe(true)
    expect(awaitsAsyncChange(tx('delivered', 'buyer', { complaint_period_deadline: past }), now)).toBe(true)
    expect(awaitsAsyncChange(tx('joined', 'buyer'), now)).toBe(false)
    expect(awaitsAsyncChange(tx('funds_released', 'seller'), now)).toBe(false)
  })
})
