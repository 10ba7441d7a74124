/**
 * Fields Stripe always sends on an object (the SDK's types mark them
 * required, ../stripe-schema.ts checks them) that nothing Pactum does ever
 * sets: Stripe sends them empty, and so does the fake. A field Pactum sets
 * or reads is written where the fake makes the object, not here.
 */
export const notUsedByPactum = {
  paymentIntent: {
    application: null,
    application_fee_amount: null,
    customer: null,
    customer_account: null,
    description: null,
    livemode: false,
    managed_payments: null,
    on_behalf_of: null,
    payment_record: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
  },
  charge: {
    application: null,
    application_fee: null,
    application_fee_amount: null,
    calculated_statement_descriptor: null,
    customer: null,
    description: null,
    on_behalf_of: null,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    transfer_data: null,
  },
  payout: {
    application_fee: null,
    application_fee_amount: null,
    description: null,
    original_payout: null,
    payout_method: null,
    reversed_by: null,
    statement_descriptor: null,
  },
  transferReversal: {
    destination_payment_refund: null,
    source_refund: null,
  },
}
