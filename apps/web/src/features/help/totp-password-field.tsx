import { zodResolver } from '@hookform/resolvers/zod'
import { type TotpPasswordBody, totpPasswordBodySchema } from '@pactum/contracts/totp'
import { useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { errorCodeOf } from '../../lib/api/error-message.ts'
import { CurrentPasswordField } from './account-form.tsx'

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
    <CurrentPasswordField
      registration={form.register('current_password')}
      label={t('help.account.totp.currentPassword')}
      error={error}
      testId={testId}
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
