import { type Control, Controller, type FieldPathByValue, type FieldValues } from 'react-hook-form'
import { MoneyInput } from '../../components/money-input.tsx'
import { type PriceMessages, usePriceErrorText } from './price-error-text.ts'

export interface PriceFieldProps<T extends FieldValues, Out> {
  control: Control<T, unknown, Out>
  /** The form's text field for the amount, as typed. */
  name: FieldPathByValue<T, string>
  label: string
  currency: string
  /** Shown while there is no error. */
  hint?: string
  /** The sentences for the form's refusals (`PriceError`s). */
  messages: PriceMessages
  /** The smallest amount, named in the too-low sentence. */
  minimum: number
  testId: string
}

/** An offer's price (or deposit, or total): a required amount in the form's currency, its refusal in words under it. */
export function PriceField<T extends FieldValues, Out>({
  control,
  name,
  label,
  currency,
  hint,
  messages,
  minimum,
  testId,
}: PriceFieldProps<T, Out>) {
  const errorText = usePriceErrorText(messages)
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MoneyInput
          label={label}
          currency={currency}
          value={field.value as string}
          onChange={field.onChange}
          required
          error={!!fieldState.error}
          helperText={errorText(fieldState.error, currency, minimum) ?? hint}
          testId={testId}
        />
      )}
    />
  )
}
