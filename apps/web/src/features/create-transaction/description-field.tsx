import TextField from '@mui/material/TextField'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { maxDescription } from './online-create-model.ts'

/** The item's description, with how many characters are left. */
export function DescriptionField({ field, length, error }: { field: UseFormRegisterReturn; length: number; error: string | undefined }) {
  const { t } = useTranslation()
  return (
    <TextField
      label={t('createTransaction.descriptionLabel')}
      {...field}
      required
      multiline
      minRows={2}
      error={!!error}
      helperText={error ?? t('createTransaction.descriptionHint', { count: maxDescription - length })}
      slotProps={{ htmlInput: { maxLength: maxDescription, 'data-testid': 'description-input' } }}
    />
  )
}

/** The sentence for a role or description refusal; `namespace` holds the flow's own wording. */
export function useCreateErrorText(namespace: 'createTransaction.errors' | 'createTransaction.face.errors') {
  const { t } = useTranslation()
  return (error: string | undefined) => {
    if (error === undefined) return undefined
    if (error === 'descriptionTooLong') return t('createTransaction.errors.descriptionTooLong', { count: maxDescription })
    return t(`${namespace}.${error}`)
  }
}
