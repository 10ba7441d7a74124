import { describe, expect, it } from 'vitest'
import { paymentSteps, paymentSucceeded, providerHarnesses, useHarness } from '../../testing/payment-provider-harness.ts'
import { PaymentProviderError } from './provider-error.ts'

/** The payments port (payments-port.ts), the same on the sandbox and on Stripe: intents, refunds, transfers. */
describe.each(providerHarnesses)('payments contract: %s', (_name, start) => {
  const h = useHarness(start)
  const { intent, paid } = paymentSteps(h)
  const eventTypes = () => h().events.map((event) => event.type)

  it('opens an intent for the method, amount and transaction, waiting for the buyer', async () => {
    const created = await intent('p24')
    expect(created).toMatchObject({
      status: 'requires_payment_method',
      amount: 10_340,
      currency: 'eur',
      paymentMethod: 'p24',
      transactionId: 'tx-1',
      amountRefunded: 0,
      lastPaymentError: null,
      nextAction: null,
    })
    expect(created.metadata).toMatchObject({ transaction_id: 'tx-1', part: 'payment' })
    expect(created.clientSecret).toMatch(new RegExp(`^${created.id}_secret_`))
    expect(await h().payments.retrievePaymentIntent(created.id)).toEqual(created)
  })

  it('takes an accepted card and says so by webhook, once', async () => {
    const created = await intent()
    await h().payByCard(created, 'accepted')
    await h().settle()
    expect((await h().payments.retrievePaymentIntent(created.id)).status).toBe('succeeded')
    expect(h().events).toEqual([paymentSucceeded(created.id)])
  })

  it('declines a card with the reason, and the intent can be paid with another', async () => {
    const created = await intent()
    await h().payByCard(created, 'insufficient_funds')
    await h().settle()
    expect(await h().payments.retrievePaymentIntent(created.id)).toMatchObject({
      status: 'requires_payment_method',
      lastPaymentError: { reason: 'insufficient_funds' },
    })
    expect(h().events).toEqual([
      expect.objectContaining({ type: 'payment_failed', paymentIntentId: created.id, reason: 'insufficient_funds' }),
    ])
    await h().payByCard(created, 'accepted')
    await h().settle()
    expect(eventTypes()).toEqual(['payment_failed', 'payment_succeeded'])
  })

  it('keeps a SEPA debit processing, then settles it or fails it later', async () => {
    const accepted = await intent('sepa')
    await h().debitSepa(accepted, 'accepted')
    expect((await h().payments.retrievePaymentIntent(accepted.id)).status).toBe('processing')
    await h().settle()
    expect((await h().payments.retrievePaymentIntent(accepted.id)).status).toBe('succeeded')
    expect(eventTypes()).toEqual(['payment_processing', 'payment_succeeded'])
    const returned = await intent('sepa')
    await h().debitSepa(returned, 'returned')
    await h().settle()
    expect((await h().payments.retrievePaymentIntent(returned.id)).status).toBe('requires_payment_method')
    expect(eventTypes()).toEqual(['payment_processing', 'payment_succeeded', 'payment_processing', 'payment_failed'])
  })

  it('refuses SEPA in another currency than euros', async () => {
    await expect(
      h().payments.createPaymentIntent({ amount: 500, currency: 'pln', paymentMethod: 'sepa', transactionId: 't', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ code: 'unsupported_combination' })
  })

  describe('idempotency keys', () => {
    it('gives the first answer again for the same key and request', async () => {
      const input = { amount: 5000, currency: 'eur', paymentMethod: 'card' as const, transactionId: 'tx-2', idempotencyKey: 'tx-2:pay' }
      const first = await h().payments.createPaymentIntent(input)
      const second = await h().payments.createPaymentIntent({ ...input })
      expect(second.id).toBe(first.id)
      const third = await h().payments.createPaymentIntent({ ...input, idempotencyKey: 'tx-2:pay:again' })
      expect(third.id).not.toBe(first.id)
    })

    it('refuses the same key with a different request', async () => {
      const input = { amount: 5000, currency: 'eur', paymentMethod: 'card' as const, transactionId: 'tx-3', idempotencyKey: 'tx-3:pay' }
      await h().payments.createPaymentIntent(input)
      const reused = h().payments.createPaymentIntent({ ...input, amount: 5001 })
      await expect(reused).rejects.toBeInstanceOf(PaymentProviderError)
      await expect(h().payments.createPaymentIntent({ ...input, amount: 5001 })).rejects.toMatchObject({ code: 'idempotency_key_reused' })
    })
  })

  it('cancels an open intent (again: the same answer), but not a paid one', async () => {
    const open = await intent()
    expect(await h().payments.cancelPaymentIntent({ paymentIntentId: open.id, idempotencyKey: 'c1' })).toMatchObject({
      id: open.id,
      status: 'canceled',
    })
    expect(await h().payments.cancelPaymentIntent({ paymentIntentId: open.id, idempotencyKey: 'c2' })).toMatchObject({ status: 'canceled' })
    const done = await paid()
    await expect(h().payments.cancelPaymentIntent({ paymentIntentId: done.id, idempotencyKey: 'c3' })).rejects.toMatchObject({
      code: 'invalid_state',
    })
    await expect(h().payments.retrievePaymentIntent('pi_missing')).rejects.toMatchObject({ code: 'not_found' })
  })

  describe('refunds', () => {
    it('settles a card refund in its answer, and tells it by webhook', async () => {
      const payment = await paid()
      const refund = await h().payments.refund({ paymentIntentId: payment.id, amount: 4000, idempotencyKey: 'tx-1:refund' })
      // Both providers: a card refund is `succeeded` when it is made (decisions 104 and 106).
      expect(refund).toMatchObject({ status: 'succeeded', amount: 4000, currency: 'eur', paymentIntentId: payment.id })
      const replay = await h().payments.refund({ paymentIntentId: payment.id, amount: 4000, idempotencyKey: 'tx-1:refund' })
      expect(replay.id).toBe(refund.id)
      expect((await h().payments.retrievePaymentIntent(payment.id)).amountRefunded).toBe(4000)
      await h().settle()
      expect(h().events.filter((event) => event.type !== 'payment_succeeded')).toEqual([
        expect.objectContaining({
          type: 'refund_succeeded',
          refundId: refund.id,
          paymentIntentId: payment.id,
          amount: 4000,
          transactionId: 'tx-1',
        }),
      ])
    })

    it('keeps a refund to a bank (SEPA) pending in its answer, and tells when the bank took it', async () => {
      const payment = await intent('sepa')
      await h().debitSepa(payment, 'accepted')
      await h().settle()
      const refund = await h().payments.refund({ paymentIntentId: payment.id, amount: 10_340, idempotencyKey: 'tx-1:refund' })
      expect(refund).toMatchObject({ status: 'pending', amount: 10_340, paymentIntentId: payment.id })
      expect(h().events.filter((event) => event.type.startsWith('refund_'))).toEqual([])
      await h().settle()
      expect(h().events.filter((event) => event.type.startsWith('refund_'))).toEqual([
        expect.objectContaining({ type: 'refund_succeeded', refundId: refund.id, paymentIntentId: payment.id, amount: 10_340 }),
      ])
    })

    it('refuses to refund more than was paid, or a payment that has not succeeded', async () => {
      const payment = await paid(1000)
      await h().payments.refund({ paymentIntentId: payment.id, amount: 600, idempotencyKey: 'r1' })
      await expect(h().payments.refund({ paymentIntentId: payment.id, amount: 401, idempotencyKey: 'r2' })).rejects.toMatchObject({
        code: 'amount_too_large',
      })
      const unpaid = await intent()
      await expect(h().payments.refund({ paymentIntentId: unpaid.id, amount: 1, idempotencyKey: 'r3' })).rejects.toMatchObject({
        code: 'invalid_state',
      })
    })
  })

  describe('transfers', () => {
    it('credits the seller’s balance with what the sale brought, once per key, and announces it', async () => {
      await paid(10_340, 'tx-1')
      await paid(1000, 'tx-5')
      const account = await h().accounts.createConnectedAccount({
        userId: 'u1',
        email: 's@example.com',
        country: 'DE',
        idempotencyKey: 'acct:u1',
      })
      expect((await h().accounts.getBalance(account.id)).available).toEqual([])
      const transfer = await h().payments.transfer({
        amount: 9660,
        currency: 'eur',
        destinationAccount: account.id,
        transactionId: 'tx-1',
        idempotencyKey: 'tx-1:release',
      })
      const again = await h().payments.transfer({
        amount: 9660,
        currency: 'eur',
        destinationAccount: account.id,
        transactionId: 'tx-1',
        idempotencyKey: 'tx-1:release',
      })
      expect(again.id).toBe(transfer.id)
      await h().payments.transfer({
        amount: 340,
        currency: 'eur',
        destinationAccount: account.id,
        transactionId: 'tx-5',
        idempotencyKey: 'tx-5:release',
      })
      expect(await h().accounts.getBalance(account.id)).toEqual({ available: [{ amount: 10_000, currency: 'eur' }], pending: [] })
      const listed = await h().accounts.listTransfers(account.id)
      // Newest first; both were made in the same second here, so only the set is compared.
      expect(listed.map((record) => [record.transactionId, record.amount]).sort()).toEqual([
        ['tx-1', 9660],
        ['tx-5', 340],
      ])
      await h().settle()
      expect(h().events.filter((event) => event.type === 'transfer_paid')).toHaveLength(2)
      expect(h().events).toContainEqual(
        expect.objectContaining({ type: 'transfer_paid', transferId: transfer.id, transactionId: 'tx-1', amount: 9660 }),
      )
    })

    it('refuses a transfer to an unknown account', async () => {
      await paid(1000, 't')
      await expect(
        h().payments.transfer({ amount: 1, currency: 'eur', destinationAccount: 'acct_nope', transactionId: 't', idempotencyKey: 'x' }),
      ).rejects.toMatchObject({ code: 'not_found' })
    })
  })

  describe('card disputes', () => {
    const disputeNews = () => h().events.filter((event) => event.type === 'dispute_changed')

    it('tells a dispute with its payment, amount, deadline and fee; evidence puts it under review', async () => {
      const created = await paid()
      const disputeId = await h().openDispute(created.id)
      await h().settle()
      expect(disputeNews()).toContainEqual(
        expect.objectContaining({
          paymentIntentId: created.id,
          amount: 10_000,
          currency: 'eur',
          // The dispute's own metadata is empty: Pactum finds the transaction by the payment.
          transactionId: null,
          dispute: expect.objectContaining({
            id: disputeId,
            status: 'needs_response',
            reason: 'fraudulent',
            fee: { amount: 1_500, currency: 'eur' },
          }),
        }),
      )
      const submitted = await h().payments.submitDisputeEvidence({
        disputeId,
        evidence: {
          productDescription: 'Red bicycle',
          uncategorizedText: 'Shipped and delivered; the buyer confirmed receipt.',
          shippingCarrier: 'dhl',
          shippingTrackingNumber: 'JD0001',
          caseFile: { fileName: 'case.pdf', content: Buffer.from('%PDF-1.4 case file') },
        },
      })
      expect(submitted).toMatchObject({ id: disputeId, status: 'under_review', paymentIntentId: created.id })
      await expect(
        h().payments.submitDisputeEvidence({
          disputeId,
          evidence: {
            productDescription: 'again',
            uncategorizedText: '',
            shippingCarrier: null,
            shippingTrackingNumber: null,
            caseFile: null,
          },
        }),
      ).rejects.toBeInstanceOf(PaymentProviderError)
      await h().decideDispute(disputeId, 'won')
      await h().settle()
      // Webhooks may arrive in any order: the news of the close is among them.
      expect(disputeNews().map((event) => event.dispute)).toContainEqual(
        expect.objectContaining({ status: 'won', fee: { amount: 0, currency: 'eur' } }),
      )
      expect(await h().payments.retrieveDispute(disputeId)).toMatchObject({ status: 'won', amount: 10_000 })
    })

    it('is lost at once when accepted', async () => {
      const created = await paid()
      const disputeId = await h().openDispute(created.id, 4_000)
      const accepted = await h().payments.acceptDispute(disputeId)
      expect(accepted).toMatchObject({ status: 'lost', amount: 4_000 })
      await h().settle()
      expect(disputeNews().map((event) => event.dispute?.status)).toContain('lost')
      await expect(h().payments.acceptDispute(disputeId)).rejects.toBeInstanceOf(PaymentProviderError)
    })

    it("reverses part of a release from the seller's balance, once per key", async () => {
      await paid(10_340, 'tx-1')
      const account = await h().accounts.createConnectedAccount({
        userId: 'u1',
        email: 's@example.com',
        country: 'DE',
        idempotencyKey: 'acct:u1',
      })
      await h().payments.transfer({
        amount: 9660,
        currency: 'eur',
        destinationAccount: account.id,
        transactionId: 'tx-1',
        idempotencyKey: 'tx-1:transfer',
      })
      const input = { transactionId: 'tx-1', amount: 4_000, currency: 'eur', idempotencyKey: 'tx-1:reverse-transfer:du_1:0' }
      const reversed = await h().payments.reverseTransfer(input)
      expect(reversed.amount).toBe(4_000)
      expect((await h().payments.reverseTransfer(input)).id).toBe(reversed.id)
      expect((await h().accounts.getBalance(account.id)).available).toEqual([{ amount: 5_660, currency: 'eur' }])
      // No more than is left of the transfer.
      const rest = await h().payments.reverseTransfer({ ...input, amount: 9_000, idempotencyKey: 'tx-1:reverse-transfer:du_1:4000' })
      expect(rest.amount).toBe(5_660)
    })
  })
})
