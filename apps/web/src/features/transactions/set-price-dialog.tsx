import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { ChargeQuote } from '@pactum/contracts/transactions'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { MoneyInput } from '../../components/money-input.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { currencyDecimals, formatMoney, parseMoneyInput } from '../../lib/money.ts'
import { useDebouncedValue } from '../../lib/use-debounced-value.ts'
import { minimumTotal, type SetPriceFormInput, type SetPriceFormOutput, setPriceFormSchema, type TotalError } from './set-price-model.ts'
import { useTransactionAction } from './transactions-api.ts'

const quoteDebounceMs = 400

/** The seller sets the total (deposit included); the buyer will pay the rest with its fee. */
export function SetPriceDialog({ transaction, onClose }: { transaction: F2fTransaction; onClose: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const api = useApiClient()
  const result = useResultModal()
  const mutation = useTransactionAction(transaction.id, 'f2f')
  const [idempotencyKey] = useState(() => crypto.randomUUID())
  const deposit = transaction.deposit_pricing.price
  const { currency } = transaction
  const form = useForm<SetPriceFormInput, unknown, SetPriceFormOutput>({
    resolver: zodResolver(setPriceFormSchema({ currency, locale, deposit })),
    defaultValues: { total: '' },
  })
  const typed = useWatch({ control: form.control, name: 'total' })
  const parsed = parseMoneyInput(typed, currency, locale)
  const candidate = parsed.ok && parsed.minor >= minimumTotal(deposit) ? parsed.minor : null
  const total = useDebouncedValue(candidate, quoteDebounceMs)
  const quote = useQuery({
    queryKey: ['remainder-charge', transaction.id, total],
    enabled: total !== null,
    queryFn: ({ signal }) =>
      api.request<ChargeQuote>(`/p2p/transactions/${encodeURIComponent(transaction.id)}/charge`, {
        query: { price: total ?? 0, ...(transaction.payment_method ? { payment_method: transaction.payment_method } : {}) },
        signal,
      }),
    retry: false,
  })

  const errorText = (error: TotalError) => {
    switch (error) {
      case 'required':
        return t('transactionStatus.setPrice.errors.required')
      case 'decimals':
        return currencyDecimals(currency) === 0
          ? t('createTransaction.errors.priceWholeUnits')
          : t('createTransaction.errors.priceDecimals', { count: currencyDecimals(currency) })
      case 'tooLarge':
        return t('createTransaction.errors.priceTooLarge')
      case 'remainderTooLow':
        return t('transactionStatus.setPrice.errors.remainderTooLow', { amount: formatMoney(minimumTotal(deposit), currency, locale) })
      default:
        return t('createTransaction.errors.priceInvalid')
    }
  }

  const submit = form.handleSubmit(async ({ total: price }) => {
    try {
      // The fee the seller was shown for exactly this total; asked again if the quote is not for it.
      const shown =
        quote.data && quote.data.price === price
          ? quote.data
          : await api.request<ChargeQuote>(`/p2p/transactions/${encodeURIComponent(transaction.id)}/charge`, { query: { price } })
      await mutation.mutateAsync({
        action: 'set_price',
        body: { price, charge: shown.charge, charge_calculator_version: shown.charge_calculator_version },
        idempotencyKey,
      })
      onClose()
      result.showSuccess(t('transactionStatus.f2fActions.set_price.success'))
    } catch (error) {
      if (errorCodeOf(error) === 'remainder_too_low') {
        form.setError('total', { message: 'remainderTooLow' })
        return
      }
      onClose()
      result.showError(errorMessage(t, error))
    }
  })

  const fieldError = form.formState.errors.total?.message as TotalError | undefined
  const remainder = total !== null ? total - deposit : null

  return (
    <ConfirmDialog
      open
      title={t('transactionStatus.f2fActions.set_price.title')}
      body={t('transactionStatus.f2fActions.set_price.body', { deposit: formatMoney(deposit, currency, locale) })}
      confirmLabel={t('transactionStatus.f2fActions.set_price.confirm')}
      busy={form.formState.isSubmitting}
      onConfirm={() => void submit()}
      onClose={onClose}
      testId="dialog-set-price"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Controller
          control={form.control}
          name="total"
          render={({ field }) => (
            <MoneyInput
              label={t('transactionStatus.setPrice.totalLabel')}
              currency={currency}
              value={field.value}
              onChange={field.onChange}
              required
              error={!!fieldError}
              helperText={fieldError ? errorText(fieldError) : t('transactionStatus.setPrice.totalHint', { amount: formatMoney(minimumTotal(deposit), currency, locale) })}
              testId="set-price-total"
            />
          )}
        />
        {remainder !== null && (
          <>
            <Typography color="text.secondary">{t('transactionStatus.setPrice.remainderIntro')}</Typography>
            <AmountSummary price={remainder} currency={currency} charge={quote.data?.price === total ? quote.data.charge : undefined} loading={quote.isFetching} />
          </>
        )}
        {quote.isError && <Alert severity="error">{errorMessage(t, quote.error)}</Alert>}
      </Stack>
    </ConfirmDialog>
  )
}
