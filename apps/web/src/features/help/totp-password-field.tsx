import { zodResolver } from '@hookform/resolvers/zod'
import TextField from '@mui/material/TextField'
import { type TotpPasswordBody, totpPasswordBodySchema } from '@pactum/contracts/totp'
import { useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { errorCodeOf } from '../../lib/api/error-message.ts'

/** The account password that setting up or removing the authenticator app asks for. */
export function PasswordField({
  form,
  error,
  testId,
}: {
  form: ReturnType<typeof useForm<TotpPasswordBody>>
  error: string | undefined
  testId: string
}) {
  const { t } = useTranslation()
  return (
    <TextField
      {...form.register('current_password')}
      type="password"
      autoComplete="current-password"
      required
      label={t('help.account.totp.currentPassword')}
      error={!!error}
      helperText={error}
      slotProps={{ htmlInput: { maxLength: 1024, 'data-testid': testId } }}
    />
  )
}

/** The password's error: wrong (the server said so) or missing (the schema). */
export function usePasswordForm() {
  const { t } = useTranslation()
  const form = useForm<TotpPasswordBody>({ resolver: zodResolver(totpPasswordBodySchema), defaultValues: { current_password: '' } })
  const problem = form.formState.errors.current_password
  const error = problem && t(problem.message === 'incorrect' ? 'help.account.totp.incorrectPassword' : 'help.account.totp.passwordRequired')
  const refuse = (caught: unknown) => {
    if (errorCodeOf(caught) === 'incorrect_password') form.setError('current_password', { message: 'incorrect' }, { shouldFocus: true })
  }
  return { form, error, refuse }
}
