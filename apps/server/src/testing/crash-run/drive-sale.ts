import type { CrashClient } from './client.ts'
import type { Sale } from './scenario.ts'

/*
 * One sale of the crash run's burst, driven over HTTP the way a client
 * drives it, along its plan: created, joined, paid, and then released,
 * refunded or cancelled. Each step records the status the sale must end
 * in, given what the server answered.
 */

export async function driveSale(client: CrashClient, sale: Sale, run: { runId: string; clientId: string }): Promise<void> {
  const seller = `seller-${sale.index}`
  const buyer = `buyer-${sale.index}`
  const key = (step: string) => `crash-${run.runId}-${sale.index}-${step}`
  const label = (step: string) => `sale ${sale.index} ${step}`
  const price = 1000 + 137 * sale.index

  const quote = await client.must(null, 'GET', `/api/v1/charge?price=${price}&currency=eur&payment_method=card`, undefined, {
    label: label('quote'),
  })
  const created = await client.must(
    seller,
    'POST',
    `/api/v1/me/transactions?client_id=${run.clientId}`,
    {
      role: 'seller',
      price,
      currency: 'eur',
      description: `Crash-harness sale ${sale.index}`,
      payment_method: 'card',
      charge: quote.charge,
      charge_calculator_version: quote.charge_calculator_version,
    },
    { label: label('create'), key: key('create') },
  )
  sale.id = created.id as string
  const id = sale.id
  // Joining takes no Idempotency-Key: a join the crash cut off is checked by reading the transaction.
  await client.step(buyer, 'PUT', `/api/v1/transactions?join_code=${created.join_code}`, undefined, { label: label('join') }, async () => {
    const view = await client.call(buyer, 'GET', `/api/v1/transactions/${id}`, undefined, { label: label('read') })
    return view.status === 200 && view.body.role === 'buyer'
  })
  if (sale.plan === 'buyer-cancel') {
    await client.keyed(buyer, `/api/v1/transactions/${id}/cancel`, undefined, key('cancel'), label('cancel'))
    sale.expected = 'cancelled'
    return
  }
  const payment = await client.keyed(buyer, `/api/v1/transactions/${id}/pay`, undefined, key('pay'), label('pay'))
  await client.step(
    null,
    'POST',
    `/sandbox/v1/payment_intents/${payment.payment_intent_id}/confirm`,
    { client_secret: payment.client_secret, card_number: '4242424242424242' },
    { label: label('card') },
    // The browser's confirmation takes no key either; a second one is refused by a succeeded intent.
    async () => true,
  )
  await client.keyed(
    buyer,
    `/api/v1/transactions/${id}/confirm_payment`,
    { payment_intent_id: payment.payment_intent_id },
    key('confirm-payment'),
    label('confirm_payment'),
    ['already_paid'],
  )
  if (sale.plan === 'seller-refund') {
    await client.keyed(seller, `/api/v1/transactions/${id}/cancel`, undefined, key('cancel'), label('cancel'))
    sale.expected = 'payment_refunded'
    return
  }
  const code = sale.plan === 'carrier-release' ? `CRASH${sale.index}X` : `CRASH${sale.index}LOST`
  await client.keyed(seller, `/api/v1/transactions/${id}/track`, { carrier: 'dhl', tracking_code: code }, key('track'), label('track'))
  sale.expected = 'funds_released'
  if (sale.plan === 'carrier-release') return
  await client.keyed(buyer, `/api/v1/transactions/${id}/confirm_delivery`, undefined, key('confirm-delivery'), label('confirm_delivery'))
  if (sale.plan === 'buyer-release') {
    // A restart longer than the complaint window lets the timer release first: the same end.
    await client.keyed(buyer, `/api/v1/transactions/${id}/end_complaint_period`, undefined, key('end'), label('end_complaint_period'), [
      'complaint_period_expired',
      'funds_already_released',
    ])
  }
  if (sale.plan === 'complaint-refund') {
    const complaint = await client.keyed(
      buyer,
      `/api/v1/transactions/${id}/complain_with_description`,
      { description: 'It arrived broken' },
      key('complain'),
      label('complain'),
      ['complaint_period_expired', 'funds_already_released'],
    )
    if (complaint.status !== 'complained') return
    await client.keyed(seller, `/api/v1/transactions/${id}/accept_complaint`, undefined, key('accept'), label('accept_complaint'))
    sale.expected = 'payment_refunded'
  }
}
