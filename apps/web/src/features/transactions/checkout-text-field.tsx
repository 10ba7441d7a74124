import TextField, { type TextFieldProps } from '@mui/material/TextField'
import { Controller, type FieldError, type FieldPath, type UseFormReturn } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import type { CheckoutFieldError, CheckoutFormValues } from './checkout-model.ts'

type CheckoutTextFieldProps = Omit<TextFieldProps, 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'error' | 'helperText' | 'name'> & {
  form: UseFormReturn<CheckoutFormValues>
  name: FieldPath<CheckoutFormValues>
  /** What the typed text is kept as (digits and spaces only, capitals…). */
  clean?: (text: string) => string
  /** After each change, as well as storing it. */
  onEdited?: () => void
}

/**
 * A checkout field bound to the form, its refusal in words under it. A field
 * refused once is checked again as it changes, so its message goes as soon as it is right.
 */
export function CheckoutTextField({ form, name, clean = (text) => text, onEdited, ...field }: CheckoutTextFieldProps) {
  const errorText = useCheckoutErrorText()
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field: input, fieldState }) => (
        <TextField
          {...field}
          value={input.value}
          onChange={(event) => {
            input.onChange(clean(event.target.value))
            if (fieldState.error) void form.trigger(input.name)
            onEdited?.()
          }}
          onBlur={input.onBlur}
          inputRef={input.ref}
          error={fieldState.error !== undefined}
          helperText={errorText(fieldState.error)}
        />
      )}
    />
  )
}

function useCheckoutErrorText() {
  const { t } = useTranslation()
  return (error: FieldError | undefined) => {
    switch (error?.message as CheckoutFieldError | undefined) {
      case undefined:
        return undefined
      case 'required':
        return t('checkout.required')
      case 'cardNumberInvalid':
        return t('checkout.cardNumberInvalid')
      case 'ibanInvalid':
        return t('checkout.ibanInvalid')
      default:
        return t('checkout.invalid')
    }
  }
}
