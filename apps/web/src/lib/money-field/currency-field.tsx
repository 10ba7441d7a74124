import { type FieldPathByValue, type FieldValues, type PathValue, Controller, type UseFormReturn } from 'react-hook-form'
import { CurrencySelect, type CurrencySelectProps } from '../../components/currency-select.tsx'

export type CurrencyFieldProps<T extends FieldValues, Out> = Omit<
  CurrencySelectProps,
  'value' | 'onChange' | 'amount' | 'name' | 'inputRef' | 'onBlur'
> & {
  form: UseFormReturn<T, unknown, Out>
  name: FieldPathByValue<T, string>
  /** The amount field typed in this currency: it keeps its value, re-read in the new one. */
  amountName?: FieldPathByValue<T, string>
}

/** An offer's currency, bound to the form; a change of currency keeps the typed amount. */
export function CurrencyField<T extends FieldValues, Out>({ form, name, amountName, ...select }: CurrencyFieldProps<T, Out>) {
  const amount = amountName && {
    read: () => form.getValues(amountName) as string,
    write: (text: string) => form.setValue(amountName, text as PathValue<T, typeof amountName>),
  }
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <CurrencySelect
          {...select}
          name={field.name}
          inputRef={field.ref}
          value={field.value as string}
          onBlur={field.onBlur}
          onChange={field.onChange}
          {...(amount ? { amount } : {})}
        />
      )}
    />
  )
}
