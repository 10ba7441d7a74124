import { describe, expect, it } from 'vitest'
import { createOnlineTransaction } from './online-state.ts'
import { transitionOnline as transition } from './online-transaction.ts'
import { accept, admin, buyer, counterparty, expectRefusal, seller, system, t0 } from './testing/shared-machine-cases.ts'

const created = createOnlineTransaction(
  {
    creatorRole: 'seller',
    creatorId: 'u_s',
    joinCode: 'ABCDEFGH',
    price: 10_000,
    currency: 'eur',
    charge: 340,
    chargeCalculatorVersion: 1,
  },
  t0,
)
const joined = accept(transition(created, { type: 'join', userId: 'u_b' }, counterparty, t0)).next
const message = (notify: boolean) => ({ type: 'post_message', text: 'Is it still boxed?', notify }) as const

describe('the conversation', () => {
  it('lets either party write once both take part, recorded in the history, the other party e-mailed', () => {
    const { next, effects } = accept(transition(joined, message(true), buyer, t0))
    expect(next).toBe(joined)
    expect(effects).toEqual([
      { type: 'audit' },
      { type: 'notify', template: 'message_received', to: 'seller', quote: 'Is it still boxed?' },
    ])
    expect(accept(transition(joined, message(true), seller, t0)).effects[1]).toMatchObject({ to: 'buyer' })
  })

  it('records without e-mailing while the conversation was e-mailed less than 10 minutes ago', () => {
    expect(accept(transition(joined, message(false), buyer, t0)).effects).toEqual([{ type: 'audit' }])
  })

  it('refuses before the other party joined, strangers and the system, and an admin without a case', () => {
    expectRefusal(transition(created, message(true), seller, t0), 'not_accepted', 409)
    expectRefusal(transition(joined, message(true), counterparty, t0), 'forbidden', 403)
    expectRefusal(transition(joined, message(true), system, t0), 'forbidden', 403)
    expectRefusal(transition(joined, message(true), admin, t0), 'not_complained', 409)
  })

  it('lets an admin write to both parties once there is a case, with the case message e-mail no one can turn off', () => {
    const withCase = {
      ...joined,
      complaint: { description: 'x', reason: 'other', responseDeadline: null, escalatedAt: null, offers: [] },
    } as const
    expect(accept(transition(withCase, message(true), admin, t0)).effects).toEqual([
      { type: 'audit' },
      { type: 'notify', template: 'case_message_received', to: 'buyer', quote: 'Is it still boxed?' },
      { type: 'notify', template: 'case_message_received', to: 'seller', quote: 'Is it still boxed?' },
    ])
  })
})
