import { randomBytes } from 'node:crypto'
import type { Json, StripeStore } from './store.ts'
import { type FormObject, invalidRequest, list, missing, record, text } from './wire.ts'
import { notUsedByPactum } from './unused-fields.ts'

/*
 * The buyer's side of the Stripe fake: payment intents, their confirmation
 * by card (Stripe's test payment methods), SEPA debit (settling later) or
 * P24 (a redirect the bank answers), cancellation, and refunds.
 */

const cardDeclines: Record<string, { code: string; decline_code?: string; message: string }> = {
  pm_card_chargeDeclined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.' },
}

/** The currencies Stripe's documentation gives for each method (cards take all): P24 EUR and PLN, SEPA Direct Debit EUR. */
const methodCurrencies: Record<string, string[]> = { p24: ['eur', 'pln'], sepa_debit: ['eur'] }

function methodTakes(type: string, currency: string): boolean {
  return methodCurrencies[type]?.includes(currency) ?? true
}

export function fakePayments(store: StripeStore) {
  const { intents, charges, refunds, newId, seconds, emit, later } = store

  function intentView(intent: Json, expand: string[]): Json {
    const chargeId = intent.latest_charge as string | null
    return { ...intent, latest_charge: expand.includes('latest_charge') && chargeId ? charges.get(chargeId) : chargeId }
  }

  function createIntent(params: FormObject): Json {
    const amount = Number(params.amount)
    const currency = text(params.currency)?.toLowerCase()
    const types = list(params.allowed_payment_method_types)
    if (!Number.isSafeInteger(amount) || amount < 50)
      throw invalidRequest('Amount must be at least €0.50 eur', { code: 'amount_too_small', param: 'amount' })
    if (!currency) throw invalidRequest('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' })
    if (types.length !== 1 || !['card', 'sepa_debit', 'p24'].includes(types[0] as string))
      throw invalidRequest('Invalid payment method types', { param: 'allowed_payment_method_types' })
    const intentId = newId('pi')
    const intent: Json = {
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency,
      status: 'requires_payment_method',
      allowed_payment_method_types: types,
      // Stripe does not refuse a method the currency cannot be paid with: it leaves it out of the intent.
      payment_method_types: types.filter((type) => methodTakes(type, currency)),
      excluded_payment_method_types: null,
      automatic_payment_methods: null,
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: {},
      capture_method: 'automatic_async',
      confirmation_method: 'automatic',
      transfer_group: text(params.transfer_group) ?? null,
      metadata: record(params.metadata),
      client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
      last_payment_error: null,
      next_action: null,
      latest_charge: null,
      processing: null,
      canceled_at: null,
      cancellation_reason: null,
      ...notUsedByPactum.paymentIntent,
      created: seconds(),
    }
    intents.set(intentId, intent)
    emit('payment_intent.created', intent)
    return intent
  }

  function succeed(intent: Json): void {
    const chargeId = newId('ch')
    const charge: Json = {
      id: chargeId,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      // What the charge added to the platform's balance, in the platform's settlement currency.
      balance_transaction: store.balanceTransactionFor(chargeId, 'charge', intent.amount as number, intent.currency as string).id,
      captured: true,
      currency: intent.currency,
      livemode: false,
      paid: true,
      refunded: false,
      disputed: false,
      status: 'succeeded',
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'normal',
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      payment_intent: intent.id,
      payment_method: intent.payment_method,
      payment_method_details: { type: (intent.payment_method_types as string[])[0] },
      billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
      transfer_group: intent.transfer_group,
      metadata: intent.metadata,
      ...notUsedByPactum.charge,
      created: seconds(),
    }
    charges.set(chargeId, charge)
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
    })
    emit('charge.succeeded', charge)
    emit('payment_intent.succeeded', intent)
  }

  function fail(intent: Json, error: { code: string; decline_code?: string; message: string }): void {
    Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { type: 'card_error', ...error }, next_action: null })
    emit('payment_intent.payment_failed', intent)
  }

  function confirmIntent(intent: Json, params: FormObject): Json {
    const method = (intent.payment_method_types as string[])[0]
    const status = intent.status as string
    if (status !== 'requires_payment_method' && status !== 'requires_confirmation') {
      throw invalidRequest(`This PaymentIntent's status is ${status}, so it cannot be confirmed.`, {
        code: 'payment_intent_unexpected_state',
      })
    }
    if (method === undefined) {
      throw invalidRequest('This PaymentIntent has no payment method type that can pay it.', {
        code: 'payment_intent_invalid_parameter',
      })
    }
    if (method === 'card') {
      const paymentMethod = text(params.payment_method)
      if (!paymentMethod) throw invalidRequest('A payment method is required.', { code: 'parameter_missing', param: 'payment_method' })
      intent.payment_method = paymentMethod
      const decline = cardDeclines[paymentMethod]
      if (decline) fail(intent, decline)
      else if (paymentMethod === 'pm_card_visa' || paymentMethod === 'pm_card_mastercard') succeed(intent)
      else throw invalidRequest(`No such PaymentMethod: '${paymentMethod}'`, { code: 'resource_missing', param: 'payment_method' })
    } else if (method === 'sepa_debit') {
      const iban = text(record(record(params.payment_method_data).sepa_debit).iban)?.replaceAll(' ', '')
      if (!iban) throw invalidRequest('An IBAN is required.', { code: 'parameter_missing', param: 'payment_method_data[sepa_debit][iban]' })
      Object.assign(intent, { status: 'processing', last_payment_error: null, payment_method: newId('pm') })
      emit('payment_intent.processing', intent)
      // Stripe's test IBAN ending 3001 fails after processing; the others succeed.
      later(() => {
        if (intent.status !== 'processing') return
        if (iban.endsWith('3001'))
          fail(intent, {
            code: 'payment_intent_payment_attempt_failed',
            decline_code: 'insufficient_funds',
            message: 'The debit was returned.',
          })
        else succeed(intent)
      })
    } else {
      const returnUrl = text(params.return_url)
      if (!returnUrl) throw invalidRequest('A return_url is required for p24.', { code: 'parameter_missing', param: 'return_url' })
      Object.assign(intent, {
        status: 'requires_action',
        payment_method: newId('pm'),
        last_payment_error: null,
        next_action: {
          type: 'redirect_to_url',
          redirect_to_url: { url: `${store.url}/p24/authorize/${intent.id as string}`, return_url: returnUrl },
        },
      })
      emit('payment_intent.requires_action', intent)
    }
    return intent
  }

  /** The buyer's bank answers the P24 redirect. */
  function completeRedirect(intentId: string, outcome: 'succeeded' | 'failed'): void {
    const intent = intents.get(intentId)
    if (!intent || intent.status !== 'requires_action') throw new Error(`${intentId} waits for no redirect`)
    if (outcome === 'succeeded') succeed(intent)
    else
      fail(intent, {
        code: 'payment_intent_authentication_failure',
        decline_code: 'p24_declined',
        message: 'The bank did not authorise the payment.',
      })
  }

  function cancelIntent(intent: Json, params: FormObject): Json {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status as string)) {
      throw invalidRequest(`You cannot cancel this PaymentIntent because it has a status of ${intent.status as string}.`, {
        code: 'payment_intent_unexpected_state',
      })
    }
    Object.assign(intent, {
      status: 'canceled',
      next_action: null,
      canceled_at: seconds(),
      cancellation_reason: text(params.cancellation_reason) ?? null,
    })
    emit('payment_intent.canceled', intent)
    return intent
  }

  function createRefund(params: FormObject): Json {
    const intentId = text(params.payment_intent) ?? ''
    const intent = intents.get(intentId)
    if (!intent) throw missing('payment_intent', intentId, 'payment_intent')
    if (intent.status !== 'succeeded') {
      throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
        code: 'payment_intent_unexpected_state',
      })
    }
    const charge = charges.get(intent.latest_charge as string) as Json
    const left = (charge.amount as number) - (charge.amount_refunded as number)
    const amount = params.amount === undefined ? left : Number(params.amount)
    if (!Number.isSafeInteger(amount) || amount <= 0) throw invalidRequest('Invalid positive integer', { param: 'amount' })
    if (amount > left)
      throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, {
        code: 'amount_too_large',
        param: 'amount',
      })
    // Reserved at once, as Stripe does: two refunds cannot together exceed the charge.
    charge.amount_refunded = (charge.amount_refunded as number) + amount
    // A card refund succeeds when it is made; a refund to a bank (SEPA, P24) is pending until the bank takes it.
    const card = (intent.payment_method_types as string[])[0] === 'card'
    const refund: Json = {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: null as string | null,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intentId,
      payment_method: intent.payment_method,
      customer: null,
      customer_account: null,
      reason: text(params.reason) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: card ? 'succeeded' : 'pending',
      transfer_reversal: null,
      metadata: record(params.metadata),
      created: seconds(),
    }
    // The refund takes from the platform's balance when it is made, in the settlement currency (a `refund_failure` would give it back).
    refund.balance_transaction = store.balanceTransactionFor(refund.id as string, 'refund', -amount, charge.currency as string).id
    refunds.set(refund.id as string, refund)
    // Since API 2024-10-28 every refund is told with `refund.created`; `refund.updated` only follows a change.
    emit('refund.created', refund)
    emit('charge.refunded', { ...charge, refunded: charge.amount_refunded === charge.amount })
    if (!card) {
      later(() => {
        refund.status = 'succeeded'
        emit('refund.updated', refund)
      })
    }
    return refund
  }

  /** The refunds of a payment intent, newest first (`GET /v1/refunds?payment_intent=`). */
  function refundsOf(paymentIntent: string | undefined): Json[] {
    return [...refunds.values()].filter((refund) => !paymentIntent || refund.payment_intent === paymentIntent).reverse()
  }

  return { intentView, createIntent, confirmIntent, completeRedirect, cancelIntent, createRefund, refundsOf }
}
