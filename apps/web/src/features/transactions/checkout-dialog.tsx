import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import type { AnyTransaction, F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { PaymentMethod, Role, Transaction } from '@pactum/contracts/transactions'
import { toLanguageTag } from '@pactum/domain/locales'
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, lazy, type SetStateAction, Suspense, useCallback, useEffect, useEffectEvent, useId, useRef, useState } from 'react'
import { Controller, type FieldError, type FieldPath, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { useChargeQuote, useOfferedPaymentMethods } from '../../lib/api/charge-quotes.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { usePaymentSetup } from '../../lib/payments/publishable-key.ts'
import { confirmSandboxPayment, type PaymentDetails } from '../../lib/payments/sandbox-payments.ts'
import {
  addressFields,
  type CheckoutFieldError,
  type CheckoutFormValues,
  cardDigitsOf,
  checkoutFormSchema,
  compactIbanOf,
  shippingBodyOf,
} from './checkout-model.ts'
import { emptyAddress, lastShippingDetailsKey, type ShippingAddress, useShippingPrefill } from './checkout-prefill.ts'
import { unverifiedRoles } from './high-value.ts'
import { VerifyIdentityLink } from './high-value-notice.tsx'
import { PaymentFormStatus } from './payment-form-status.tsx'
import type { StripeFormState, StripePaymentHandle } from './stripe-payment-form.tsx'
import { transactionKey } from './transactions-api.ts'

// Stripe.js and its React bindings come only with a real publishable key: the sandbox's checkout never fetches them.
const StripePaymentForm = lazy(() => import('./stripe-payment-form.tsx').then((module) => ({ default: module.StripePaymentForm })))

interface PaymentIntentHandle {
  payment_intent_id: string
  client_secret: string
  charge: number
}

/** Countries offered for the shipping address (ISO 3166-1 alpha-2); names come from Intl. */
const shippingCountries = [
  'at', 'au', 'be', 'bg', 'ca', 'ch', 'cy', 'cz', 'de', 'dk', 'ee', 'es', 'fi', 'fr', 'gb', 'gr', 'hr', 'hu', 'ie',
  'is', 'it', 'li', 'lt', 'lu', 'lv', 'mt', 'my', 'nl', 'no', 'nz', 'pl', 'pt', 'ro', 'se', 'sg', 'si', 'sk', 'us',
]

/** Provider refusals that leave the payment open for another card. */
const cardErrors = new Set(['card_declined', 'insufficient_funds', 'invalid_card', 'expired_card', 'invalid_iban'])

type Stage = 'address' | 'method' | 'pay'

/**
 * What one checkout pays (spec §4 checkout stages): `o-checkout` the online
 * price, `f-deposit` a face-to-face deposit, `f-remainder` the rest of the
 * total, paid with the deposit's method.
 */
export interface CheckoutPlan {
  readonly stage: 'o-checkout' | 'f-deposit' | 'f-remainder'
  readonly id: string
  readonly currency: string
  readonly role: Role | null
  /** What is being paid, before the fee. */
  readonly price: number
  /** The fee as the server last priced it. */
  readonly charge: number
  readonly paymentMethod: PaymentMethod | null
  /** `/transactions/{id}` or `/p2p/transactions/{id}`. */
  readonly basePath: string
  readonly payAction: 'pay' | 'pay_deposit' | 'pay_remainder'
  /** null where the method is fixed (the remainder is paid like the deposit). */
  readonly setMethodAction: 'set_payment_method' | 'set_deposit_payment_method' | null
  /** An online sale ships: the buyer gives the address first. */
  readonly collectsAddress: boolean
}

export function onlineCheckout(transaction: Transaction): CheckoutPlan {
  return {
    stage: 'o-checkout',
    id: transaction.id,
    currency: transaction.currency,
    role: transaction.role,
    price: transaction.price,
    charge: transaction.charge,
    paymentMethod: transaction.payment_method,
    basePath: `/transactions/${encodeURIComponent(transaction.id)}`,
    payAction: 'pay',
    setMethodAction: 'set_payment_method',
    collectsAddress: true,
  }
}

export function depositCheckout(transaction: F2fTransaction): CheckoutPlan {
  return {
    stage: 'f-deposit',
    id: transaction.id,
    currency: transaction.currency,
    role: transaction.role,
    price: transaction.deposit_pricing.price,
    charge: transaction.deposit_pricing.charge,
    paymentMethod: transaction.payment_method,
    basePath: `/p2p/transactions/${encodeURIComponent(transaction.id)}`,
    payAction: 'pay_deposit',
    setMethodAction: 'set_deposit_payment_method',
    collectsAddress: false,
  }
}

export function remainderCheckout(transaction: F2fTransaction): CheckoutPlan {
  const total = transaction.pricing?.price ?? transaction.deposit_pricing.price
  return {
    stage: 'f-remainder',
    id: transaction.id,
    currency: transaction.currency,
    role: transaction.role,
    price: total - transaction.deposit_pricing.price,
    charge: transaction.pricing?.charge ?? 0,
    paymentMethod: transaction.payment_method,
    basePath: `/p2p/transactions/${encodeURIComponent(transaction.id)}`,
    payAction: 'pay_remainder',
    setMethodAction: null,
    collectsAddress: false,
  }
}

/**
 * One checkout: the shipping address where the goods are shipped (sent to
 * the server, where the seller reads it), the payment method where it may
 * still change, then the provider's form.
 */
export function CheckoutDialog({ plan, onClose }: { plan: CheckoutPlan; onClose: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const api = useApiClient()
  const queryClient = useQueryClient()
  const result = useResultModal()
  const fullScreen = useMediaQuery('(max-width:599px)')
  const ids = { title: useId(), method: useId() }
  const offered = useOfferedPaymentMethods()

  const stages: Stage[] = [...(plan.collectsAddress ? ['address' as const] : []), ...(plan.setMethodAction ? ['method' as const] : []), 'pay']
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

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setProblem(null)
    setMustVerify(false)
    try {
      await work()
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'already_paid' || code === 'remainder_already_paid') {
        // It went through earlier (the server has just taken the provider's news): nothing is left to pay.
        void queryClient.invalidateQueries({ queryKey: transactionKey(plan.id) })
        void queryClient.invalidateQueries({ queryKey: ['transactions'] })
        onClose()
        result.showSuccess(t(plan.stage === 'o-checkout' ? 'checkout.paid' : 'checkout.paidF2f'))
        return
      }
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
        const updated = await api.request<AnyTransaction>(path(plan.setMethodAction), {
          method: 'POST',
          body: { payment_method: method },
        })
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
    if (updated && typeof updated === 'object' && 'id' in updated)
      queryClient.setQueryData(transactionKey(plan.id), updated)
    void queryClient.invalidateQueries({ queryKey: transactionKey(plan.id) })
    void queryClient.invalidateQueries({ queryKey: ['transactions'] })
    onClose()
    result.showSuccess(t(status === 'processing' ? 'checkout.processing' : plan.stage === 'o-checkout' ? 'checkout.paid' : 'checkout.paidF2f'))
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
    if (usesStripe) {
      await submitStripePayment()
      return
    }
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
      if (outcome.status === 'requires_action') {
        // P24: the bank's page sends the buyer back to /transactions/:id, where the payment is confirmed.
        window.location.assign(outcome.redirectTo)
        return
      }
      await finishPayment(current, outcome.status === 'processing' ? 'processing' : 'succeeded')
    })
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    if (stage === 'address') void toMethod()
    else if (stage === 'method') void toPayment()
    else void submitPayment()
  }

  /** A field refused once is checked again as it changes, so its message goes as soon as it is right. */
  const changed = (input: { name: FieldPath<CheckoutFormValues>; onChange: (value: string) => void }, fieldState: { error?: FieldError | undefined }, value: string) => {
    input.onChange(value)
    if (fieldState.error) void form.trigger(input.name)
  }
  const errorText = (error: FieldError | undefined) => {
    switch (error?.message as CheckoutFieldError | undefined) {
      case undefined:
        return undefined
      case 'required':
        return t('checkout.required')
      case 'cardNumberInvalid':
        return t('checkout.cardNumberInvalid')
      case 'ibanInvalid':
        return t('checkout.ibanInvalid')
      default:
        return t('checkout.invalid')
    }
  }
  const field = (key: keyof ShippingAddress, autoComplete: string, required = true) => (
    <Controller
      control={form.control}
      name={`address.${key}`}
      render={({ field: input, fieldState }) => (
        <TextField
          label={t(`checkout.address.${key}`)}
          value={input.value}
          onChange={(event) => changed(input, fieldState, event.target.value)}
          onBlur={input.onBlur}
          inputRef={input.ref}
          required={required}
          autoComplete={autoComplete}
          error={fieldState.error !== undefined}
          helperText={errorText(fieldState.error)}
          fullWidth
        />
      )}
    />
  )
  const regionNames = new Intl.DisplayNames(toLanguageTag(locale), { type: 'region' })
  const countries = shippingCountries
    .map((code) => ({ code, name: regionNames.of(code.toUpperCase()) ?? code.toUpperCase() }))
    .sort((a, b) => a.name.localeCompare(b.name, toLanguageTag(locale)))
  const total = intent ? plan.price + intent.charge : undefined

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={ids.title}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      data-testid="checkout-dialog"
    >
      <DialogTitle id={ids.title}>
        {t(`checkout.titles.${plan.stage}`)}
        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
          {t('checkout.stepOf', { current: stages.indexOf(stage) + 1, total: stages.length })}
          {' · '}
          {t(`checkout.stages.${stage}`)}
        </Typography>
      </DialogTitle>
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {stage === 'address' && (
              <>
                <Typography color="text.secondary">{t('checkout.address.intro')}</Typography>
                {field('name', 'shipping name')}
                {field('line1', 'shipping address-line1')}
                {field('line2', 'shipping address-line2', false)}
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  {field('postalCode', 'shipping postal-code')}
                  {field('city', 'shipping address-level2')}
                </Stack>
                <Controller
                  control={form.control}
                  name="address.country"
                  render={({ field: input, fieldState }) => (
                    <TextField
                      select
                      label={t('checkout.address.country')}
                      value={input.value}
                      onChange={(event) => changed(input, fieldState, event.target.value)}
                      onBlur={input.onBlur}
                      inputRef={input.ref}
                      required
                      error={fieldState.error !== undefined}
                      helperText={errorText(fieldState.error)}
                      slotProps={{ select: { native: true }, htmlInput: { autoComplete: 'shipping country' } }}
                    >
                      <option value="" />
                      {countries.map((country) => (
                        <option key={country.code} value={country.code}>
                          {country.name}
                        </option>
                      ))}
                    </TextField>
                  )}
                />
              </>
            )}

            {stage === 'method' && (
              <>
                <FormControl>
                  <FormLabel id={ids.method}>{t('checkout.methodLabel')}</FormLabel>
                  <RadioGroup aria-labelledby={ids.method} value={method} onChange={(event) => form.setValue('method', event.target.value as PaymentMethod)}>
                    {offered.map((option) => (
                      <FormControlLabel
                        key={option}
                        value={option}
                        control={<Radio slotProps={{ input: { 'data-testid': `checkout-method-${option}` } as object }} />}
                        label={t(`paymentMethods.${option}`)}
                      />
                    ))}
                  </RadioGroup>
                </FormControl>
                <AmountSummary
                  price={plan.price}
                  currency={plan.currency}
                  charge={quote.data?.payment_method === method ? quote.data.charge : undefined}
                  loading={quote.isFetching}
                />
              </>
            )}

            {stage === 'pay' && (
              <>
                <AmountSummary price={plan.price} currency={plan.currency} charge={intent?.charge ?? (plan.setMethodAction ? undefined : plan.charge)} />
                {!paymentSetup.data && <PaymentFormStatus setup={paymentSetup} />}
              </>
            )}

            {stage === 'pay' && paymentSetup.data?.form === 'stripe' && intent && (
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
                  handleRef={stripeForm}
                  onStateChange={stripeStateChanged}
                />
              </Suspense>
            )}

            {stage === 'pay' && paymentSetup.data?.form === 'sandbox' && (
              <>
                <Alert severity="info" icon={false}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {t('checkout.sandbox.title')}
                  </Typography>
                  {method === 'card' && (
                    <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="test-cards">
                      <li>{t('checkout.sandbox.cardSucceeds', { number: '4242 4242 4242 4242' })}</li>
                      <li>{t('checkout.sandbox.cardDeclined', { number: '4000 0000 0000 0002' })}</li>
                      <li>{t('checkout.sandbox.cardInsufficient', { number: '4000 0000 0000 9995' })}</li>
                    </Box>
                  )}
                  {method === 'sepa' && (
                    <Typography variant="body2">{t('checkout.sandbox.iban', { iban: 'DE89 3704 0044 0532 0130 00' })}</Typography>
                  )}
                  {method === 'p24' && <Typography variant="body2">{t('checkout.sandbox.p24')}</Typography>}
                </Alert>
                {method === 'card' && (
                  <Controller
                    control={form.control}
                    name="cardNumber"
                    render={({ field: input, fieldState }) => (
                      <TextField
                        label={t('checkout.cardNumber')}
                        value={input.value}
                        onChange={(event) => {
                          changed(input, fieldState, event.target.value.replace(/[^\d ]/g, '').slice(0, 23))
                          setProblem(null)
                        }}
                        onBlur={input.onBlur}
                        inputRef={input.ref}
                        required
                        autoComplete="cc-number"
                        error={fieldState.error !== undefined}
                        helperText={errorText(fieldState.error)}
                        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'card-number-input' } }}
                      />
                    )}
                  />
                )}
                {method === 'sepa' && (
                  <>
                    <Controller
                      control={form.control}
                      name="iban"
                      render={({ field: input, fieldState }) => (
                        <TextField
                          label={t('checkout.iban')}
                          value={input.value}
                          onChange={(event) => changed(input, fieldState, event.target.value.toUpperCase())}
                          onBlur={input.onBlur}
                          inputRef={input.ref}
                          required
                          error={fieldState.error !== undefined}
                          helperText={errorText(fieldState.error)}
                          slotProps={{ htmlInput: { 'data-testid': 'iban-input', autoCapitalize: 'characters', spellCheck: false } }}
                        />
                      )}
                    />
                    <Typography variant="body2" color="text.secondary">
                      {t('checkout.sepaMandate')}
                    </Typography>
                  </>
                )}
              </>
            )}

            {problem && (
              <Alert severity="error" data-testid="payment-error" role="alert">
                {problem}
                {mustVerify && (
                  <Box sx={{ mt: 1.5 }}>
                    <VerifyIdentityLink testId="payment-error-verify-link" />
                  </Box>
                )}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button
            onClick={() => (stage === 'address' ? onClose() : setStage(stage === 'pay' ? 'method' : 'address'))}
            disabled={busy}
          >
            {stage === 'address' ? t('common.cancel') : t('common.back')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || (stage === 'method' && quote.isFetching) || (stage === 'pay' && !paymentSetup.data)}
            loading={busy}
            loadingPosition="start"
            data-testid={stage === 'pay' ? 'pay-submit' : 'checkout-next'}
          >
            {stage === 'pay'
              ? method === 'p24'
                ? t('checkout.continueToP24')
                : total === undefined
                  ? t('checkout.payNow')
                  : t('checkout.payAmount', { amount: formatMoney(total, plan.currency, locale) })
              : t('common.next')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}
