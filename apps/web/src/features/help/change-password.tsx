import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import TextField from '@mui/material/TextField'
import { passwordMaxLength, passwordMinLength, passwordProblems } from '@pactum/domain/password'
import { type ChangePassword as ChangePasswordBody, changePasswordSchema } from '@pactum/contracts/me'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { useChangePassword } from './change-password-api.ts'
import { AccountForm, AccountFormSubmit } from './account-form.tsx'
import { AccountSection } from './account-section.tsx'

/**
 * Change password (embedded sign-in only): the current password and a new
 * one, checked with the server's own schema (the registration page's rule).
 * A wrong current password is said next to its field; the server signs out
 * every other session, this one stays.
 */
export function ChangePassword({ email }: { email: string | undefined }) {
  const { t } = useTranslation()
  const change = useChangePassword()
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { current_password: '', new_password: '' },
  })
  const submit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values)
      form.reset()
    } catch (error) {
      if (errorCodeOf(error) === 'incorrect_password') {
        form.setError('current_password', { message: 'incorrect' }, { shouldFocus: true })
      }
    }
  })
  const currentError = form.formState.errors.current_password?.message
  // Every rule the new password breaks, not only the first the schema reported.
  const newErrors = form.formState.errors.new_password ? passwordProblems(form.getValues('new_password')) : []
  const otherError = change.isError && errorCodeOf(change.error) !== 'incorrect_password'

  return (
    <AccountSection heading={t('help.account.password.heading')} intro={t('help.account.password.intro')}>
      <AccountForm onSubmit={submit} testId="change-password">
        {/* For password managers: whose password this is. */}
        <input type="text" name="username" autoComplete="username" value={email ?? ''} hidden readOnly />
        <Controller
          control={form.control}
          name="current_password"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              type="password"
              autoComplete="current-password"
              required
              label={t('help.account.password.current')}
              error={!!currentError}
              helperText={
                currentError
                  ? t(currentError === 'incorrect' ? 'help.account.password.incorrect' : 'help.account.password.currentRequired')
                  : undefined
              }
              slotProps={{ htmlInput: { maxLength: passwordMaxLength, 'data-testid': 'current-password' } }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="new_password"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              type="password"
              autoComplete="new-password"
              required
              label={t('help.account.password.new')}
              error={newErrors.length > 0}
              helperText={
                newErrors.length > 0
                  ? newErrors
                      .map((problem) => t(`help.account.password.problems.${problem}`, { min: passwordMinLength, max: passwordMaxLength }))
                      .join(' ')
                  : t('help.account.password.rule', { min: passwordMinLength })
              }
              slotProps={{ htmlInput: { maxLength: passwordMaxLength, 'data-testid': 'new-password' } }}
            />
          )}
        />
        <AccountFormSubmit variant="contained" loading={change.isPending} data-testid="change-password-submit">
          {t('help.account.password.submit')}
        </AccountFormSubmit>
        {change.isSuccess && (
          <Alert severity="success" role="status" data-testid="password-changed">
            {t('help.account.password.changed')}
          </Alert>
        )}
        {otherError && (
          <Alert severity="error" role="alert" data-testid="password-change-error">
            {errorMessage(t, change.error)}
          </Alert>
        )}
      </AccountForm>
    </AccountSection>
  )
}
