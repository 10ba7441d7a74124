import SaveIcon from '@mui/icons-material/SaveOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import FormHelperText from '@mui/material/FormHelperText'
import Stack from '@mui/material/Stack'
import TextField, { type TextFieldProps } from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { BusinessType } from '@pactum/contracts/profile'
import { countryByCode, supportedCountries, usStates } from '@pactum/domain/countries'
import { toLanguageTag } from '@pactum/domain/locales'
import { type ChangeEvent, type FormEvent, type ReactNode, useId, useMemo, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useLocale } from '../../i18n/use-locale.ts'
import {
  businessUrlToSave,
  divisionOf,
  type FieldError,
  initialValues,
  type PersonalDetailsErrors,
  type PersonalDetailsField,
  type PersonalDetailsValues,
  postalCodeShown,
  serverFieldErrors,
  updateBody,
  validatePersonalDetails,
} from './personal-details-model.ts'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { useSaveBusinessUrl, useUpdatePersonalProfile } from './profile-api.ts'

/** As @pactum/contracts/profile `businessTypes`, without pulling zod into the page. */
const businessTypes: readonly BusinessType[] = ['individual', 'company']

/** Which value keys feed which error field (the date of birth and phone are made of several inputs). */
const fieldOfValue: Record<keyof PersonalDetailsValues, PersonalDetailsField> = {
  businessType: 'businessType',
  firstName: 'firstName',
  lastName: 'lastName',
  dobDay: 'dob',
  dobMonth: 'dob',
  dobYear: 'dob',
  phoneCountry: 'phone',
  phoneNumber: 'phone',
  line1: 'line1',
  line2: 'line2',
  city: 'city',
  state: 'state',
  postalCode: 'postalCode',
  businessUrl: 'businessUrl',
}

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
  const { locale } = useLocale()
  const snackbar = useInvalidFormSnackbar()
  const resultModal = useResultModal()
  const update = useUpdatePersonalProfile()
  const saveBusinessUrl = useSaveBusinessUrl()
  const dobErrorId = useId()
  const [values, setValues] = useState<PersonalDetailsValues>(() => initialValues(profile, activeCountry))
  const [errors, setErrors] = useState<PersonalDetailsErrors>({})
  const busy = update.isPending || saveBusinessUrl.isPending

  const country = countryByCode(activeCountry)
  const division = divisionOf(country)
  const hasPostalCode = postalCodeShown(country)
  const languageTag = toLanguageTag(locale)

  const countryName = useMemo(() => {
    let names: Intl.DisplayNames | undefined
    try {
      names = new Intl.DisplayNames([languageTag], { type: 'region' })
    } catch {
      names = undefined
    }
    return (code: string) => names?.of(code.toUpperCase()) ?? countryByCode(code)?.name ?? code.toUpperCase()
  }, [languageTag])

  const dialOptions = useMemo(
    () =>
      supportedCountries
        .map((entry) => ({ code: entry.code, label: `${countryName(entry.code)} (${entry.dialCode})` }))
        .sort((a, b) => a.label.localeCompare(b.label, languageTag)),
    [countryName, languageTag],
  )
  const monthNames = useMemo(() => {
    const format = new Intl.DateTimeFormat(languageTag, { month: 'long', timeZone: 'UTC' })
    return Array.from({ length: 12 }, (_, index) => format.format(new Date(Date.UTC(2000, index, 1))))
  }, [languageTag])
  const currentYear = new Date().getFullYear()
  const years = Array.from({ length: currentYear - 1900 + 1 }, (_, index) => currentYear - index)

  const errorText = (error: FieldError | undefined): string | undefined => {
    if (!error) return undefined
    return t(`profile.personal.errors.${error}`)
  }

  const change = (key: keyof PersonalDetailsValues) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const next = { ...values, [key]: event.target.value }
    setValues(next)
    const field = fieldOfValue[key]
    // An error, once shown, follows the field as it is corrected.
    if (errors[field]) {
      const found = validatePersonalDetails(next, activeCountry)
      setErrors((current) => ({ ...current, [field]: found[field] }))
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const found = validatePersonalDetails(values, activeCountry)
    setErrors(found)
    if (Object.keys(found).length > 0) {
      snackbar.show()
      return
    }
    try {
      await update.mutateAsync(updateBody(values, activeCountry))
      const businessUrl = businessUrlToSave(values, profile.business_url ?? '')
      if (businessUrl !== undefined) await saveBusinessUrl.mutateAsync(businessUrl)
      resultModal.showSuccess(t('profile.personal.saved'))
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        const fromServer = serverFieldErrors(error.details)
        if (Object.keys(fromServer).length > 0) {
          setErrors(fromServer)
          snackbar.show()
          return
        }
      }
      resultModal.showError(errorMessage(t, error))
    }
  }

  const field = (name: PersonalDetailsField, key: keyof PersonalDetailsValues, testId: string, extra: TextFieldProps = {}) => {
    const { slotProps, ...rest } = extra
    return {
      value: values[key],
      onChange: change(key),
      error: Boolean(errors[name]),
      helperText: errorText(errors[name]),
      disabled: busy,
      fullWidth: true,
      ...rest,
      slotProps: { ...slotProps, htmlInput: { 'data-testid': testId, ...(slotProps?.htmlInput as object) } },
    } satisfies TextFieldProps
  }

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

  const nativeSelect = { select: { native: true }, inputLabel: { shrink: true } } as const

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="personal-form-title" data-testid="personal-details-form">
      <Typography id="personal-form-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('profile.personal.formTitle')}
      </Typography>
      <Stack spacing={4} sx={{ maxWidth: 560 }}>
        <Section title={t('profile.personal.sections.personal')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField {...field('firstName', 'firstName', 'personal-first-name')} label={t('profile.personal.firstName')} required autoComplete="given-name" />
            <TextField {...field('lastName', 'lastName', 'personal-last-name')} label={t('profile.personal.lastName')} required autoComplete="family-name" />
          </Stack>
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
          <TextField {...field('line1', 'line1', 'personal-address-line1')} label={t('profile.personal.line1')} required autoComplete="address-line1" />
          <TextField {...field('line2', 'line2', 'personal-address-line2')} label={t('profile.personal.line2')} autoComplete="address-line2" />
          <TextField {...field('city', 'city', 'personal-address-city')} label={t('profile.personal.city')} required autoComplete="address-level2" />
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
          {hasPostalCode && (
            <TextField
              {...field('postalCode', 'postalCode', 'personal-address-postal-code')}
              label={t('profile.personal.postalCode')}
              required
              autoComplete="postal-code"
            />
          )}
          <TextField
            label={t('profile.personal.country')}
            value={countryName(activeCountry)}
            fullWidth
            helperText={t('profile.personal.countryHint')}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'personal-address-country' } }}
          />
        </Section>

        <Box>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={busy}
            loading={busy}
            loadingPosition="start"
            startIcon={<SaveIcon aria-hidden />}
            data-testid="personal-details-save"
          >
            {t('profile.personal.save')}
          </Button>
        </Box>
      </Stack>
    </form>
  )
}
