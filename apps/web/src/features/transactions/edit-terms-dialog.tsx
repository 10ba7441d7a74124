import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { minimumPrice } from '@pactum/domain/fees'
import { useState } from 'react'
import { Controller, type FieldError, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { CurrencySelect } from '../../components/currency-select.tsx'
import { MoneyInput } from '../../components/money-input.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useChargeQuote, useSupportedCurrencies } from '../../lib/api/charge-quotes.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { currencyDecimals, formatMoney, formatMoneyInput, parseMoneyInput } from '../../lib/money.ts'
import { useDebouncedValue } from '../../lib/use-debounced-value.ts'
import {
  currentPrice,
  type EditTermsFormInput,
  type EditTermsFormOutput,
  editTermsFormSchema,
  patchBody,
  type PriceError,
  repricing,
  serverFieldOf,
} from './edit-terms-model.ts'
import { useUpdateTransaction } from './transactions-api.ts'

const quoteDebounceMs = 400
const maxDescription = 1000

/**
 * The creator changes the description, the price (a face-to-face sale's
 * deposit) or the currency while nobody has joined. A new price or currency
 * shows the new buyer protection fee before saving, and exactly that fee is
 * sent; the server's refusals land on the field they name.
 */
export function EditTermsDialog({ transaction, onClose }: { transaction: AnyTransaction; onClose: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const result = useResultModal()
  const update = useUpdateTransaction(transaction)
  const supported = useSupportedCurrencies()
  const [feeChanged, setFeeChanged] = useState(false)
  const f2f = transaction.type === 'f2f'
  const form = useForm<EditTermsFormInput, unknown, EditTermsFormOutput>({
    resolver: zodResolver(editTermsFormSchema({ locale })),
    defaultValues: {
      description: transaction.description,
      currency: transaction.currency,
      price: formatMoneyInput(currentPrice(transaction), transaction.currency, locale),
    },
  })
  const [currency, priceText, description] = useWatch({ control: form.control, name: ['currency', 'price', 'description'] })
  const parsed = parseMoneyInput(priceText, currency, locale)
  const typedPrice = parsed.ok && parsed.minor >= minimumPrice ? parsed.minor : null
  const changesPrice = typedPrice !== null && repricing(transaction, { price: typedPrice, currency })
  const price = useDebouncedValue(changesPrice ? typedPrice : null, quoteDebounceMs)
  const paymentMethod = transaction.payment_method ?? 'card'
  const quote = useChargeQuote({ price, currency, paymentMethod, path: f2f ? '/p2p/charge' : '/charge' })
  const shown =
    quote.data && !quote.isFetching && quote.data.price === typedPrice && quote.data.currency === currency && quote.data.payment_method === paymentMethod
      ? quote.data
      : null
  // The transaction's own currency stays selectable even if it is no longer offered to this user: keeping it changes nothing.
  const currencies = [...new Set([transaction.currency, ...(supported.data ?? [])])]

  const submit = form.handleSubmit(async (terms) => {
    const needsFee = repricing(transaction, terms)
    // Saved only with the fee the creator has on screen for exactly these terms.
    if (needsFee && (!shown || shown.price !== terms.price || shown.currency !== terms.currency)) return
    const body = patchBody(transaction, terms, needsFee ? shown : null)
    if (Object.keys(body).length === 0) {
      onClose()
      return
    }
    setFeeChanged(false)
    try {
      await update.mutateAsync(body)
      onClose()
      result.showSuccess(t('transactionStatus.edit.success'))
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'incorrect_charge' || code === 'incorrect_calc_version') {
        // The fee schedule moved under us: show the new fee and let the creator confirm it.
        setFeeChanged(true)
        void quote.refetch()
        return
      }
      const field = serverFieldOf(error)
      if (field) {
        form.setError(field, { type: 'server', message: errorMessage(t, error) }, { shouldFocus: true })
        return
      }
      onClose()
      result.showError(errorMessage(t, error))
    }
  })

  const priceErrorText = (error: FieldError | undefined): string | undefined => {
    if (!error) return undefined
    if (error.type !== 'custom') return error.message
    switch (error.message as PriceError) {
      case 'required':
        return f2f ? t('createTransaction.face.errors.depositRequired') : t('createTransaction.errors.priceRequired')
      case 'decimals':
        return currencyDecimals(currency) === 0
          ? t('createTransaction.errors.priceWholeUnits')
          : t('createTransaction.errors.priceDecimals', { count: currencyDecimals(currency) })
      case 'tooLarge':
        return t('createTransaction.errors.priceTooLarge')
      case 'tooLow':
        return t(f2f ? 'createTransaction.face.errors.depositTooLow' : 'createTransaction.errors.priceTooLow', { amount: formatMoney(minimumPrice, currency, locale) })
      default:
        return f2f ? t('createTransaction.face.errors.depositInvalid') : t('createTransaction.errors.priceInvalid')
    }
  }
  const descriptionErrorText = (error: FieldError | undefined): string | undefined => {
    if (!error) return undefined
    if (error.type === 'server') return error.message
    return error.type === 'too_big' ? t('createTransaction.errors.descriptionTooLong', { count: maxDescription }) : t('createTransaction.errors.descriptionRequired')
  }
  const { errors } = form.formState
  const busy = form.formState.isSubmitting

  return (
    <ConfirmDialog
      open
      title={t('transactionStatus.edit.title')}
      body={t(f2f ? 'transactionStatus.edit.bodyF2f' : 'transactionStatus.edit.body')}
      confirmLabel={t('transactionStatus.edit.confirm')}
      busy={busy}
      // A new price or currency is saved only with its fee on screen.
      confirmDisabled={changesPrice && !shown}
      onConfirm={() => void submit()}
      onClose={onClose}
      testId="dialog-edit-terms"
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <Controller
          control={form.control}
          name="description"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              label={t('createTransaction.descriptionLabel')}
              required
              multiline
              minRows={2}
              error={!!errors.description}
              helperText={descriptionErrorText(errors.description) ?? t('createTransaction.descriptionHint', { count: maxDescription - description.length })}
              slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': 'edit-description' } }}
            />
          )}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Controller
            control={form.control}
            name="currency"
            render={({ field }) => (
              <CurrencySelect
                label={t('createTransaction.currencyLabel')}
                currencies={currencies}
                name={field.name}
                inputRef={field.ref}
                value={field.value}
                onBlur={field.onBlur}
                onChange={field.onChange}
                amount={{ read: () => form.getValues('price'), write: (text) => form.setValue('price', text) }}
                error={!!errors.currency}
                helperText={errors.currency ? errors.currency.type === 'server' ? errors.currency.message : t('apiErrors.validation_failed') : supported.isError ? errorMessage(t, supported.error) : undefined}
                disabled={supported.isPending}
                testId="edit-currency"
                sx={{ minWidth: 200 }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="price"
            render={({ field }) => (
              <MoneyInput
                label={t(f2f ? 'createTransaction.face.depositLabel' : 'createTransaction.priceLabel')}
                currency={currency}
                value={field.value}
                onChange={field.onChange}
                required
                error={!!errors.price}
                helperText={priceErrorText(errors.price) ?? t(f2f ? 'createTransaction.face.depositHint' : 'createTransaction.priceHint')}
                testId="edit-price"
              />
            )}
          />
        </Stack>
        {changesPrice && typedPrice !== null && (
          <Stack spacing={1} data-testid="edit-fee">
            <Typography color="text.secondary">{t('transactionStatus.edit.feeIntro')}</Typography>
            {feeChanged && (
              <Alert severity="warning" data-testid="edit-fee-changed">
                {t('transactionStatus.edit.feeChanged')}
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
              <AmountSummary price={typedPrice} currency={currency} charge={shown?.charge} loading={!shown} />
            )}
          </Stack>
        )}
      </Stack>
    </ConfirmDialog>
  )
}
