import { zodResolver } from '@hookform/resolvers/zod'
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type CloseAccountBody, closeAccountBodySchema } from '@pactum/contracts/me'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link as RouterLink } from 'react-router'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { ApiError } from '../../lib/api/api-error.ts'
import { useCloseAccount } from '../../lib/api/close-account.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { namedRoutes } from '../../lib/named-routes.ts'

/** The contracts' body, plus what only the web knows: the address must be this account's. */
function confirmationSchema(email: string) {
  return closeAccountBodySchema.refine((body) => body.confirm_email.trim().toLowerCase() === email.toLowerCase(), {
    path: ['confirm_email'],
    message: 'mismatch',
  })
}

/**
 * Closing the account (issue 30): the person types their address again;
 * the server refuses while a sale still holds money or the balance is not
 * paid out, and says which. Once closed, the person is signed out.
 */
export function CloseAccount({ email, onClosed }: { email: string | undefined; onClosed: () => void }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const closeAccount = useCloseAccount()
  const schema = useMemo(() => confirmationSchema(email ?? ''), [email])
  const form = useForm<CloseAccountBody>({ resolver: zodResolver(schema), defaultValues: { confirm_email: '' } })
  const fieldError = form.formState.errors.confirm_email
  const submit = form.handleSubmit(async (body) => {
    await closeAccount.mutateAsync(body).then(onClosed, () => undefined)
  })
  const dismiss = () => {
    setOpen(false)
    form.reset()
    closeAccount.reset()
  }
  const refusal = closeAccount.error

  return (
    <>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('help.account.close.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('help.account.close.intro')}
      </Typography>
      <Button
        variant="outlined"
        color="error"
        startIcon={<DeleteOutlineIcon aria-hidden />}
        onClick={() => setOpen(true)}
        disabled={!email}
        data-testid="close-account"
      >
        {t('help.account.close.button')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('help.account.close.dialogTitle')}
        body={t('help.account.close.dialogBody')}
        confirmLabel={t('help.account.close.confirm')}
        cancelLabel={t('common.cancel')}
        destructive
        busy={closeAccount.isPending}
        onConfirm={() => void submit()}
        onClose={dismiss}
        testId="close-account-dialog"
      >
        <Stack spacing={2}>
          {refusal && (
            <Alert severity="error" data-testid="close-account-refused">
              {refusal instanceof ApiError && refusal.code === 'account_has_open_transactions' ? (
                <>
                  {t('help.account.close.openTransactions', { count: Number(refusal.details.count ?? 1) })}{' '}
                  <Link component={RouterLink} to={namedRoutes.transactions}>
                    {t('menu.myTransactions')}
                  </Link>
                </>
              ) : (
                errorMessage(t, refusal)
              )}
            </Alert>
          )}
          <TextField
            label={t('help.account.close.emailLabel')}
            type="email"
            autoComplete="off"
            required
            autoFocus
            {...form.register('confirm_email')}
            error={!!fieldError}
            helperText={
              fieldError
                ? t('help.account.close.emailMismatch', { email: email ?? '' })
                : t('help.account.close.emailHint', { email: email ?? '' })
            }
            slotProps={{ htmlInput: { 'data-testid': 'close-account-email', maxLength: 254 } }}
          />
        </Stack>
      </ConfirmDialog>
    </>
  )
}
