import { zodResolver } from '@hookform/resolvers/zod'
import Typography from '@mui/material/Typography'
import type { F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { ChargeQuote } from '@pactum/contracts/transactions'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { FeeSummary } from '../../lib/money-field/fee-summary.tsx'
import { totalMessages } from '../../lib/money-field/price-error-text.ts'
import { PriceField } from '../../lib/money-field/price-field.tsx'
import { quotablePrice } from '../../lib/money-field/read-price.ts'
import { useFeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { formatMoney } from '../../lib/money.ts'
import { minimumTotal, type SetPriceFormInput, type SetPriceFormOutput, setPriceFormSchema } from './set-price-model.ts'
import { useTransactionAction } from './transactions-api.ts'

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
  const chargePath = `/p2p/transactions/${encodeURIComponent(transaction.id)}/charge`
  // The sale's own quote: what is left after the deposit, paid by the deposit's method.
  const fee = useFeeQuote(quotablePrice(typed, currency, locale, minimumTotal(deposit)), {
    path: chargePath,
    ...(transaction.payment_method ? { paymentMethod: transaction.payment_method } : {}),
  })

  const submit = form.handleSubmit(async ({ total: price }) => {
    try {
      // The fee the seller was shown for exactly this total; asked again if the quote is not for it.
      const shown = fee.shown && fee.shown.price === price ? fee.shown : await api.request<ChargeQuote>(chargePath, { query: { price } })
      await mutation.mutateAsync({
        action: 'set_price',
        body: { price, charge: shown.charge, charge_calculator_version: shown.charge_calculator_version },
        idempotencyKey,
      })
      onClose()
      result.showSuccess(t('transactionStatus.f2fActions.set_price.success'))
    } catch (error) {
      if (errorCodeOf(error) === 'remainder_too_low') {
        form.setError('total', { type: 'custom', message: 'tooLow' })
        return
      }
      onClose()
      result.showError(errorMessage(t, error))
    }
  })

  const total = fee.debouncedPrice
  const remainder = total !== null ? total - deposit : null

  return (
    <FormDialog
      title={t('transactionStatus.f2fActions.set_price.title')}
      body={t('transactionStatus.f2fActions.set_price.body', { deposit: formatMoney(deposit, currency, locale) })}
      confirmLabel={t('transactionStatus.f2fActions.set_price.confirm')}
      busy={form.formState.isSubmitting}
      onSubmit={submit}
      spacing={2}
      onClose={onClose}
      testId="dialog-set-price"
    >
      <PriceField
        control={form.control}
        name="total"
        label={t('transactionStatus.setPrice.totalLabel')}
        currency={currency}
        hint={t('transactionStatus.setPrice.totalHint', { amount: formatMoney(minimumTotal(deposit), currency, locale) })}
        messages={totalMessages}
        minimum={minimumTotal(deposit)}
        testId="set-price-total"
      />
      {/* A quote, and so its error, exists only for a total. */}
      {remainder !== null && (
        <>
          <Typography color="text.secondary">{t('transactionStatus.setPrice.remainderIntro')}</Typography>
          <FeeSummary part="remainder" fee={fee} price={remainder} currency={currency} loading={fee.loading} />
        </>
      )}
    </FormDialog>
  )
}
