import { zodResolver } from '@hookform/resolvers/zod'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useQueryClient } from '@tanstack/react-query'
import { type SetStateAction, useCallback, useEffect, useEffectEvent, useRef, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useResultModal } from '../../components/result-modal.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { useChargeQuote, useOfferedPaymentMethods } from '../../lib/api/charge-quotes.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { usePaymentSetup } from '../../lib/payments/publishable-key.ts'
import { confirmSandboxPayment, type PaymentDetails } from '../../lib/payments/sandbox-payments.ts'
import {
  addressFields,
  type CheckoutFormValues,
  cardDigitsOf,
  checkoutFormSchema,
  compactIbanOf,
  shippingBodyOf,
  shippingCountries,
} from './checkout-model.ts'
import { type CheckoutPlan, checkoutStages, type Stage } from './checkout-plan.ts'
import { emptyAddress, lastShippingDetailsKey, type ShippingAddress, useShippingPrefill } from './checkout-prefill.ts'
import { unverifiedRoles } from './high-value.ts'
import type { StripeFormState, StripePaymentHandle } from './stripe-payment-form.tsx'
import { transactionKey } from './transactions-api.ts'

export interface PaymentIntentHandle {
  payment_intent_id: string
  client_secret: string
  charge: number
}

/** Provider refusals that leave the payment open for another card. */
const cardErrors = new Set(['card_declined', 'insufficient_funds', 'invalid_card', 'expired_card', 'invalid_iban'])

/**
 * One checkout's state and its moves from step to step: the address sent,
 * the method set, the intent asked for and the payment confirmed with the
 * provider's form (Stripe's, or the sandbox's), then told to the server.
 */
export function useCheckout(plan: CheckoutPlan, onClose: () => void) {
  const { t } = useTranslation()
  const api = useApiClient()
  const queryClient = useQueryClient()
  const result = useResultModal()
  const offered = useOfferedPaymentMethods(plan.currency)
  const stages = checkoutStages(plan)
  const [stage, setStage] = useState<Stage>(stages[0] ?? 'pay')
  const form = useForm<CheckoutFormValues>({
    resolver: zodResolver(checkoutFormSchema),
    defaultValues: { address: emptyAddress, method: plan.paymentMethod ?? 'card', cardNumber: '', iban: '' },
  })
  const setAddress = useCallback(
    (update: SetStateAction<ShippingAddress>) => {
      const current = form.getValues('address')
      form.setValue('address', typeof update === 'function' ? update(current) : update)
    },
    [form],
  )
  // Empty fields get the buyer's last address, or their profile's name and country.
  useShippingPrefill(plan.collectsAddress, shippingCountries, setAddress)
  // The provider's key decides which payment form is shown; asked as the checkout opens.
  const paymentSetup = usePaymentSetup(plan.id)
  const pickedMethod = useWatch({ control: form.control, name: 'method' })
  // A method this buyer may not use (a company seller chose SEPA) is never preselected: the server would refuse it.
  const method = offered.includes(pickedMethod) ? pickedMethod : (offered[0] ?? 'card')
  const [intent, setIntent] = useState<PaymentIntentHandle | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  // A high-value sale refused because this person has not verified their identity: the problem links to where they do.
  const [mustVerify, setMustVerify] = useState(false)
  const [busy, setBusy] = useState(false)
  const quote = useChargeQuote({ price: plan.price, currency: plan.currency, paymentMethod: method })
  const stripeForm = useRef<StripePaymentHandle>(null)
  // Per intent: a new one (another payment method) mounts a new Element, which loads afresh.
  const [stripeForms, setStripeForms] = useState<Record<string, StripeFormState>>({})
  const stripeState = (intent && stripeForms[intent.client_secret]) ?? 'loading'
  const intentSecret = intent?.client_secret
  const stripeStateChanged = useCallback(
    (state: StripeFormState) => {
      if (intentSecret) setStripeForms((forms) => ({ ...forms, [intentSecret]: state }))
    },
    [intentSecret],
  )
  const usesStripe = paymentSetup.data?.form === 'stripe'

  const path = (action: string) => `${plan.basePath}/${action}`
  const pay = () => api.request<PaymentIntentHandle>(path(plan.payAction), { method: 'POST', body: {} })
  const paid = (status: 'succeeded' | 'processing') => {
    void queryClient.invalidateQueries({ queryKey: transactionKey(plan.id) })
    void queryClient.invalidateQueries({ queryKey: ['transactions'] })
    onClose()
    result.showSuccess(
      t(status === 'processing' ? 'checkout.processing' : plan.stage === 'o-checkout' ? 'checkout.paid' : 'checkout.paidF2f'),
    )
  }

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setProblem(null)
    setMustVerify(false)
    try {
      await work()
    } catch (error) {
      const code = errorCodeOf(error)
      // It went through earlier (the server has just taken the provider's news): nothing is left to pay.
      if (code === 'already_paid' || code === 'remainder_already_paid') return paid('succeeded')
      // A refused card leaves the intent open for another card; anything else starts afresh.
      if (!cardErrors.has(code)) setIntent(null)
      setProblem(errorMessage(t, error))
      setMustVerify(plan.role !== null && unverifiedRoles(error).includes(plan.role))
    } finally {
      setBusy(false)
    }
  }

  const toMethod = async () => {
    if (!(await form.trigger([...addressFields]))) return
    await run(async () => {
      await api.request(path('shipping_details'), { method: 'POST', body: shippingBodyOf(form.getValues('address')) })
      void queryClient.invalidateQueries({ queryKey: lastShippingDetailsKey })
      setStage('method')
    })
  }

  const toPayment = () =>
    run(async () => {
      if (plan.setMethodAction && method !== plan.paymentMethod) {
        const updated = await api.request<AnyTransaction>(path(plan.setMethodAction), { method: 'POST', body: { payment_method: method } })
        queryClient.setQueryData(transactionKey(plan.id), updated)
      }
      setIntent(await pay())
      setStage('pay')
    })

  /** The provider has the payment: the server is told (the webhook brings the same news; whichever is first counts). */
  const finishPayment = async (current: PaymentIntentHandle, status: 'succeeded' | 'processing') => {
    const updated = await api.request<AnyTransaction>(path('confirm_payment'), {
      method: 'POST',
      body: { payment_intent_id: current.payment_intent_id },
    })
    if (updated && typeof updated === 'object' && 'id' in updated) queryClient.setQueryData(transactionKey(plan.id), updated)
    paid(status)
  }

  // The Payment Element mounts with the intent's client secret: on the Stripe path the intent is asked for as the payment step opens.
  // Asked once: after a failure the problem shows, and the Pay button asks again.
  const intentAsked = useRef(false)
  const askForIntent = useEffectEvent(() => {
    void run(async () => setIntent(await pay()))
  })
  useEffect(() => {
    if (stage !== 'pay' || !usesStripe || intent || intentAsked.current) return
    intentAsked.current = true
    askForIntent()
  }, [stage, usesStripe, intent])

  const submitStripePayment = () =>
    run(async () => {
      const current = intent ?? (await pay())
      setIntent(current)
      const outcome = await stripeForm.current?.confirm()
      // Not mounted yet (the intent has only just come): the buyer presses again once the form shows.
      if (!outcome) return
      if (outcome.status === 'failed') {
        setProblem(outcome.message ?? t(outcome.reason === 'not_ready' ? 'checkout.stripe.notReady' : 'checkout.stripe.failed'))
        return
      }
      await finishPayment(current, outcome.status)
    })

  const submitPayment = async () => {
    if (!paymentSetup.data) return
    form.setValue('method', method)
    if (usesStripe) return submitStripePayment()
    if (!(await form.trigger(method === 'card' ? 'cardNumber' : method === 'sepa' ? 'iban' : []))) return
    const { cardNumber, iban } = form.getValues()
    await run(async () => {
      const current = intent ?? (await pay())
      setIntent(current)
      const details: PaymentDetails =
        method === 'card'
          ? { card_number: cardDigitsOf(cardNumber) }
          : method === 'sepa'
            ? { iban: compactIbanOf(iban) }
            : { return_url: routeTo('status', { id: plan.id }) }
      const outcome = await confirmSandboxPayment(current.payment_intent_id, current.client_secret, details)
      // P24: the bank's page sends the buyer back to /transactions/:id, where the payment is confirmed.
      if (outcome.status === 'requires_action') return window.location.assign(outcome.redirectTo)
      await finishPayment(current, outcome.status === 'processing' ? 'processing' : 'succeeded')
    })
  }

  /** Next on each step; nothing while a step is being sent. */
  const next = () => {
    if (busy) return
    if (stage === 'address') void toMethod()
    else if (stage === 'method') void toPayment()
    else void submitPayment()
  }
  const back = () => (stage === 'address' ? onClose() : setStage(stage === 'pay' ? 'method' : 'address'))

  return {
    form,
    stages,
    stage,
    next,
    back,
    offered,
    method,
    quote,
    paymentSetup,
    intent,
    problem,
    clearProblem: () => setProblem(null),
    mustVerify,
    busy,
    stripeForm,
    stripeState,
    stripeStateChanged,
  }
}

export type Checkout = ReturnType<typeof useCheckout>
