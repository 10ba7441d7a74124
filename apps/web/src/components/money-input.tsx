import InputAdornment from '@mui/material/InputAdornment'
import TextField from '@mui/material/TextField'
import { useLocale } from '../i18n/use-locale.ts'
import { formatMoneyInput, moneyMask, parseMoneyInput } from '../lib/money.ts'

export interface MoneyInputProps {
  label: string
  currency: string
  /** What the person typed; the caller parses it with `parseMoneyInput`. */
  value: string
  onChange: (text: string) => void
  error?: boolean
  helperText?: string
  required?: boolean
  testId?: string
}

/**
 * A price field in the interface language's format: its decimal separator, the
 * currency sign where the language puts it, whole units only for JPY and the
 * złoty mask under Polish (spec §5). Tidied into the canonical format on blur.
 */
export function MoneyInput({ label, currency, value, onChange, error, helperText, required, testId }: MoneyInputProps) {
  const { locale } = useLocale()
  const mask = moneyMask(currency, locale)
  const adornment = <InputAdornment position={mask.symbolPosition === 'prefix' ? 'start' : 'end'}>{mask.symbol}</InputAdornment>
  return (
    <TextField
      label={label}
      value={value}
      required={required}
      error={error}
      helperText={helperText}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => {
        const parsed = parseMoneyInput(value, currency, locale)
        if (parsed.ok) onChange(formatMoneyInput(parsed.minor, currency, locale))
      }}
      autoComplete="off"
      slotProps={{
        input: mask.symbolPosition === 'prefix' ? { startAdornment: adornment } : { endAdornment: adornment },
        htmlInput: {
          inputMode: mask.inputMode,
          'data-testid': testId,
          'data-decimals': mask.decimals,
        },
      }}
    />
  )
}
