import { languageNames, type Locale, normaliseLocale, supportedLocales } from '@pactum/domain/locales'
import { useId } from 'react'
import { OutlinedNativeSelect } from '../../components/outlined-field.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'

/**
 * A native select: keyboard, screen readers and phones all handle it well.
 * Not `TextField select` (the menu-based Select) nor MUI's NativeSelect: both
 * bring MUI's input stack into the shell's first load.
 */
export function LanguagePicker() {
  const { t } = useTranslation()
  const { locale, setLocale } = useLocale()
  const id = useId()
  return (
    <OutlinedNativeSelect
      id={id}
      label={t('shell.language')}
      value={locale}
      onChange={(event) => void setLocale(normaliseLocale(event.target.value))}
      data-testid="language-picker"
    >
      {supportedLocales.map((option: Locale) => (
        <option key={option} value={option} lang={option.split('_')[0]}>
          {languageNames[option]}
        </option>
      ))}
    </OutlinedNativeSelect>
  )
}
