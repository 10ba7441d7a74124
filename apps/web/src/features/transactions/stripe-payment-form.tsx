import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { loadStripe, type Stripe, type StripeElementLocale } from '@stripe/stripe-js'
import type { Locale } from '@pactum/domain/locales'
import { type Ref, useEffect, useImperativeHandle, useState } from 'react'

/**
 * The Stripe checkout form: Stripe.js's Payment Element, mounted with the
 * PaymentIntent's client secret, confirmed with `stripe.confirmPayment`.
 * Only the checkout's Stripe path imports this file (lazily), so Stripe.js
 * is fetched only when a real publishable key is configured. It imports
 * nothing of the app's UI kit: what it shows around the Element (loading,
 * failure) is the dialog's, so this chunk shares no modules with the first
 * load and does not make the bundler split the entry.
 */

/**
 * What a confirmation came to. A payment that needs the bank's page (P24, a
 * 3-D Secure redirect) never comes back here: Stripe.js leaves for it, and
 * the buyer returns to `returnUrl`. A failure carries Stripe's own message
 * (in the buyer's language) where it is about what they entered, and none
 * otherwise (the dialog says it in its own words).
 */
export type StripeConfirmOutcome =
  { status: 'succeeded' | 'processing' } | { status: 'failed'; reason: 'not_ready' | 'declined' | 'other'; message?: string }

export type StripeFormState = 'loading' | 'ready' | 'failed'

export interface StripePaymentHandle {
  confirm(): Promise<StripeConfirmOutcome>
}

// One Stripe.js instance per key for the page's life, as Stripe asks (loadStripe outside render).
const stripeByKey = new Map<string, Promise<Stripe | null>>()
/** Resolves null when js.stripe.com could not be reached; the next checkout tries again. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey)
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => {
      stripeByKey.delete(publishableKey)
      return null
    })
    stripeByKey.set(publishableKey, stripe)
  }
  return stripe
}

/** Stripe's names for our languages (its Elements take `en-GB` and bare language codes). */
const stripeLocales: Record<Locale, StripeElementLocale> = {
  en_gb: 'en-GB',
  fi_fi: 'fi',
  hr_hr: 'hr',
  it_it: 'it',
  ms_my: 'ms',
  pl_pl: 'pl',
  sv_se: 'sv',
}

interface StripePaymentFormProps {
  publishableKey: string
  clientSecret: string
  /** Absolute: where Stripe sends the buyer back after a redirect (the transaction's page). */
  returnUrl: string
  locale: Locale
  handleRef: Ref<StripePaymentHandle>
  /** The Element loading, ready, or failed to load: the dialog shows it. */
  onStateChange: (state: StripeFormState) => void
}

export function StripePaymentForm({ publishableKey, clientSecret, returnUrl, locale, handleRef, onStateChange }: StripePaymentFormProps) {
  const stripe = stripeFor(publishableKey)
  useEffect(() => {
    let current = true
    void stripe.then((loaded) => {
      if (current && !loaded) onStateChange('failed')
    })
    return () => {
      current = false
    }
  }, [stripe, onStateChange])
  return (
    <Elements
      // A new intent (another payment method) is a new Elements group: its client secret cannot change in place.
      key={clientSecret}
      stripe={stripe}
      options={{ clientSecret, locale: stripeLocales[locale], appearance: { variables: { colorPrimary: '#2949ce' } } }}
    >
      <PaymentElementForm returnUrl={returnUrl} handleRef={handleRef} onStateChange={onStateChange} />
    </Elements>
  )
}

function PaymentElementForm({
  returnUrl,
  handleRef,
  onStateChange,
}: Pick<StripePaymentFormProps, 'returnUrl' | 'handleRef' | 'onStateChange'>) {
  const stripe = useStripe()
  const elements = useElements()
  const [ready, setReady] = useState(false)

  useImperativeHandle(
    handleRef,
    () => ({
      confirm: async () => {
        if (!stripe || !elements || !ready) return { status: 'failed', reason: 'not_ready' }
        const { error, paymentIntent } = await stripe.confirmPayment({
          elements,
          confirmParams: { return_url: returnUrl },
          redirect: 'if_required',
        })
        if (error) {
          return (error.type === 'card_error' || error.type === 'validation_error') && error.message
            ? { status: 'failed', reason: 'declined', message: error.message }
            : { status: 'failed', reason: 'other' }
        }
        switch (paymentIntent.status) {
          case 'succeeded':
            return { status: 'succeeded' }
          case 'processing':
            return { status: 'processing' }
          default:
            return { status: 'failed', reason: 'other' }
        }
      },
    }),
    [stripe, elements, ready, returnUrl],
  )

  return (
    <div data-testid="stripe-payment-form">
      <PaymentElement
        onReady={() => {
          setReady(true)
          onStateChange('ready')
        }}
        onLoadError={() => onStateChange('failed')}
      />
    </div>
  )
}
