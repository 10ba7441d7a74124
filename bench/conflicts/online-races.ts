import { admin, card, fill, methodFor, otherMethod, paymentLane } from './lanes.ts'
import { type Intent, type RaceKind, type Sale, SetupError } from './sale.ts'

/*
 * The races over online sales (shipped, with a complaint window after
 * delivery): how a sale is brought to each racing state, and what races.
 */

const online = (id: string, action = '') => `/api/v1/transactions/${id}${action ? `/${action}` : ''}`

async function createOnline(sale: Sale, method: 'card' | 'sepa' = 'card'): Promise<void> {
  const quote = await sale.step('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=card')
  const created = await sale.step('seller', 'POST', '/api/v1/me/transactions', {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: `Bench bicycle ${sale.index}`,
    payment_method: 'card',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  })
  sale.id = created.id as string
  await sale.step('buyer', 'PUT', `/api/v1/transactions?join_code=${String(created.join_code)}`)
  if (method === 'sepa') await sale.step('buyer', 'POST', online(sale.id, 'set_payment_method'), { payment_method: 'sepa' })
}

async function openOnline(sale: Sale): Promise<Intent> {
  const opened = await sale.step('buyer', 'POST', online(sale.id, 'pay'))
  return { id: opened.payment_intent_id as string, secret: opened.client_secret as string }
}

async function paidOnline(sale: Sale): Promise<void> {
  await createOnline(sale)
  const intent = await openOnline(sale)
  await sale.step(null, 'POST', `/sandbox/v1/payment_intents/${intent.id}/confirm`, { client_secret: intent.secret, card_number: card })
  const paid = await sale.step('buyer', 'POST', online(sale.id, 'confirm_payment'), { payment_intent_id: intent.id })
  if (paid.status !== 'paid') throw new SetupError(`confirm_payment left the sale ${String(paid.status)}`)
}

async function deliveredOnline(sale: Sale): Promise<Date> {
  await paidOnline(sale)
  await sale.step('seller', 'POST', online(sale.id, 'track'), {
    carrier: 'dhl',
    tracking_code: `BENCH${sale.id.replaceAll('-', '').slice(-16).toUpperCase()}`,
  })
  await sale.step('buyer', 'POST', online(sale.id, 'confirm_delivery'))
  const delivered = await sale.waitFor(['delivered'])
  return new Date(delivered.complaint_period_deadline as string)
}

export const onlineJoined: RaceKind = {
  name: 'online joined',
  summary: 'pay + confirm_payment ×3 + webhook ×2 vs cancel by either party vs a change of method',
  type: 'online',
  ends: ['paid', 'cancelled', 'joined', 'payment_refunded'],
  async setup(sale) {
    await createOnline(sale, methodFor(sale.index).method)
    // Half the races open the payment themselves, half find it open.
    return sale.index % 2 === 0 ? { intent: await openOnline(sale) } : {}
  },
  lanes(sale, requests, { intent }) {
    const payment = paymentLane(sale, {
      payPath: online(sale.id, 'pay'),
      confirmPath: online(sale.id, 'confirm_payment'),
      intent,
      source: methodFor(sale.index).source,
      confirms: 3,
      webhooks: 2,
    })
    return [
      payment,
      ...fill(sale, requests - payment.calls, [
        { who: 'seller', path: online(sale.id, 'cancel'), label: 'seller cancel', weight: 2 },
        { who: 'buyer', path: online(sale.id, 'cancel'), label: 'buyer cancel', weight: 1 },
        { who: 'buyer', path: online(sale.id, 'pay'), label: 'buyer pay', weight: 2 },
        {
          who: 'buyer',
          path: online(sale.id, 'set_payment_method'),
          body: { payment_method: otherMethod(sale) },
          label: 'buyer set_payment_method',
          weight: 1,
        },
      ]),
    ]
  },
}

export const onlinePaid: RaceKind = {
  name: 'online paid',
  summary: 'seller cancel (refund) vs track vs submit_order_issue vs confirm_delivery vs admin release',
  type: 'online',
  ends: ['payment_refunded', 'funds_released'],
  async setup(sale) {
    await paidOnline(sale)
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: online(sale.id, 'cancel'), label: 'seller cancel', weight: 3 },
      {
        who: 'seller',
        path: online(sale.id, 'track'),
        body: { carrier: 'dhl', tracking_code: `RACE${sale.id.replaceAll('-', '').slice(-16).toUpperCase()}` },
        label: 'seller track',
        weight: 3,
      },
      {
        who: 'buyer',
        path: online(sale.id, 'submit_order_issue'),
        body: { description: 'Is it the blue one?' },
        label: 'buyer submit_order_issue',
        weight: 2,
      },
      { who: 'buyer', path: online(sale.id, 'cancel'), label: 'buyer cancel', weight: 1 },
      { who: 'buyer', path: online(sale.id, 'confirm_delivery'), label: 'buyer confirm_delivery', weight: 1 },
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
    ])
  },
}

export const onlineDelivered: RaceKind = {
  name: 'online delivered',
  summary: 'complain vs end_complaint_period vs the window timer vs admin confirm_delivery/release, at the deadline',
  type: 'online',
  ends: ['complained', 'funds_released', 'payment_refunded'],
  async setup(sale) {
    return { deadline: await deliveredOnline(sale) }
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      {
        who: 'buyer',
        path: online(sale.id, 'complain_with_description'),
        body: { description: 'Scratched frame' },
        label: 'buyer complain',
        weight: 4,
      },
      { who: 'buyer', path: online(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 2 },
      { who: 'admin', path: admin(sale.id, 'confirm_delivery'), body: { reason: 'bench' }, label: 'admin confirm_delivery', weight: 2 },
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
    ])
  },
}

export const onlineComplained: RaceKind = {
  name: 'online complained',
  summary: 'seller accept_complaint vs admin release ?to=seller vs ?to=buyer',
  type: 'online',
  ends: ['payment_refunded', 'funds_released'],
  async setup(sale) {
    await deliveredOnline(sale)
    await sale.step('buyer', 'POST', online(sale.id, 'complain_with_description'), { description: 'Not as described' })
    return {}
  },
  lanes(sale, requests) {
    return fill(sale, requests, [
      { who: 'seller', path: online(sale.id, 'accept_complaint'), label: 'seller accept_complaint', weight: 3 },
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
      { who: 'buyer', path: online(sale.id, 'end_complaint_period'), label: 'buyer end_complaint_period', weight: 1 },
      { who: 'seller', path: online(sale.id, 'cancel'), label: 'seller cancel', weight: 1 },
    ])
  },
}
