import Alert from '@mui/material/Alert'
import { lazy, Suspense } from 'react'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { type CheckoutPlan, checkoutPart } from './checkout-plan.ts'
import { CheckoutSandboxForm } from './checkout-sandbox-form.tsx'
import { PaymentFormStatus } from './payment-form-status.tsx'
import type { Checkout } from './use-checkout.ts'

// Stripe.js and its React bindings come only with a real publishable key: the sandbox's checkout never fetches them.
const StripePaymentForm = lazy(() => import('./stripe-payment-form.tsx').then((module) => ({ default: module.StripePaymentForm })))

/** The checkout's last step: what is paid with its fee, and the provider's payment form (Stripe's, or the sandbox's). */
export function CheckoutPaymentStep({ plan, checkout }: { plan: CheckoutPlan; checkout: Checkout }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const { paymentSetup, intent, stripeState } = checkout
  return (
    <>
      <AmountSummary
        part={checkoutPart(plan)}
        price={plan.price}
        currency={plan.currency}
        charge={intent?.charge ?? (plan.setMethodAction ? undefined : plan.charge)}
      />
      {!paymentSetup.data && <PaymentFormStatus setup={paymentSetup} />}

      {paymentSetup.data?.form === 'stripe' && intent && (
        <Suspense fallback={<PaymentFormStatus setup={paymentSetup} />}>
          {stripeState === 'loading' && <PaymentFormStatus setup={paymentSetup} />}
          {stripeState === 'failed' && (
            <Alert severity="error" data-testid="stripe-form-error">
              {t('checkout.paymentFormFailed')}
            </Alert>
          )}
          <StripePaymentForm
            publishableKey={paymentSetup.data.publishableKey}
            clientSecret={intent.client_secret}
            returnUrl={new URL(routeTo('status', { id: plan.id }), window.location.origin).href}
            locale={locale}
            handleRef={checkout.stripeForm}
            onStateChange={checkout.stripeStateChanged}
          />
        </Suspense>
      )}

      {paymentSetup.data?.form === 'sandbox' && <CheckoutSandboxForm checkout={checkout} />}
    </>
  )
}
