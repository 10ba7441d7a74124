import Alert from '@mui/material/Alert'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'

/**
 * What an admin dialog that records a reason asks for (an action on a sale,
 * an explained reconciliation difference): the server's refusal if the last
 * try failed, and the required reason, up to the 1,000 characters the
 * contracts allow.
 */
export function ReasonFields({
  field,
  label,
  hint,
  error,
  failure,
  testId,
}: {
  field: UseFormRegisterReturn<'reason'>
  label: string
  hint: string
  /** The field's own problem, already translated. */
  error: string | undefined
  /** The call's error, when the last try failed. */
  failure: unknown
  testId: string
}) {
  const { t } = useTranslation()
  return (
    <Stack spacing={2}>
      {failure !== null && failure !== undefined && <Alert severity="error">{errorMessage(t, failure)}</Alert>}
      <TextField
        label={label}
        required
        multiline
        minRows={2}
        autoFocus
        {...field}
        error={!!error}
        helperText={error ?? hint}
        slotProps={{ htmlInput: { 'data-testid': testId, maxLength: 1000 } }}
      />
    </Stack>
  )
}
