import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { Transaction } from '@pactum/contracts/transactions'
import { minimumPrice } from '@pactum/domain/fees'
import { useEffect, useId, useRef, useState } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { CurrencySelect } from '../../components/currency-select.tsx'
import { MoneyInput } from '../../components/money-input.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useChargeQuote, useOfferedPaymentMethods } from '../../lib/api/charge-quotes.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { currencyDecimals, formatMoney, formatMoneyInput, majorTextToMinor, parseMoneyInput } from '../../lib/money.ts'
import { useDebouncedValue } from '../../lib/use-debounced-value.ts'
import { stepKeysByMode } from './create-mode.ts'
import { CreateSteps } from './create-steps.tsx'
import { useCreateTransaction } from './create-transaction-api.ts'
import { CreatedTransaction } from './created-transaction.tsx'
import { GuestInviteFields, invitedEmail, useGuestInviteForm } from './guest-invite.tsx'
import {
  fieldsByStep,
  maxDescription,
  type OnlineCreateError,
  type OnlineCreateFormInput,
  type OnlineCreateFormOutput,
  onlineCreateFormSchema,
} from './online-create-model.ts'
import type { Prefill } from './prefill.ts'

const quoteDebounceMs = 400

const steps = stepKeysByMode.createTransactionOnline

function initialPriceText(price: string | undefined, currency: string, locale: Parameters<typeof formatMoneyInput>[2]) {
  if (!price) return ''
  const minor = majorTextToMinor(price, currency)
  return minor === null ? price : formatMoneyInput(minor, currency, locale)
}

/** The online build flow: 1 role, 2 item and price, 3 review the fee and create. */
export function OnlineCreateForm({ prefill, currencies }: { prefill: Prefill; currencies: string[] }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const invalidForm = useInvalidFormSnackbar()
  const result = useResultModal()
  const ids = { role: useId(), method: useId(), heading: useId() }
  const headingRef = useRef<HTMLHeadingElement>(null)

  const [step, setStep] = useState(0)
  const [feeChanged, setFeeChanged] = useState(false)
  const [created, setCreated] = useState<Transaction | null>(null)
  const offeredMethods = useOfferedPaymentMethods()

  const initialCurrency = prefill.currency ?? (currencies.includes('eur') ? 'eur' : (currencies[0] ?? 'eur'))
  const form = useForm<OnlineCreateFormInput, unknown, OnlineCreateFormOutput>({
    resolver: zodResolver(onlineCreateFormSchema({ locale })),
    defaultValues: {
      role: prefill.role ?? '',
      description: prefill.description ?? '',
      currency: initialCurrency,
      price: initialPriceText(prefill.price, initialCurrency, locale),
      payment_method: 'card',
    },
  })
  const [role, currency, priceText, description, paymentMethod] = useWatch({
    control: form.control,
    name: ['role', 'currency', 'price', 'description', 'payment_method'],
  })
  const parsed = parseMoneyInput(priceText, currency, locale)
  const price = parsed.ok && parsed.minor >= minimumPrice ? parsed.minor : null
  const debouncedPrice = useDebouncedValue(price, quoteDebounceMs)
  const quote = useChargeQuote({ price: debouncedPrice, currency, paymentMethod })
  const quoteIsCurrent =
    quote.data !== undefined &&
    !quote.isFetching &&
    quote.data.price === price &&
    quote.data.currency === currency &&
    quote.data.payment_method === paymentMethod
  const create = useCreateTransaction()
  const inviteForm = useGuestInviteForm()
  const [invited, setInvited] = useState<string | null>(null)

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  const firstRender = useRef(true)
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    headingRef.current?.focus()
  }, [step, created])

  const errorText = (error: OnlineCreateError | undefined) => {
    switch (error) {
      case undefined:
        return undefined
      case 'priceDecimals':
        return currencyDecimals(currency) === 0
          ? t('createTransaction.errors.priceWholeUnits')
          : t('createTransaction.errors.priceDecimals', { count: currencyDecimals(currency) })
      case 'priceTooLow':
        return t('createTransaction.errors.priceTooLow', { amount: formatMoney(minimumPrice, currency, locale) })
      case 'descriptionTooLong':
        return t('createTransaction.errors.descriptionTooLong', { count: maxDescription })
      default:
        return t(`createTransaction.errors.${error}`)
    }
  }
  const errorOf = (field: keyof OnlineCreateFormInput) => errorText(form.formState.errors[field]?.message as OnlineCreateError | undefined)

  const createTransaction = async (values: OnlineCreateFormOutput) => {
    if (!quoteIsCurrent || !quote.data || quote.data.price !== values.price) return
    const guestEmail = await invitedEmail(inviteForm)
    if (guestEmail === undefined) {
      invalidForm.show()
      return
    }
    setFeeChanged(false)
    create.mutate(
      {
        role: values.role,
        price: values.price,
        currency: values.currency,
        description: values.description,
        payment_method: values.payment_method,
        charge: quote.data.charge,
        charge_calculator_version: quote.data.charge_calculator_version,
        ...(guestEmail ? { counterparty_email: guestEmail } : {}),
      },
      {
        onSuccess: (transaction) => {
          setInvited(guestEmail)
          setCreated(transaction)
        },
        onError: (error) => {
          const code = errorCodeOf(error)
          if (code === 'incorrect_charge' || code === 'incorrect_calc_version') {
            // The fee schedule moved under us: show the new fee and let the person confirm it.
            setFeeChanged(true)
            void quote.refetch()
            return
          }
          result.showError(errorMessage(t, error))
        },
      },
    )
  }

  const submit = form.handleSubmit(
    async (values) => {
      if (step < steps.length - 1) {
        setStep(step + 1)
        return
      }
      await createTransaction(values)
    },
    // Only the fields of the steps reached so far count; later steps are not shown yet.
    (errors) => {
      const reached = fieldsByStep.slice(0, step + 1).flat()
      if (!reached.some((field) => errors[field])) {
        setStep(step + 1)
        form.clearErrors()
        return
      }
      invalidForm.show()
    },
  )

  if (created) {
    return (
      <ContentCard testId="transaction-created">
        <CreateSteps steps={steps} active={steps.length} />
        <CreatedTransaction transaction={created} headingRef={headingRef} invitedEmail={invited} />
      </ContentCard>
    )
  }


  return (
    <ContentCard>
      <CreateSteps steps={steps} active={step} />
      <Typography
        component="h2"
        variant="h6"
        data-testid="step-counter"
        ref={headingRef}
        tabIndex={-1}
        id={ids.heading}
        sx={{ outline: 'none' }}
      >
        {t('createTransaction.stepCounter', { current: step + 1, total: steps.length })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t(steps[step] ?? '')}
      </Typography>

      <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby={ids.heading} data-testid={`create-step-${step + 1}`}>
        {step === 0 && (
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <FormControl error={!!errorOf('role')} required>
                <FormLabel id={ids.role}>{t('createTransaction.roleLabel')}</FormLabel>
                <RadioGroup aria-labelledby={ids.role} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
                  <FormControlLabel value="seller" control={<Radio slotProps={{ input: { 'data-testid': 'role-seller' } as object }} />} label={t('createTransaction.roles.seller')} />
                  <FormControlLabel value="buyer" control={<Radio slotProps={{ input: { 'data-testid': 'role-buyer' } as object }} />} label={t('createTransaction.roles.buyer')} />
                </RadioGroup>
                {errorOf('role') && <FormHelperText>{errorOf('role')}</FormHelperText>}
              </FormControl>
            )}
          />
        )}

        {step === 1 && (
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            <TextField
              label={t('createTransaction.descriptionLabel')}
              {...form.register('description')}
              required
              multiline
              minRows={2}
              error={!!errorOf('description')}
              helperText={errorOf('description') ?? t('createTransaction.descriptionHint', { count: maxDescription - description.length })}
              slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': 'description-input' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={form.control}
                name="currency"
                render={({ field }) => (
                  <CurrencySelect
                    label={t('createTransaction.currencyLabel')}
                    currencies={currencies}
                    value={field.value}
                    onChange={field.onChange}
                    amount={{ read: () => form.getValues('price'), write: (text) => form.setValue('price', text) }}
                    testId="currency-select"
                    sx={{ minWidth: 200 }}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="price"
                render={({ field }) => (
                  <MoneyInput
                    label={t('createTransaction.priceLabel')}
                    currency={currency}
                    value={field.value}
                    onChange={field.onChange}
                    required
                    error={!!errorOf('price')}
                    helperText={errorOf('price') ?? t('createTransaction.priceHint')}
                    testId="price-input"
                  />
                )}
              />
            </Stack>
            <Controller
              control={form.control}
              name="payment_method"
              render={({ field }) => (
                <FormControl>
                  <FormLabel id={ids.method}>{t('createTransaction.paymentMethodLabel')}</FormLabel>
                  <RadioGroup aria-labelledby={ids.method} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
                    {offeredMethods.map((method) => (
                      <FormControlLabel
                        key={method}
                        value={method}
                        control={<Radio slotProps={{ input: { 'data-testid': `method-${method}` } as object }} />}
                        label={t(`paymentMethods.${method}`)}
                      />
                    ))}
                  </RadioGroup>
                  <FormHelperText>{t('createTransaction.paymentMethodHint')}</FormHelperText>
                </FormControl>
              )}
            />
            {price !== null && (
              <Typography color="text.secondary" aria-live="polite" data-testid="fee-preview">
                {quoteIsCurrent && quote.data
                  ? t('createTransaction.feePreview', { fee: formatMoney(quote.data.charge, currency, locale) })
                  : t('amounts.calculating')}
              </Typography>
            )}
          </Stack>
        )}

        {step === 2 && price !== null && role !== '' && (
          <Stack spacing={2.5}>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { sm: 'auto 1fr' }, columnGap: 3, rowGap: 1 }}>
              <Typography component="dt" color="text.secondary">
                {t('createTransaction.review.role')}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }} data-testid="review-role">
                {t(`roles.${role}`)}
              </Typography>
              <Typography component="dt" color="text.secondary">
                {t('createTransaction.review.description')}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid="review-description">
                {description.trim()}
              </Typography>
              <Typography component="dt" color="text.secondary">
                {t('createTransaction.review.paymentMethod')}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {t(`paymentMethods.${paymentMethod}`)}
              </Typography>
            </Box>
            {feeChanged && (
              <Alert severity="warning" data-testid="fee-changed">
                {t('createTransaction.feeChanged')}
              </Alert>
            )}
            {quote.isError ? (
              <Alert
                severity="error"
                action={
                  <Button color="inherit" onClick={() => void quote.refetch()}>
                    {t('common.retry')}
                  </Button>
                }
              >
                {errorMessage(t, quote.error)}
              </Alert>
            ) : (
              <AmountSummary
                price={price}
                currency={currency}
                charge={quoteIsCurrent ? quote.data?.charge : undefined}
                loading={!quoteIsCurrent}
              />
            )}
            <Typography color="text.secondary">
              {t(role === 'buyer' ? 'createTransaction.review.buyerPays' : 'createTransaction.review.sellerGets')}
            </Typography>
            <GuestInviteFields form={inviteForm} />
          </Stack>
        )}

        <Stack direction="row" spacing={1.5} sx={{ mt: 3, flexWrap: 'wrap', gap: 1.5 }}>
          {step > 0 && (
            <Button onClick={() => setStep(step - 1)} disabled={create.isPending} data-testid="create-back">
              {t('common.back')}
            </Button>
          )}
          {step < steps.length - 1 ? (
            <Button type="submit" variant="contained" data-testid="create-next">
              {t('common.next')}
            </Button>
          ) : (
            <Button
              type="submit"
              variant="contained"
              disabled={!quoteIsCurrent || create.isPending}
              loading={create.isPending}
              loadingPosition="start"
              data-testid="create-submit"
            >
              {t('createTransaction.create')}
            </Button>
          )}
        </Stack>
      </Box>
    </ContentCard>
  )
}
