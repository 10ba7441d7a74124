import Typography from '@mui/material/Typography'
import { type RefObject, useEffect, useRef } from 'react'
import { useTranslation } from '../../i18n/react.tsx'

/** "Step 2 of 3" and what the step asks; the form is labelled by it. */
export function StepHeading({
  id,
  headingRef,
  step,
  steps,
}: {
  id: string
  headingRef: RefObject<HTMLHeadingElement | null>
  step: number
  steps: readonly string[]
}) {
  const { t } = useTranslation()
  return (
    <>
      <Typography component="h2" variant="h6" data-testid="step-counter" ref={headingRef} tabIndex={-1} id={id} sx={{ outline: 'none' }}>
        {t('createTransaction.stepCounter', { current: step + 1, total: steps.length })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t(steps[step] ?? '')}
      </Typography>
    </>
  )
}

/** Moves focus to the new step's heading so keyboard and screen-reader users follow along (not on the first render). */
export function useFocusOnStep(headingRef: RefObject<HTMLHeadingElement | null>, step: number, done: unknown) {
  const firstRender = useRef(true)
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    headingRef.current?.focus()
  }, [headingRef, step, done])
}
