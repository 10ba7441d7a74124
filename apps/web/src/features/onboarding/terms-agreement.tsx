import Checkbox from '@mui/material/Checkbox'
import FormControl from '@mui/material/FormControl'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import Link from '@mui/material/Link'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { termsPath } from '../../lib/terms-path.ts'

/** The "I agree to the terms of service" checkbox with a link to the terms (opened in a new tab: the dialog blocks). */
export function TermsAgreement({
  checked,
  error,
  onChange,
  disabled,
}: {
  checked: boolean
  error?: string
  onChange: (checked: boolean) => void
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const errorId = useId()
  return (
    <FormControl error={Boolean(error)} sx={{ mt: 2, display: 'flex' }}>
      <Link href={termsPath} target="_blank" rel="noopener" sx={{ alignSelf: 'flex-start', mb: 0.5 }}>
        {t('onboarding.terms.read')} <span>{t('onboarding.terms.newTab')}</span>
      </Link>
      <FormControlLabel
        control={
          <Checkbox
            checked={checked}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{
              input: {
                'aria-invalid': Boolean(error),
                'aria-describedby': error ? errorId : undefined,
              } as React.InputHTMLAttributes<HTMLInputElement>,
            }}
            data-testid="terms-agree-checkbox"
          />
        }
        label={t('onboarding.terms.agree')}
      />
      {error && <FormHelperText id={errorId}>{error}</FormHelperText>}
    </FormControl>
  )
}
