import type { ReactNode } from 'react'
import { useTranslation } from './react.tsx'
import { dictionaryComplete } from './i18n.ts'

type Tracked = Promise<void> & { status?: 'fulfilled' | 'rejected'; reason?: unknown }

/**
 * Suspends until the whole dictionary of the current language is in: the
 * first screen renders with only its own part (dictionary-sections.ts), and
 * anything loaded later waits here instead of showing untranslated keys.
 * It throws the promise, as React.lazy does, rather than calling `use`: the
 * promise is created outside render and settles on its own, and a rejection
 * reaches the nearest error boundary (a page's "could not load" message).
 */
export function CompleteDictionary({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  const complete = dictionaryComplete(i18n) as Tracked
  if (complete.status === 'rejected') throw complete.reason
  if (complete.status !== 'fulfilled') throw complete
  return children
}
