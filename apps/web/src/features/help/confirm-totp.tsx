import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { confirmTotpBodySchema, type TotpSetup } from '@pactum/contracts/totp'
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { useTranslation } from '../../i18n/react.tsx'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { useConfirmTotp } from '../../lib/api/totp.ts'

type CodeForm = z.input<typeof confirmTotpBodySchema>

/** The secret in groups of four, as authenticator apps show and people type it. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ')
}

/** The set-up's second step: the secret for the app (as a QR code and typed), and a code from the app to turn it on. */
export function ConfirmTotp({ setup, onCancel }: { setup: TotpSetup; onCancel: () => void }) {
  const { t } = useTranslation()
  const confirm = useConfirmTotp()
  const secretId = useId()
  const form = useForm<CodeForm, unknown, z.output<typeof confirmTotpBodySchema>>({
    resolver: zodResolver(confirmTotpBodySchema),
    defaultValues: { code: '' },
  })
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
      <Box
        component="img"
        src={setup.qr_code}
        alt={t('help.account.totp.qrAlt')}
        sx={{ width: 200, height: 200, bgcolor: '#fff', border: 1, borderColor: 'divider', borderRadius: 1 }}
      />
      <div>
        <Typography id={secretId} variant="body2" color="text.secondary">
          {t('help.account.totp.secretLabel')}
        </Typography>
        <Typography
          aria-labelledby={secretId}
          sx={{ fontFamily: 'monospace', fontSize: '1.05rem', overflowWrap: 'anywhere' }}
          data-testid="totp-secret"
        >
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
