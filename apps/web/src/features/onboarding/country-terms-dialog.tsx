import Autocomplete from '@mui/material/Autocomplete'
import Button from '@mui/material/Button'
import TextField from '@mui/material/TextField'
import { useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocation, useNavigate } from 'react-router'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { afterOnboarding } from './after-onboarding.ts'
import {
  acceptTermsDirect,
  localisedCountryNames,
  type SupportedCountry,
  setActiveCountry,
  useSupportedCountries,
} from './onboarding-api.ts'
import { reloadPage } from './reload-page.ts'
import { TermsDialog } from './terms-dialog.tsx'

/** Spec §5: the invalid-form snackbar and the error modal of this flow flash for 1 s. */
export const onboardingFlashMs = 1000

interface Errors {
  country?: string
  terms?: string
}

/**
 * Spec §2/§4/§5: shown, and not dismissable, while the person has no country.
 * Sets the country (204), accepts the terms (200), then reloads or moves on.
 */
export function CountryTermsDialog({ open }: { open: boolean }) {
  const { t, i18n } = useTranslation()
  const api = useApiClient()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { search } = useLocation()
  const snackbar = useInvalidFormSnackbar()
  const resultModal = useResultModal()
  const countries = useSupportedCountries()
  const options = useMemo(() => localisedCountryNames(countries.data ?? [], i18n.language), [countries.data, i18n.language])
  const [country, setCountry] = useState<SupportedCountry | null>(null)
  const [agreed, setAgreed] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)

  const required = t('onboarding.validation.required')
  const mustAgree = t('onboarding.validation.mustAgree')

  const submit = async () => {
    setErrors({ country: country ? undefined : required, terms: agreed ? undefined : mustAgree })
    if (!country || !agreed) {
      snackbar.show(undefined, onboardingFlashMs)
      return
    }
    setBusy(true)
    try {
      await setActiveCountry(api, country.code)
      await acceptTermsDirect(api)
    } catch (error) {
      setBusy(false)
      resultModal.showError(errorMessage(t, error), { autoCloseMs: onboardingFlashMs })
      return
    }
    const next = afterOnboarding(search)
    if (next.kind === 'reload') {
      reloadPage()
      return
    }
    void navigate(next.to, { replace: true })
    // The refetched profile no longer answers 409, which closes this dialog.
    void queryClient.invalidateQueries({ queryKey: ['me'] })
  }

  return (
    <TermsDialog
      open={open}
      title={t('onboarding.country.title')}
      intro={t('onboarding.country.intro')}
      agreed={agreed}
      agreementError={errors.terms}
      onAgreedChange={(checked) => {
        setAgreed(checked)
        setErrors((current) => ({ ...current, terms: checked ? undefined : mustAgree }))
      }}
      busy={busy}
      ready={country !== null && agreed}
      submitLabel={t('onboarding.country.submit')}
      onSubmit={submit}
      testId="country-dialog"
      submitTestId="country-dialog-submit"
    >
      <Autocomplete
        options={options}
        value={country}
        onChange={(_, value) => {
          setCountry(value)
          setErrors((current) => ({ ...current, country: value ? undefined : required }))
        }}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, value) => option.code === value.code}
        loading={countries.isPending}
        loadingText={t('app.loading')}
        noOptionsText={countries.isError ? t('onboarding.country.loadFailed') : t('onboarding.country.noOptions')}
        disabled={busy}
        autoHighlight
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('onboarding.country.label')}
            required
            error={Boolean(errors.country)}
            helperText={errors.country}
            onBlur={() => {
              if (!country) setErrors((current) => ({ ...current, country: required }))
            }}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'country-input' },
            }}
          />
        )}
      />
      {countries.isError && (
        <Button size="small" onClick={() => void countries.refetch()} sx={{ mt: 1 }}>
          {t('common.retry')}
        </Button>
      )}
    </TermsDialog>
  )
}
