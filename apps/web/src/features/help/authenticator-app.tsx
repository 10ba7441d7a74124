import { zodResolver } from '@hookform/resolvers/zod'
import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLockOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { confirmTotpBodySchema, type TotpPasswordBody, totpPasswordBodySchema, type TotpSetup } from '@pactum/contracts/totp'
import { useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { useBeginTotpSetup, useConfirmTotp, useRemoveTotp, useTotpStatus } from '../../lib/api/totp.ts'
import { formatDate } from '../../lib/dates.ts'

type CodeForm = z.input<typeof confirmTotpBodySchema>

/** The secret in groups of four, as authenticator apps show and people type it. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ')
}

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
  const headingId = useId()
  const status = useTotpStatus(true)
  return (
    <section aria-labelledby={headingId}>
      <Typography component="h2" variant="h6" id={headingId} sx={{ mb: 1 }}>
        {t('help.account.totp.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('help.account.totp.intro')}
      </Typography>
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
    </section>
  )
}

function PasswordField({ form, error, testId }: { form: ReturnType<typeof useForm<TotpPasswordBody>>; error: string | undefined; testId: string }) {
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
function usePasswordForm() {
  const { t } = useTranslation()
  const form = useForm<TotpPasswordBody>({ resolver: zodResolver(totpPasswordBodySchema), defaultValues: { current_password: '' } })
  const problem = form.formState.errors.current_password
  const error = problem && t(problem.message === 'incorrect' ? 'help.account.totp.incorrectPassword' : 'help.account.totp.passwordRequired')
  const refuse = (caught: unknown) => {
    if (errorCodeOf(caught) === 'incorrect_password') form.setError('current_password', { message: 'incorrect' }, { shouldFocus: true })
  }
  return { form, error, refuse }
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
    <Stack component="form" noValidate spacing={2} sx={{ maxWidth: 420 }} onSubmit={(event) => void submit(event)} data-testid="totp-setup">
      <PasswordField form={form} error={error} testId="totp-setup-password" />
      <div>
        <Button type="submit" variant="outlined" startIcon={<PhonelinkLockIcon aria-hidden />} loading={begin.isPending} data-testid="totp-setup-submit">
          {t('help.account.totp.setUp')}
        </Button>
      </div>
      {beginError && (
        <Alert severity="error" role="alert">
          {beginError}
        </Alert>
      )}
    </Stack>
  )
}

function ConfirmTotp({ setup, onCancel }: { setup: TotpSetup; onCancel: () => void }) {
  const { t } = useTranslation()
  const confirm = useConfirmTotp()
  const secretId = useId()
  const form = useForm<CodeForm, unknown, z.output<typeof confirmTotpBodySchema>>({ resolver: zodResolver(confirmTotpBodySchema), defaultValues: { code: '' } })
  const submit = form.handleSubmit(async (values) => {
    try {
      await confirm.mutateAsync(values)
    } catch (caught) {
      if (errorCodeOf(caught) === 'incorrect_code') form.setError('code', { message: 'incorrect' }, { shouldFocus: true })
    }
  })
  const problem = form.formState.errors.code
  const codeError = problem && t(problem.message === 'incorrect' ? 'help.account.totp.incorrectCode' : 'help.account.totp.codeFormat')
  const otherError = confirm.isError && errorCodeOf(confirm.error) !== 'incorrect_code' ? errorMessage(t, confirm.error) : undefined
  return (
    <Stack spacing={2} sx={{ maxWidth: 520 }} data-testid="totp-confirm">
      <Typography component="ol" sx={{ pl: 2.5, m: 0, '& li': { mb: 1 } }}>
        <li>{t('help.account.totp.stepScan')}</li>
        <li>{t('help.account.totp.stepCode')}</li>
      </Typography>
      <Box component="img" src={setup.qr_code} alt={t('help.account.totp.qrAlt')} sx={{ width: 200, height: 200, bgcolor: '#fff', border: 1, borderColor: 'divider', borderRadius: 1 }} />
      <div>
        <Typography id={secretId} variant="body2" color="text.secondary">
          {t('help.account.totp.secretLabel')}
        </Typography>
        <Typography aria-labelledby={secretId} sx={{ fontFamily: 'monospace', fontSize: '1.05rem', overflowWrap: 'anywhere' }} data-testid="totp-secret">
          {grouped(setup.secret)}
        </Typography>
      </div>
      <Stack component="form" noValidate spacing={2} sx={{ maxWidth: 420 }} onSubmit={(event) => void submit(event)}>
        <TextField
          {...form.register('code')}
          required
          label={t('help.account.totp.code')}
          autoComplete="one-time-code"
          error={!!codeError}
          helperText={codeError ?? t('help.account.totp.codeHint')}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8, 'data-testid': 'totp-code' } }}
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" loading={confirm.isPending} data-testid="totp-confirm-submit">
            {t('help.account.totp.turnOn')}
          </Button>
          <Button onClick={onCancel} disabled={confirm.isPending}>
            {t('common.cancel')}
          </Button>
        </Stack>
        {otherError && (
          <Alert severity="error" role="alert">
            {otherError}
          </Alert>
        )}
      </Stack>
    </Stack>
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
    <Stack component="form" noValidate spacing={2} sx={{ maxWidth: 420 }} onSubmit={(event) => void submit(event)} data-testid="totp-remove">
      <Typography>{t('help.account.totp.removeIntro')}</Typography>
      <PasswordField form={form} error={error} testId="totp-remove-password" />
      <div>
        <Button type="submit" variant="outlined" color="error" loading={remove.isPending} data-testid="totp-remove-submit">
          {t('help.account.totp.remove')}
        </Button>
      </div>
      {removeError && (
        <Alert severity="error" role="alert">
          {removeError}
        </Alert>
      )}
    </Stack>
  )
}
