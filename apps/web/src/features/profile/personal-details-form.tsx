import SaveIcon from '@mui/icons-material/SaveOutlined'
import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { BusinessType } from '@pactum/contracts/profile'
import { countryByCode, usStates } from '@pactum/domain/countries'
import { type ReactNode, useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { DateOfBirthField } from './date-of-birth-field.tsx'
import { divisionOf, postalCodeShown } from './personal-details-model.ts'
import { usePersonalDetailsForm } from './use-personal-details-form.ts'
import { BusyButton } from '../../components/busy-button.tsx'

/** As @pactum/contracts/profile `businessTypes`, without pulling zod into the page. */
const businessTypes: readonly BusinessType[] = ['individual', 'company']

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Box>
  )
}

/** The editable personal details of /profile/details (PUT /me/personal). */
export function PersonalDetailsForm({ profile, activeCountry }: { profile: PersonalProfile; activeCountry: string }) {
  const { t } = useTranslation()
  const form = usePersonalDetailsForm(profile, activeCountry)
  const { values, errors, busy, field, errorText, countryName, dialOptions } = form
  const country = countryByCode(activeCountry)
  const division = divisionOf(country)
  const hasPostalCode = postalCodeShown(country)

  const nativeSelect = { select: { native: true }, inputLabel: { shrink: true } } as const
  /** A plain text field whose value, error and label all go by `key`. */
  const textField = (key: 'firstName' | 'lastName' | 'line1' | 'line2' | 'city' | 'postalCode', testId: string, autoComplete: string) => (
    <TextField {...field(key, key, testId)} label={t(`profile.personal.${key}`)} required={key !== 'line2'} autoComplete={autoComplete} />
  )

  return (
    <form
      onSubmit={(event) => void form.submit(event)}
      noValidate
      aria-labelledby="personal-form-title"
      data-testid="personal-details-form"
    >
      <Typography id="personal-form-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('profile.personal.formTitle')}
      </Typography>
      <Stack spacing={4} sx={{ maxWidth: 560 }}>
        <Section title={t('profile.personal.sections.personal')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {textField('firstName', 'personal-first-name', 'given-name')}
            {textField('lastName', 'personal-last-name', 'family-name')}
          </Stack>
          <DateOfBirthField form={form} />
          <TextField
            {...field('businessType', 'businessType', 'personal-business-type', { select: true, slotProps: nativeSelect })}
            label={t('profile.personal.businessType')}
            required
          >
            {businessTypes.map((type) => (
              <option key={type} value={type}>
                {t(`profile.personal.businessTypes.${type}`)}
              </option>
            ))}
          </TextField>
          {values.businessType === 'company' && (
            <TextField
              {...field('businessUrl', 'businessUrl', 'personal-business-url', {
                type: 'url',
                helperText: errorText(errors.businessUrl) ?? t('profile.personal.businessUrlHint'),
                slotProps: { htmlInput: { maxLength: 2000, spellCheck: false } },
              })}
              label={t('profile.personal.businessUrl')}
              autoComplete="url"
            />
          )}
        </Section>

        <Section title={t('profile.personal.sections.contact')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              {...field('phone', 'phoneCountry', 'personal-phone-country', { select: true, slotProps: nativeSelect })}
              helperText={undefined}
              label={t('profile.personal.dialCode')}
              autoComplete="tel-country-code"
              sx={{ flex: { sm: 1 } }}
            >
              {dialOptions.map((option) => (
                <option key={option.code} value={option.code}>
                  {option.label}
                </option>
              ))}
            </TextField>
            <TextField
              {...field('phone', 'phoneNumber', 'personal-phone', { type: 'tel' })}
              label={t('profile.personal.phone')}
              required
              autoComplete="tel-national"
              sx={{ flex: { sm: 1.3 } }}
            />
          </Stack>
        </Section>

        <Section title={t('profile.personal.sections.address')}>
          {textField('line1', 'personal-address-line1', 'address-line1')}
          {textField('line2', 'personal-address-line2', 'address-line2')}
          {textField('city', 'personal-address-city', 'address-level2')}
          {division.shown &&
            (division.usStates ? (
              <TextField
                {...field('state', 'state', 'personal-address-state', { select: true, slotProps: nativeSelect })}
                label={t('profile.personal.divisions.state')}
                required={division.required}
                autoComplete="address-level1"
              >
                <option value="">{t('profile.personal.choose')}</option>
                {usStates.map((state) => (
                  <option key={state.abbreviation} value={state.abbreviation}>
                    {state.name}
                  </option>
                ))}
              </TextField>
            ) : (
              <TextField
                {...field('state', 'state', 'personal-address-state')}
                label={t(`profile.personal.divisions.${country?.divisionLabel ?? 'state'}`)}
                required={division.required}
                autoComplete="address-level1"
              />
            ))}
          {hasPostalCode && textField('postalCode', 'personal-address-postal-code', 'postal-code')}
          <TextField
            label={t('profile.personal.country')}
            value={countryName(activeCountry)}
            fullWidth
            helperText={t('profile.personal.countryHint')}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'personal-address-country' } }}
          />
        </Section>

        <Box>
          <BusyButton
            type="submit"
            variant="contained"
            size="large"
            busy={busy}
            startIcon={<SaveIcon aria-hidden />}
            data-testid="personal-details-save"
          >
            {t('profile.personal.save')}
          </BusyButton>
        </Box>
      </Stack>
    </form>
  )
}
