import TextField, { type TextFieldProps } from '@mui/material/TextField'
import { useLocale } from '../i18n/use-locale.ts'
import { currencyDisplayName, priceTextInCurrency } from '../lib/money.ts'

export type CurrencySelectProps = Omit<TextFieldProps, 'select' | 'value' | 'onChange' | 'children' | 'slotProps'> & {
  currencies: readonly string[]
  value: string
  onChange: (currency: string) => void
  testId: string
  /** The form's typed amount: on a change of currency it keeps its value, re-read in the new currency. */
  amount?: { read: () => string; write: (text: string) => void }
}

/**
 * The currency picker of the offer forms (create, edit terms, listing):
 * `EUR – Euro`, the name in the interface language. A native select, which
 * phones show as their own picker and keyboards work as they expect. Given
 * the form's amount, it keeps what the person typed across a change.
 */
export function CurrencySelect({ currencies, value, onChange, testId, amount, ...field }: CurrencySelectProps) {
  const { locale } = useLocale()
  return (
    <TextField
      {...field}
      select
      value={value}
      onChange={(event) => {
        const next = event.target.value
        if (amount) amount.write(priceTextInCurrency(amount.read(), value, next, locale))
        onChange(next)
      }}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': testId } }}
    >
      {currencies.map((code) => (
        <option key={code} value={code}>
          {`${code.toUpperCase()} – ${currencyDisplayName(code, locale)}`}
        </option>
      ))}
    </TextField>
  )
}
