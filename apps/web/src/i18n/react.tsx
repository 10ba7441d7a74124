import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react'
import type { TFunction, Translator } from './translator.ts'

const TranslatorContext = createContext<Translator | null>(null)

export function TranslationProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={i18n}>{children}</TranslatorContext.Provider>
}

/**
 * `t` in the current language, and the translator. The component renders
 * again when the language changes (and `t` is a new function then, so that
 * memoised texts are made again).
 */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  const i18n = useContext(TranslatorContext)
  if (!i18n) throw new Error('useTranslation outside a TranslationProvider')
  const language = useSyncExternalStore(
    (changed) => i18n.onLanguageChanged(changed),
    () => i18n.language,
  )
  const t = useMemo<TFunction>(() => (key, options) => i18n.translate(language, key, options), [i18n, language])
  return { t, i18n }
}
