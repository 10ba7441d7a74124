import { type Locale, normaliseLocale, supportedLocales } from '@pactum/domain/locales'
import TextField from '@mui/material/TextField'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { languageNames } from '../../i18n/language-names.ts'
import { useLocale } from '../../i18n/use-locale.ts'

/** A native select: keyboard, screen readers and phones all handle it well. */
export function LanguagePicker() {
  const { t } = useTranslation()
  const { locale, setLocale } = useLocale()
  const id = useId()
  return (
    <TextField
      select
      id={id}
      label={t('shell.language')}
      value={locale}
      onChange={(event) => void setLocale(normaliseLocale(event.target.value))}
      size="small"
      fullWidth
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'language-picker' } }}
    >
      {supportedLocales.map((option: Locale) => (
        <option key={option} value={option} lang={option.split('_')[0]}>
          {languageNames[option]}
        </option>
      ))}
    </TextField>
  )
}
