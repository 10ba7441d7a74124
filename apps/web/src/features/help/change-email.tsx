import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import TextField from '@mui/material/TextField'
import { type ChangeEmailBody, changeEmailBodySchema } from '@pactum/contracts/me'
import { useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useChangeEmail } from '../../lib/api/change-email.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { AccountForm, AccountFormSubmit, CurrentPasswordField } from './account-form.tsx'
import { AccountSection } from './account-section.tsx'

/** The form's refusals, each said next to its field; anything else below the form. */
const fieldOfCode: Partial<Record<string, keyof ChangeEmailBody>> = {
  incorrect_password: 'current_password',
  validation_failed: 'new_email',
}

/**
 * Change of sign-in address (embedded sign-in only, issue 30): the new
 * address and the current password. The address changes when the person
 * opens the link sent to the new one; the current one is told.
 */
export function ChangeEmail() {
  const { t } = useTranslation()
  const change = useChangeEmail()
  const form = useForm<ChangeEmailBody>({
    resolver: zodResolver(changeEmailBodySchema),
    defaultValues: { new_email: '', current_password: '' },
  })
  const submit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values)
      form.reset()
    } catch (error) {
      const field = fieldOfCode[errorCodeOf(error)]
      if (field) form.setError(field, { message: errorCodeOf(error) }, { shouldFocus: true })
    }
  })
  const { errors } = form.formState
  const emailError =
    errors.new_email &&
    (errors.new_email.message === 'validation_failed' ? t('help.account.changeEmail.same') : t('help.account.changeEmail.invalid'))
  const passwordError =
    errors.current_password &&
    (errors.current_password.message === 'incorrect_password'
      ? t('help.account.changeEmail.incorrectPassword')
      : t('help.account.changeEmail.passwordRequired'))
  const otherError = change.isError && !fieldOfCode[errorCodeOf(change.error)]

  return (
    <AccountSection heading={t('help.account.changeEmail.heading')} intro={t('help.account.changeEmail.intro')}>
      <AccountForm onSubmit={submit} testId="change-email">
        <TextField
          {...form.register('new_email')}
          type="email"
          autoComplete="email"
          required
          label={t('help.account.changeEmail.newEmail')}
          error={!!emailError}
          helperText={emailError}
          slotProps={{ htmlInput: { maxLength: 254, 'data-testid': 'change-email-new' } }}
        />
        <CurrentPasswordField
          registration={form.register('current_password')}
          label={t('help.account.changeEmail.currentPassword')}
          error={passwordError}
          testId="change-email-password"
        />
        <AccountFormSubmit loading={change.isPending} data-testid="change-email-submit">
          {t('help.account.changeEmail.submit')}
        </AccountFormSubmit>
        {change.isSuccess && (
          <Alert severity="success" role="status" data-testid="change-email-sent">
            {t('help.account.changeEmail.sent', { email: change.data.email })}
          </Alert>
        )}
        {otherError && (
          <Alert severity="error" role="alert">
            {errorMessage(t, change.error)}
          </Alert>
        )}
      </AccountForm>
    </AccountSection>
  )
}
