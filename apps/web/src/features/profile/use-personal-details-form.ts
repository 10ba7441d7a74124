import type { TextFieldProps } from '@mui/material/TextField'
import { countryByCode, supportedCountries } from '@pactum/domain/countries'
import { toLanguageTag } from '@pactum/domain/locales'
import { type ChangeEvent, type FormEvent, useMemo, useState } from 'react'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useShowFirstInvalid } from '../../lib/forms/use-show-first-invalid.ts'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import {
  businessUrlToSave,
  type FieldError,
  initialValues,
  type PersonalDetailsErrors,
  type PersonalDetailsField,
  type PersonalDetailsValues,
  serverFieldErrors,
  updateBody,
  validatePersonalDetails,
} from './personal-details-model.ts'
import { useSaveBusinessUrl, useUpdatePersonalProfile } from './profile-api.ts'

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

/**
 * The personal details form's values, errors and saving (PUT /me/personal,
 * then the business URL where it changed), with the props that bind a field
 * to them and the country names the form shows.
 */
export function usePersonalDetailsForm(profile: PersonalProfile, activeCountry: string) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const showFirstInvalid = useShowFirstInvalid()
  const resultModal = useResultModal()
  const toast = useToast()
  const update = useUpdatePersonalProfile()
  const saveBusinessUrl = useSaveBusinessUrl()
  const [values, setValues] = useState<PersonalDetailsValues>(() => initialValues(profile, activeCountry))
  const [errors, setErrors] = useState<PersonalDetailsErrors>({})
  const busy = update.isPending || saveBusinessUrl.isPending

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

  /** Shows the errors, then takes the person to the first of them and names it (issue 33 item 4). */
  const refuse = (form: HTMLElement, found: PersonalDetailsErrors) => {
    setErrors(found)
    showFirstInvalid(form)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const form = event.currentTarget
    const found = validatePersonalDetails(values, activeCountry)
    if (Object.keys(found).length > 0) {
      refuse(form, found)
      return
    }
    setErrors(found)
    try {
      await update.mutateAsync(updateBody(values, activeCountry))
      const businessUrl = businessUrlToSave(values, profile.business_url ?? '')
      if (businessUrl !== undefined) await saveBusinessUrl.mutateAsync(businessUrl)
      // A small save: confirmed by a toast, the full-screen result is kept for money and sales (issue 33 item 4).
      toast.show(t('profile.personal.saved'), { severity: 'success' })
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        const fromServer = serverFieldErrors(error.details)
        if (Object.keys(fromServer).length > 0) {
          refuse(form, fromServer)
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

  return { values, errors, busy, change, submit, field, errorText, countryName, dialOptions, monthNames, years }
}

export type PersonalDetailsFormState = ReturnType<typeof usePersonalDetailsForm>
