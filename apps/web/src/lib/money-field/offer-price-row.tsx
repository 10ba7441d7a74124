import Stack from '@mui/material/Stack'
import type { FieldPathByValue, FieldValues, UseFormReturn } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { CurrencyField, type CurrencyFieldProps } from './currency-field.tsx'
import { OfferAmountField } from './offer-amount-field.tsx'

/** A form with an offer's `currency` and `price` (a face-to-face sale's deposit) as typed. */
type OfferPriceValues = FieldValues & { currency: string; price: string }

/**
 * An offer's currency and its price (a face-to-face sale's deposit) side by
 * side, as creating and editing a sale ask for them; a change of currency
 * keeps the typed price.
 */
export function OfferPriceRow<T extends OfferPriceValues, Out>({
  kind,
  form,
  currencies,
  currency,
  testIds,
  currencyState,
}: {
  kind: 'online' | 'f2f'
  form: UseFormReturn<T, unknown, Out>
  currencies: readonly string[]
  /** The currency chosen now, in which the price is read. */
  currency: string
  testIds: { currency: string; price: string }
  /** The currency field's own error, hint and disabling, where the form has them. */
  currencyState?: Pick<CurrencyFieldProps<T, Out>, 'error' | 'helperText' | 'disabled'>
}) {
  const { t } = useTranslation()
  // Both are string fields of T (OfferPriceValues); TypeScript cannot work out a generic form's paths.
  const names = { currency: 'currency', price: 'price' } as { currency: FieldPathByValue<T, string>; price: FieldPathByValue<T, string> }
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <CurrencyField
        {...currencyState}
        form={form}
        name={names.currency}
        amountName={names.price}
        label={t('createTransaction.currencyLabel')}
        currencies={currencies}
        testId={testIds.currency}
        sx={{ minWidth: 200 }}
      />
      <OfferAmountField kind={kind} control={form.control} name={names.price} currency={currency} testId={testIds.price} />
    </Stack>
  )
}
