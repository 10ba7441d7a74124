import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLockOutlined'
import Alert from '@mui/material/Alert'
import Typography from '@mui/material/Typography'
import type { TotpSetup } from '@pactum/contracts/totp'
import { useState } from 'react'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { useBeginTotpSetup, useRemoveTotp, useTotpStatus } from '../../lib/api/totp.ts'
import { formatDate } from '../../lib/dates.ts'
import { PasswordField, usePasswordForm } from './totp-password-field.tsx'
import { ConfirmTotp } from './confirm-totp.tsx'
import { AccountForm, AccountFormSubmit } from './account-form.tsx'
import { AccountSection } from './account-section.tsx'

/**
 * An authenticator app as the second factor (issue 30): after the password,
 * the sign-in asks for the six-digit code the app shows. Set up in two steps
 * (the password buys a secret; a code from the app turns it on), so a
 * secret the app never took cannot lock anyone out; removed with the
 * password.
 */
export function AuthenticatorApp() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const status = useTotpStatus(true)
  return (
    <AccountSection heading={t('help.account.totp.heading')} intro={t('help.account.totp.intro')}>
      {status.isPending && (
        <Typography role="status" color="text.secondary">
          {t('help.account.totp.loading')}
        </Typography>
      )}
      {status.isError && <LoadErrorAlert error={status.error} onRetry={() => void status.refetch()} />}
      {status.data?.enabled && (
        <>
          <Alert severity="success" sx={{ mb: 2, maxWidth: 520 }} data-testid="totp-enabled">
            {t('help.account.totp.enabledSince', { date: formatDate(status.data.since ?? '', locale) })}
          </Alert>
          <RemoveTotp />
        </>
      )}
      {status.data && !status.data.enabled && <SetUpTotp />}
    </AccountSection>
  )
}

function SetUpTotp() {
  const { t } = useTranslation()
  const begin = useBeginTotpSetup()
  const [setup, setSetup] = useState<TotpSetup | null>(null)
  const { form, error, refuse } = usePasswordForm()
  const submit = form.handleSubmit(async (values) => {
    try {
      setSetup(await begin.mutateAsync(values))
      form.reset()
    } catch (caught) {
      refuse(caught)
    }
  })
  if (setup) return <ConfirmTotp setup={setup} onCancel={() => setSetup(null)} />
  const beginError = begin.isError && errorCodeOf(begin.error) !== 'incorrect_password' ? errorMessage(t, begin.error) : undefined
  return (
    <AccountForm onSubmit={submit} testId="totp-setup">
      <PasswordField form={form} error={error} testId="totp-setup-password" />
      <AccountFormSubmit startIcon={<PhonelinkLockIcon aria-hidden />} loading={begin.isPending} data-testid="totp-setup-submit">
        {t('help.account.totp.setUp')}
      </AccountFormSubmit>
      {beginError && (
        <Alert severity="error" role="alert">
          {beginError}
        </Alert>
      )}
    </AccountForm>
  )
}

function RemoveTotp() {
  const { t } = useTranslation()
  const remove = useRemoveTotp()
  const { form, error, refuse } = usePasswordForm()
  const submit = form.handleSubmit(async (values) => {
    try {
      await remove.mutateAsync(values)
    } catch (caught) {
      refuse(caught)
    }
  })
  const removeError = remove.isError && errorCodeOf(remove.error) !== 'incorrect_password' ? errorMessage(t, remove.error) : undefined
  return (
    <AccountForm onSubmit={submit} testId="totp-remove">
      <Typography>{t('help.account.totp.removeIntro')}</Typography>
      <PasswordField form={form} error={error} testId="totp-remove-password" />
      <AccountFormSubmit color="error" loading={remove.isPending} data-testid="totp-remove-submit">
        {t('help.account.totp.remove')}
      </AccountFormSubmit>
      {removeError && (
        <Alert severity="error" role="alert">
          {removeError}
        </Alert>
      )}
    </AccountForm>
  )
}
