import { type Locale, normaliseLocale, supportedLocales } from '@pactum/domain/locales'
import FormControl from '@mui/material/FormControl'
import InputLabel from '@mui/material/InputLabel'
import NativeSelect from '@mui/material/NativeSelect'
import OutlinedInput from '@mui/material/OutlinedInput'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { languageNames } from '../../i18n/language-names.ts'
import { useLocale } from '../../i18n/use-locale.ts'

/**
 * A native select: keyboard, screen readers and phones all handle it well.
 * Built from NativeSelect rather than `TextField select`, which would bring
 * the menu-based Select into the shell's first load.
 */
export function LanguagePicker() {
  const { t } = useTranslation()
  const { locale, setLocale } = useLocale()
  const id = useId()
  return (
    <FormControl size="small" fullWidth>
      <InputLabel htmlFor={id}>{t('shell.language')}</InputLabel>
      <NativeSelect
        id={id}
        value={locale}
        onChange={(event) => void setLocale(normaliseLocale(event.target.value))}
        input={<OutlinedInput label={t('shell.language')} />}
        inputProps={{ 'data-testid': 'language-picker' } as object}
      >
        {supportedLocales.map((option: Locale) => (
          <option key={option} value={option} lang={option.split('_')[0]}>
            {languageNames[option]}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  )
}
