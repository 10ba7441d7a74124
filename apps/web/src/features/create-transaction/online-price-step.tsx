import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useEffect, useId } from 'react'
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { useOfferedPaymentMethods } from '../../lib/api/charge-quotes.ts'
import { OfferPriceRow } from '../../lib/money-field/offer-price-row.tsx'
import type { FeeQuote } from '../../lib/money-field/use-fee-quote.ts'
import { formatMoney } from '../../lib/money.ts'
import { DescriptionField, useCreateErrorText } from './description-field.tsx'
import type { OnlineCreateFormInput, OnlineCreateFormOutput } from './online-create-model.ts'

/** The online flow's second step: the item, its price in a currency, the payment method, and the fee as it is quoted. */
export function OnlinePriceStep({
  form,
  currencies,
  price,
  fee,
}: {
  form: UseFormReturn<OnlineCreateFormInput, unknown, OnlineCreateFormOutput>
  currencies: string[]
  price: number | null
  fee: FeeQuote
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const methodLabel = useId()
  const errorText = useCreateErrorText('createTransaction.errors')
  const [currency, description, method] = useWatch({ control: form.control, name: ['currency', 'description', 'payment_method'] })
  const offeredMethods = useOfferedPaymentMethods(currency)
  // A currency the chosen method does not take (P24 in pounds): back to the first method that does, as the list now shows.
  useEffect(() => {
    if (!offeredMethods.includes(method)) form.setValue('payment_method', offeredMethods[0] ?? 'card')
  }, [form, method, offeredMethods])
  return (
    <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
      <DescriptionField
        field={form.register('description')}
        length={description.length}
        error={errorText(form.formState.errors.description?.message)}
      />
      <OfferPriceRow
        kind="online"
        form={form}
        currencies={currencies}
        currency={currency}
        testIds={{ currency: 'currency-select', price: 'price-input' }}
      />
      <Controller
        control={form.control}
        name="payment_method"
        render={({ field }) => (
          <FormControl>
            <FormLabel id={methodLabel}>{t('createTransaction.paymentMethodLabel')}</FormLabel>
            <RadioGroup aria-labelledby={methodLabel} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
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
          {fee.shown
            ? t('createTransaction.feePreview', { fee: formatMoney(fee.shown.charge, currency, locale) })
            : t('amounts.calculating')}
        </Typography>
      )}
    </Stack>
  )
}
