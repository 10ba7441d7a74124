import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { type ChangeEmailBody, changeEmailBodySchema } from '@pactum/contracts/me'
import { useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useChangeEmail } from '../../lib/api/change-email.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
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
      <Stack
        component="form"
        noValidate
        spacing={2}
        sx={{ maxWidth: 420 }}
        onSubmit={(event) => void submit(event)}
        data-testid="change-email"
      >
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
        <TextField
          {...form.register('current_password')}
          type="password"
          autoComplete="current-password"
          required
          label={t('help.account.changeEmail.currentPassword')}
          error={!!passwordError}
          helperText={passwordError}
          slotProps={{ htmlInput: { maxLength: 1024, 'data-testid': 'change-email-password' } }}
        />
        <div>
          <Button type="submit" variant="outlined" loading={change.isPending} data-testid="change-email-submit">
            {t('help.account.changeEmail.submit')}
          </Button>
        </div>
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
      </Stack>
    </AccountSection>
  )
}
