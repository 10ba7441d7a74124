import { useCallback } from 'react'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { focusFirstInvalid } from './focus-first-invalid.ts'

/**
 * After a form was refused (by its own checks or the server's), takes the
 * person to the first invalid field and names it in the invalid-form
 * snackbar; the generic words only when no field is marked. Call it in the
 * same handler that sets the errors: it waits for the render that marks
 * the fields.
 */
export function useShowFirstInvalid(): (form: HTMLElement) => void {
  const { t } = useTranslation()
  const snackbar = useInvalidFormSnackbar()
  return useCallback(
    (form: HTMLElement) => {
      setTimeout(() => {
        const name = focusFirstInvalid(form)
        snackbar.show(name ? t('feedback.checkField', { field: name }) : undefined)
      }, 0)
    },
    [snackbar, t],
  )
}
