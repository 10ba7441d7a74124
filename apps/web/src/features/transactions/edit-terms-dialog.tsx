import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { minimumPrice } from '@pactum/domain/fees'
import { Controller, type FieldError, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { FormDialog } from '../../components/form-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useSupportedCurrencies } from '../../lib/api/charge-quotes.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { putRefusalOnField } from '../../lib/api/refusal-on-field.ts'
import { OfferPriceRow } from '../../lib/money-field/offer-price-row.tsx'
import { FeeSummary } from '../../lib/money-field/fee-summary.tsx'
import { quotablePrice } from '../../lib/money-field/read-price.ts'
import { useFeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { formatMoneyInput } from '../../lib/money.ts'
import {
  currentPrice,
  type EditTermsFormInput,
  type EditTermsFormOutput,
  editTermsFormSchema,
  patchBody,
  repricing,
  serverFieldOf,
} from './edit-terms-model.ts'
import { useUpdateTransaction } from './transactions-api.ts'

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
  const typedPrice = quotablePrice(priceText, currency, locale, minimumPrice)
  const changesPrice = typedPrice !== null && repricing(transaction, { price: typedPrice, currency })
  const paymentMethod = transaction.payment_method ?? 'card'
  const fee = useFeeQuote(changesPrice ? typedPrice : null, { path: f2f ? '/p2p/charge' : '/charge', currency, paymentMethod })
  const { shown } = fee
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
    fee.clearFeeChanged()
    try {
      await update.mutateAsync(body)
      onClose()
      result.showSuccess(t('transactionStatus.edit.success'))
    } catch (error) {
      // The fee schedule moved under us: the new fee shows and the creator confirms it.
      if (fee.recoverFromStaleFee(error)) return
      if (putRefusalOnField(form.setError, serverFieldOf(error), errorMessage(t, error))) return
      onClose()
      result.showError(errorMessage(t, error))
    }
  })

  const descriptionErrorText = (error: FieldError | undefined): string | undefined => {
    if (!error) return undefined
    if (error.type === 'server') return error.message
    return error.type === 'too_big'
      ? t('createTransaction.errors.descriptionTooLong', { count: maxDescription })
      : t('createTransaction.errors.descriptionRequired')
  }
  const { errors } = form.formState
  const busy = form.formState.isSubmitting

  return (
    <FormDialog
      title={t('transactionStatus.edit.title')}
      body={t(f2f ? 'transactionStatus.edit.bodyF2f' : 'transactionStatus.edit.body')}
      confirmLabel={t('transactionStatus.edit.confirm')}
      busy={busy}
      // A new price or currency is saved only with its fee on screen.
      confirmDisabled={changesPrice && !shown}
      onSubmit={submit}
      onClose={onClose}
      testId="dialog-edit-terms"
    >
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
            helperText={
              descriptionErrorText(errors.description) ??
              t('createTransaction.descriptionHint', { count: maxDescription - description.length })
            }
            slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': 'edit-description' } }}
          />
        )}
      />
      <OfferPriceRow
        kind={transaction.type}
        form={form}
        currencies={currencies}
        currency={currency}
        testIds={{ currency: 'edit-currency', price: 'edit-price' }}
        currencyState={{
          error: !!errors.currency,
          helperText: errors.currency
            ? errors.currency.type === 'server'
              ? errors.currency.message
              : t('apiErrors.validation_failed')
            : supported.isError
              ? errorMessage(t, supported.error)
              : undefined,
          disabled: supported.isPending,
        }}
      />
      {changesPrice && typedPrice !== null && (
        <Stack spacing={1} data-testid="edit-fee">
          <Typography color="text.secondary">{t('transactionStatus.edit.feeIntro')}</Typography>
          {fee.feeChanged && (
            <Alert severity="warning" data-testid="edit-fee-changed">
              {t('transactionStatus.edit.feeChanged')}
            </Alert>
          )}
          <FeeSummary fee={fee} price={typedPrice} currency={currency} retry />
        </Stack>
      )}
    </FormDialog>
  )
}
