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
import type { F2fTransaction } from '@pactum/contracts/f2f-transactions'
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
import { useChargeQuote } from '../../lib/api/charge-quotes.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { currencyDecimals, formatMoney, formatMoneyInput, majorTextToMinor, parseMoneyInput } from '../../lib/money.ts'
import { useDebouncedValue } from '../../lib/use-debounced-value.ts'
import { stepKeysByMode } from './create-mode.ts'
import { CreateSteps } from './create-steps.tsx'
import { useCreateF2fTransaction } from './create-transaction-api.ts'
import { CreatedTransaction } from './created-transaction.tsx'
import { GuestInviteFields, invitedEmail, useGuestInviteForm } from './guest-invite.tsx'
import {
  type FaceToFaceError,
  type FaceToFaceFormInput,
  type FaceToFaceFormOutput,
  faceToFaceFormSchema,
  fieldsByStep,
  maxDescription,
} from './face-to-face-model.ts'
import type { Prefill } from './prefill.ts'

const steps = stepKeysByMode.createTransactionFace
const inviteSteps = [...steps.slice(0, -1), 'guestInvitation.create.step']
const quoteDebounceMs = 400
const minimumDeposit = 100

/**
 * The face-to-face build flow: 1 role, item and currency, 2 the deposit and
 * its fee, 3 the code to share (or the e-mailed invitation). The total is set later by the seller.
 */
export function FaceToFaceCreateForm({ prefill, currencies }: { prefill: Prefill; currencies: string[] }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const invalidForm = useInvalidFormSnackbar()
  const result = useResultModal()
  const ids = { role: useId(), heading: useId() }
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [step, setStep] = useState(0)
  const [feeChanged, setFeeChanged] = useState(false)
  const [created, setCreated] = useState<F2fTransaction | null>(null)
  const create = useCreateF2fTransaction()
  const inviteForm = useGuestInviteForm()
  const [invited, setInvited] = useState<string | null>(null)
  const inviting = useWatch({ control: inviteForm.control, name: 'invite' })
  // The last step is sharing the code, unless the other party is invited by e-mail: then there is no code.
  const shownSteps = (created ? invited !== null : inviting) ? inviteSteps : steps

  const initialCurrency = prefill.currency ?? (currencies.includes('eur') ? 'eur' : (currencies[0] ?? 'eur'))
  const initialDeposit = prefill.deposit ? majorTextToMinor(prefill.deposit, initialCurrency) : null
  const form = useForm<FaceToFaceFormInput, unknown, FaceToFaceFormOutput>({
    resolver: zodResolver(faceToFaceFormSchema({ locale })),
    defaultValues: {
      role: prefill.role ?? '',
      description: prefill.description ?? '',
      currency: initialCurrency,
      deposit: initialDeposit === null ? (prefill.deposit ?? '') : formatMoneyInput(initialDeposit, initialCurrency, locale),
    },
  })
  const [currency, depositText, description] = useWatch({ control: form.control, name: ['currency', 'deposit', 'description'] })
  const parsed = parseMoneyInput(depositText, currency, locale)
  const deposit = useDebouncedValue(parsed.ok && parsed.minor >= minimumDeposit ? parsed.minor : null, quoteDebounceMs)
  const quote = useChargeQuote({ price: deposit, currency, paymentMethod: 'card', path: '/p2p/charge' })
  const quoteIsCurrent = quote.data !== undefined && !quote.isFetching && quote.data.price === deposit && quote.data.currency === currency

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  const firstRender = useRef(true)
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    headingRef.current?.focus()
  }, [step, created])

  const errorText = (error: FaceToFaceError | undefined) => {
    switch (error) {
      case undefined:
        return undefined
      case 'depositDecimals':
        return currencyDecimals(currency) === 0
          ? t('createTransaction.errors.priceWholeUnits')
          : t('createTransaction.errors.priceDecimals', { count: currencyDecimals(currency) })
      case 'depositTooLarge':
        return t('createTransaction.errors.priceTooLarge')
      case 'depositTooLow':
        return t('createTransaction.face.errors.depositTooLow', { amount: formatMoney(minimumDeposit, currency, locale) })
      case 'descriptionTooLong':
        return t('createTransaction.errors.descriptionTooLong', { count: maxDescription })
      default:
        return t(`createTransaction.face.errors.${error}`)
    }
  }
  const errorOf = (field: keyof FaceToFaceFormInput) => errorText(form.formState.errors[field]?.message as FaceToFaceError | undefined)

  const submit = form.handleSubmit(
    async (values) => {
      if (step < steps.length - 2) {
        setStep(step + 1)
        return
      }
      if (!quoteIsCurrent || !quote.data || quote.data.price !== values.depositPrice) return
      const guestEmail = await invitedEmail(inviteForm)
      if (guestEmail === undefined) {
        invalidForm.show()
        return
      }
      setFeeChanged(false)
      create.mutate(
        {
          role: values.role,
          currency: values.currency,
          description: values.description,
          deposit_price: values.depositPrice,
          deposit_charge: quote.data.charge,
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
        <CreateSteps steps={shownSteps} active={shownSteps.length} />
        <CreatedTransaction transaction={created} headingRef={headingRef} invitedEmail={invited} />
      </ContentCard>
    )
  }


  return (
    <ContentCard>
      <CreateSteps steps={shownSteps} active={step} />
      <Typography component="h2" variant="h6" data-testid="step-counter" ref={headingRef} tabIndex={-1} id={ids.heading} sx={{ outline: 'none' }}>
        {t('createTransaction.stepCounter', { current: step + 1, total: steps.length })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t(steps[step] ?? '')}
      </Typography>

      <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby={ids.heading} data-testid={`create-step-${step + 1}`}>
        {step === 0 && (
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
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
            <Controller
              control={form.control}
              name="currency"
              render={({ field }) => (
                <CurrencySelect
                  label={t('createTransaction.currencyLabel')}
                  currencies={currencies}
                  value={field.value}
                  onChange={field.onChange}
                  testId="currency-select"
                  sx={{ maxWidth: 320 }}
                />
              )}
            />
          </Stack>
        )}

        {step === 1 && (
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            <Typography>{t('createTransaction.face.depositIntro')}</Typography>
            <Controller
              control={form.control}
              name="deposit"
              render={({ field }) => (
                <MoneyInput
                  label={t('createTransaction.face.depositLabel')}
                  currency={currency}
                  value={field.value}
                  onChange={field.onChange}
                  required
                  error={!!errorOf('deposit')}
                  helperText={errorOf('deposit') ?? t('createTransaction.face.depositHint')}
                  testId="deposit-input"
                />
              )}
            />
            <AmountSummary price={deposit ?? 0} charge={quoteIsCurrent ? quote.data?.charge : undefined} currency={currency} loading={quote.isFetching} />
            {quote.isError && <Alert severity="error">{errorMessage(t, quote.error)}</Alert>}
            {feeChanged && (
              <Alert severity="warning" data-testid="fee-changed">
                {t('createTransaction.feeChanged')}
              </Alert>
            )}
            <Typography variant="body2" color="text.secondary">
              {t(form.getValues('role') === 'buyer' ? 'createTransaction.face.reviewBuyer' : 'createTransaction.face.reviewSeller')}
            </Typography>
            <GuestInviteFields form={inviteForm} />
          </Stack>
        )}

        <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
          {step > 0 && (
            <Button onClick={() => setStep(step - 1)} disabled={create.isPending}>
              {t('common.back')}
            </Button>
          )}
          <Button
            type="submit"
            variant="contained"
            disabled={create.isPending || (step === 1 && !quoteIsCurrent && deposit !== null)}
            loading={create.isPending}
            loadingPosition="start"
            data-testid={step === 1 ? 'create-submit' : 'create-next'}
          >
            {step === 1 ? t('createTransaction.create') : t('common.next')}
          </Button>
        </Stack>
      </Box>
    </ContentCard>
  )
}
