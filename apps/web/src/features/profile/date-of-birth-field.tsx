import Box from '@mui/material/Box'
import FormHelperText from '@mui/material/FormHelperText'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type ReactNode, useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import type { PersonalDetailsFormState } from './use-personal-details-form.ts'

/** The date of birth: day, month and year, one error for the three. */
export function DateOfBirthField({ form }: { form: PersonalDetailsFormState }) {
  const { t } = useTranslation()
  const { values, errors, busy, change, errorText, monthNames, years } = form
  const dobErrorId = useId()
  const dobError = errorText(errors.dob)
  const dobSelect = (key: 'dobDay' | 'dobMonth' | 'dobYear', testId: string, label: string, options: ReactNode, flex: number) => (
    <TextField
      select
      label={label}
      value={values[key]}
      onChange={change(key)}
      error={Boolean(errors.dob)}
      disabled={busy}
      required
      sx={{ flex, minWidth: 0 }}
      slotProps={{
        select: { native: true },
        inputLabel: { shrink: true },
        htmlInput: {
          'data-testid': testId,
          'aria-invalid': errors.dob ? true : undefined,
          'aria-describedby': errors.dob ? dobErrorId : undefined,
        },
      }}
    >
      <option value="">{t('profile.personal.choose')}</option>
      {options}
    </TextField>
  )

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }} aria-describedby={errors.dob ? dobErrorId : undefined}>
      <Typography component="legend" variant="body2" color={errors.dob ? 'error' : 'text.secondary'} sx={{ mb: 1.5 }}>
        {t('profile.personal.dob')}
      </Typography>
      {/* Side by side the day and year leave a phone too little room for the "choose" placeholder: stack them there. */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 2, sm: 1 }} data-testid="personal-dob">
        {dobSelect(
          'dobDay',
          'personal-dob-day',
          t('profile.personal.day'),
          Array.from({ length: 31 }, (_, index) => (
            <option key={index + 1} value={String(index + 1)}>
              {index + 1}
            </option>
          )),
          1,
        )}
        {dobSelect(
          'dobMonth',
          'personal-dob-month',
          t('profile.personal.month'),
          monthNames.map((name, index) => (
            <option key={name} value={String(index + 1)}>
              {name}
            </option>
          )),
          2,
        )}
        {dobSelect(
          'dobYear',
          'personal-dob-year',
          t('profile.personal.year'),
          years.map((year) => (
            <option key={year} value={String(year)}>
              {year}
            </option>
          )),
          1.4,
        )}
      </Stack>
      {dobError && (
        <FormHelperText id={dobErrorId} error data-testid="personal-dob-error" sx={{ mx: 1.75 }}>
          {dobError}
        </FormHelperText>
      )}
    </Box>
  )
}
