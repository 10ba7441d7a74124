import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import FormLabel from '@mui/material/FormLabel'
import Radio from '@mui/material/Radio'
import RadioGroup from '@mui/material/RadioGroup'
import { useId } from 'react'
import { type Control, Controller, type FieldPathByValue, type FieldValues } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'

/** Seller or buyer: the first question of both build flows. */
export function RoleField<T extends FieldValues, Out>({
  control,
  name,
  error,
}: {
  control: Control<T, unknown, Out>
  name: FieldPathByValue<T, string>
  error: string | undefined
}) {
  const { t } = useTranslation()
  const labelId = useId()
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControl error={!!error} required>
          <FormLabel id={labelId}>{t('createTransaction.roleLabel')}</FormLabel>
          <RadioGroup aria-labelledby={labelId} value={field.value} onChange={(event) => field.onChange(event.target.value)}>
            <FormControlLabel
              value="seller"
              control={<Radio slotProps={{ input: { 'data-testid': 'role-seller' } as object }} />}
              label={t('createTransaction.roles.seller')}
            />
            <FormControlLabel
              value="buyer"
              control={<Radio slotProps={{ input: { 'data-testid': 'role-buyer' } as object }} />}
              label={t('createTransaction.roles.buyer')}
            />
          </RadioGroup>
          {error && <FormHelperText>{error}</FormHelperText>}
        </FormControl>
      )}
    />
  )
}
