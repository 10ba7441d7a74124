import { type ReactNode, Suspense, useState } from 'react'
import { CompleteDictionary } from '../i18n/complete-dictionary.tsx'
import { FallbackOnError } from './fallback-on-error.tsx'

/**
 * Renders `children` (typically a React.lazy dialog or snackbar) from the
 * first time `when` is true, and keeps it mounted afterwards so its closing
 * transition still plays. Until then its chunk is not even requested: the
 * shell's overlays stay out of the first load (issue 13, 180 kB budget).
 * Like a lazy page, it waits for the complete dictionary. An overlay whose
 * chunk fails to load leaves the page usable instead of unmounting it.
 */
export function Deferred({ when, children }: { when: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(when)
  if (when && !wanted) setWanted(true)
  if (!wanted) return null
  return (
    <FallbackOnError fallback={null}>
      <Suspense fallback={null}>
        <CompleteDictionary>{children}</CompleteDictionary>
      </Suspense>
    </FallbackOnError>
  )
}
