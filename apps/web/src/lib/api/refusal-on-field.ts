import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'

/**
 * Shows the server's refusal under the form field it names (`field`, null
 * when it names none of them), focused, as an error of type 'server' that the
 * form reads as written. False when there is no field: the caller says it
 * another way.
 */
export function putRefusalOnField<T extends FieldValues>(setError: UseFormSetError<T>, field: Path<T> | null, message: string): boolean {
  if (field === null) return false
  setError(field, { type: 'server', message }, { shouldFocus: true })
  return true
}
