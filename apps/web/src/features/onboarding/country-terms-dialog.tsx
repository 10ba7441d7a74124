import Autocomplete from '@mui/material/Autocomplete'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import TextField from '@mui/material/TextField'
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useMemo, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocation, useNavigate } from 'react-router'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { afterOnboarding } from './after-onboarding.ts'
import { acceptTermsDirect, localisedCountryNames, type SupportedCountry, setActiveCountry, useSupportedCountries } from './onboarding-api.ts'
import { reloadPage } from './reload-page.ts'
import { TermsAgreement } from './terms-agreement.tsx'

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
  const titleId = useId()
  const introId = useId()
  const countries = useSupportedCountries()
  const options = useMemo(
    () => localisedCountryNames(countries.data ?? [], i18n.language),
    [countries.data, i18n.language],
  )
  const [country, setCountry] = useState<SupportedCountry | null>(null)
  const [agreed, setAgreed] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)

  const required = t('onboarding.validation.required')
  const mustAgree = t('onboarding.validation.mustAgree')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
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
    <Dialog
      open={open}
      aria-labelledby={titleId}
      aria-describedby={introId}
      fullWidth
      maxWidth="sm"
      data-testid="country-dialog"
    >
      <DialogTitle id={titleId} component="h2">
        {t('onboarding.country.title')}
      </DialogTitle>
      <form onSubmit={(event) => void submit(event)} noValidate style={{ display: 'contents' }}>
        <DialogContent>
          <DialogContentText id={introId} sx={{ mb: 2 }}>
            {t('onboarding.country.intro')}
          </DialogContentText>
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
          <TermsAgreement
            checked={agreed}
            disabled={busy}
            error={errors.terms}
            onChange={(checked) => {
              setAgreed(checked)
              setErrors((current) => ({ ...current, terms: checked ? undefined : mustAgree }))
            }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button
            type="submit"
            variant="contained"
            disabled={!country || !agreed || busy}
            loading={busy}
            loadingPosition="start"
            data-testid="country-dialog-submit"
          >
            {t('onboarding.country.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}
