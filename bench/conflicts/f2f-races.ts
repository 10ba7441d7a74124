import { admin, card, fill, methodFor, otherMethod, type PaymentSource, paymentLane, sepaSucceeds, type Single } from './lanes.ts'
import type { Intent, RaceKind, Sale } from './sale.ts'

/*
 * The races over face-to-face sales (a deposit, a remainder, the handover
 * in person): how a sale is brought to each racing state, and what races.
 */

const p2p = (id: string, action = '') => `/api/v1/p2p/transactions/${id}${action ? `/${action}` : ''}`
const cancelBy = (who: 'buyer' | 'seller'): Single['body'] => ({
  description: who === 'seller' ? 'cancelled by creator' : 'cancelled by buyer',
})

async function createF2f(sale: Sale, method: 'card' | 'sepa' = 'card'): Promise<void> {
  const quote = await sale.step('seller', 'GET', '/api/v1/p2p/charge?price=5000&currency=eur&payment_method=card')
  const created = await sale.step('seller', 'POST', '/api/v1/p2p/me/transactions', {
    role: 'seller',
    currency: 'eur',
    description: `Bench camera ${sale.index}`,
    deposit_price: 5_000,
    deposit_charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  })
  sale.id = created.id as string
  await sale.step('buyer', 'POST', `/api/v1/p2p/transactions_by_join_code/${String(created.join_code)}/join`)
  if (method === 'sepa') await sale.step('buyer', 'POST', p2p(sale.id, 'set_deposit_payment_method'), { payment_method: 'sepa' })
}

async function openF2f(sale: Sale, part: 'deposit' | 'remainder'): Promise<Intent> {
  const opened = await sale.step('buyer', 'POST', p2p(sale.id, `pay_${part}`))
  return { id: opened.payment_intent_id as string, secret: opened.client_secret as string }
}

async function payF2f(sale: Sale, part: 'deposit' | 'remainder', source: PaymentSource = { card_number: card }): Promise<void> {
  const intent = await openF2f(sale, part)
  await sale.step(null, 'POST', `/sandbox/v1/payment_intents/${intent.id}/confirm`, { client_secret: intent.secret, ...source })
  await sale.step('buyer', 'POST', p2p(sale.id, 'confirm_payment'), { payment_intent_id: intent.id })
  await sale.waitFor([part === 'deposit' ? 'deposit_paid' : 'remainder_paid'])
}

async function quoteTotal(sale: Sale, total: number): Promise<object> {
  const quote = await sale.step('seller', 'GET', `${p2p(sale.id, 'charge')}?price=${total}`)
  return { price: total, charge: quote.charge, charge_calculator_version: quote.charge_calculator_version }
}

async function depositAccepted(sale: Sale, method: 'card' | 'sepa' = 'card'): Promise<void> {
  await createF2f(sale, method)
  await payF2f(sale, 'deposit', method === 'card' ? { card_number: card } : { iban: sepaSucceeds })
  await sale.step('seller', 'POST', p2p(sale.id, 'accept_deposit'))
}

/** Remainder paid by card on even sales, skipped on odd ones. */
async function remainderSettled(sale: Sale): Promise<void> {
  await depositAccepted(sale)
  if (sale.index % 2 === 0) {
    await sale.step('seller', 'POST', p2p(sale.id, 'set_price'), await quoteTotal(sale, 20_000))
    await payF2f(sale, 'remainder')
  } else {
    await sale.step('seller', 'POST', p2p(sale.id, 'skip_remainder'))
  }
}

async function handoverConfirmed(sale: Sale): Promise<Date> {
  await remainderSettled(sale)
  const confirmed = await sale.step('seller', 'POST', p2p(sale.id, 'confirm_handover'))
  return new Date(confirmed.complaint_period_deadline as string)
}

export const f2fJoined: RaceKind = {
  name: 'f2f joined',
  summary: 'pay_deposit + confirm_payment ×3 + webhook ×2 vs cancel_with_description by either party vs a change of method',
  type: 'f2f',
  ends: ['deposit_paid', 'cancelled', 'joined', 'deposit_refunded'],
  async setup(sale) {
    await createF2f(sale, methodFor(sale.index).method)
    return sale.index % 2 === 0 ? { intent: await openF2f(sale, 'deposit') } : {}
  },
  lanes(sale, requests, { intent }) {
    const payment = paymentLane(sale, {
      payPath: p2p(sale.id, 'pay_deposit'),
      confirmPath: p2p(sale.id, 'confirm_payment'),
      intent,
      source: methodFor(sale.index).source,
      confirms: 3,
      webhooks: 2,
    })
    return [
      payment,
      ...fill(sale, requests - payment.calls, [
        { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
        { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
        { who: 'buyer', path: p2p(sale.id, 'pay_deposit'), label: 'buyer pay_deposit', weight: 2 },
        {
          who: 'buyer',
          path: p2p(sale.id, 'set_deposit_payment_method'),
          body: { payment_method: otherMethod(sale) },
          label: 'buyer set_deposit_payment_method',
          weight: 1,
        },
      ]),
    ]
  },
}

export const f2fDepositPaid: RaceKind = {
  name: 'f2f deposit paid',
  summary: 'accept_deposit ×k vs cancel_with_description by either party vs admin refund',
  type: 'f2f',
  ends: ['deposit_accepted', 'deposit_refunded', 'payment_refunded'],
  async setup(sale) {
    await createF2f(sale)
    await payF2f(sale, 'deposit')
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'accept_deposit'), label: 'seller accept_deposit', weight: 4 },
      { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
      { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
      {
        who: 'admin',
        path: admin(sale.id, 'release_funds'),
        query: '?to=buyer',
        body: { reason: 'bench' },
        label: 'admin release to buyer',
        weight: 1,
      },
    ])
  },
}

export const f2fDepositAccepted: RaceKind = {
  name: 'f2f deposit accepted',
  summary: 'set_price (two totals) vs skip_remainder vs cancel by either party',
  type: 'f2f',
  ends: ['priced', 'remainder_skipped', 'deposit_refunded'],
  async setup(sale) {
    await depositAccepted(sale)
    // Quoted before the race, as the seller's form does.
    return { totals: [await quoteTotal(sale, 20_000), await quoteTotal(sale, 25_000)] }
  },
  lanes(sale, requests, { totals = [] }) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'set_price'), body: totals[0]!, label: 'seller set_price 200.00', weight: 2 },
      { who: 'seller', path: p2p(sale.id, 'set_price'), body: totals[1]!, label: 'seller set_price 250.00', weight: 2 },
      { who: 'seller', path: p2p(sale.id, 'skip_remainder'), label: 'seller skip_remainder', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
      { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
    ])
  },
}

export const f2fPriced: RaceKind = {
  name: 'f2f priced',
  summary: 'pay_remainder + confirm_payment ×3 + webhook ×2 vs skip_remainder vs cancel',
  type: 'f2f',
  ends: ['remainder_paid', 'remainder_skipped', 'deposit_refunded', 'priced'],
  async setup(sale) {
    await depositAccepted(sale, methodFor(sale.index).method)
    await sale.step('seller', 'POST', p2p(sale.id, 'set_price'), await quoteTotal(sale, 20_000))
    return sale.index % 2 === 0 ? { intent: await openF2f(sale, 'remainder') } : {}
  },
  lanes(sale, requests, { intent }) {
    const payment = paymentLane(sale, {
      payPath: p2p(sale.id, 'pay_remainder'),
      confirmPath: p2p(sale.id, 'confirm_payment'),
      intent,
      source: methodFor(sale.index).source,
      confirms: 3,
      webhooks: 2,
    })
    return [
      payment,
      ...fill(sale, requests - payment.calls, [
        { who: 'seller', path: p2p(sale.id, 'skip_remainder'), label: 'seller skip_remainder', weight: 3 },
        { who: 'buyer', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('buyer'), label: 'buyer cancel', weight: 1 },
        { who: 'seller', path: p2p(sale.id, 'cancel_with_description'), body: cancelBy('seller'), label: 'seller cancel', weight: 1 },
        { who: 'buyer', path: p2p(sale.id, 'pay_remainder'), label: 'buyer pay_remainder', weight: 1 },
      ]),
    ]
  },
}

export const f2fHandover: RaceKind = {
  name: 'f2f handover',
  summary: 'confirm_handover by both parties ×k vs complain vs end_complaint_period vs admin refund',
  type: 'f2f',
  ends: ['funds_released', 'complained', 'payment_refunded'],
  async setup(sale) {
    await remainderSettled(sale)
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'confirm_handover'), label: 'seller confirm_handover', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'confirm_handover'), label: 'buyer confirm_handover', weight: 3 },
      { who: 'buyer', path: p2p(sale.id, 'complain'), body: { description: 'Lens is foggy' }, label: 'buyer complain', weight: 1 },
      { who: 'buyer', path: p2p(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 1 },
      {
        who: 'admin',
        path: admin(sale.id, 'release_funds'),
        query: '?to=buyer',
        body: { reason: 'bench' },
        label: 'admin release to buyer',
        weight: 1,
      },
    ])
  },
}

export const f2fWindow: RaceKind = {
  name: 'f2f complaint window',
  summary: 'complain vs end_complaint_period vs the window timer vs admin release, at the deadline',
  type: 'f2f',
  ends: ['complained', 'funds_released', 'payment_refunded'],
  async setup(sale) {
    return { deadline: await handoverConfirmed(sale) }
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'buyer', path: p2p(sale.id, 'complain'), body: { description: 'Shutter sticks' }, label: 'buyer complain', weight: 4 },
      { who: 'buyer', path: p2p(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 2 },
      {
        who: 'admin',
        path: admin(sale.id, 'release_funds'),
        query: '?to=seller',
        body: { reason: 'bench' },
        label: 'admin release to seller',
        weight: 1,
      },
      {
        who: 'admin',
        path: admin(sale.id, 'release_funds'),
        query: '?to=buyer',
        body: { reason: 'bench' },
        label: 'admin release to buyer',
        weight: 1,
      },
      { who: 'seller', path: p2p(sale.id, 'accept_complaint'), label: 'seller accept_complaint', weight: 1 },
    ])
  },
}

export const f2fComplained: RaceKind = {
  name: 'f2f complained',
  summary: 'seller accept_complaint vs admin release ?to=seller vs ?to=buyer',
  type: 'f2f',
  ends: ['payment_refunded', 'funds_released'],
  async setup(sale) {
    await handoverConfirmed(sale)
    await sale.step('buyer', 'POST', p2p(sale.id, 'complain'), { description: 'Not the model shown' })
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: p2p(sale.id, 'accept_complaint'), label: 'seller accept_complaint', weight: 3 },
      {
        who: 'admin',
        path: admin(sale.id, 'release_funds'),
        query: '?to=seller',
        body: { reason: 'bench' },
        label: 'admin release to seller',
        weight: 3,
      },
      {
        who: 'admin',
        path: admin(sale.id, 'release_funds'),
        query: '?to=buyer',
        body: { reason: 'bench' },
        label: 'admin release to buyer',
        weight: 3,
      },
      { who: 'buyer', path: p2p(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 1 },
      { who: 'seller', path: p2p(sale.id, 'confirm_handover'), label: 'seller confirm_handover', weight: 1 },
    ])
  },
}
