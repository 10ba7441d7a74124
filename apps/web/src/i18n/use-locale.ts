import type { Locale } from '@pactum/domain/locales'
import { useCallback } from 'react'
import { useTranslation } from './react.tsx'
import { changeLocale, localeOf } from './i18n.ts'
import { writeLocaleCookie } from './locale-cookie.ts'

/** The interface language and a way to change it that survives the next visit. */
export function useLocale(): { locale: Locale; setLocale: (locale: Locale) => Promise<void> } {
  const { i18n } = useTranslation()
  const setLocale = useCallback(
    async (locale: Locale) => {
      writeLocaleCookie(locale)
      await changeLocale(i18n, locale)
    },
    [i18n],
  )
  return { locale: localeOf(i18n), setLocale }
}
