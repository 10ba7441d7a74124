import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { AdminClient } from '@pactum/contracts/admin'
import { useId, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { useIssueApiKey, useRevokeApiKey } from './admin-api.ts'

/** The new key, shown this once: Pactum keeps only its hash. */
function IssuedKeyDialog({ client, apiKey, onClose }: { client: AdminClient; apiKey: string; onClose: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const titleId = useId()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey)
      toast.show(t('admin.clients.apiKey.copied'), { severity: 'success' })
    } catch {
      toast.show(t('admin.clients.apiKey.copyFailed'), { severity: 'error' })
    }
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" data-testid="client-api-key-issued">
      <DialogTitle id={titleId}>{t('admin.clients.apiKey.issuedTitle', { name: client.name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{t('admin.clients.apiKey.shownOnce')}</Alert>
          <TextField
            label={t('admin.clients.apiKey.label')}
            value={apiKey}
            multiline
            fullWidth
            slotProps={{
              htmlInput: { readOnly: true, 'data-testid': 'client-api-key-value', spellCheck: false, style: { fontFamily: 'monospace' } },
            }}
            onFocus={(event) => event.target.select()}
          />
          <Button
            variant="outlined"
            startIcon={<ContentCopyIcon aria-hidden />}
            onClick={() => void copy()}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('admin.clients.apiKey.copy')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose} data-testid="client-api-key-done">
          {t('admin.clients.apiKey.done')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

/** Issuing a key, after a confirmation that says what happens to the current one. */
export function IssueApiKeyDialog({ client, onClose }: { client: AdminClient; onClose: () => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const result = useResultModal()
  const issue = useIssueApiKey(client.client_id)
  const [apiKey, setApiKey] = useState<string | null>(null)
  if (apiKey) return <IssuedKeyDialog client={client} apiKey={apiKey} onClose={onClose} />
  const replacing = client.api_key_issued_at !== null
  return (
    <ConfirmDialog
      open
      title={t(replacing ? 'admin.clients.apiKey.replaceTitle' : 'admin.clients.apiKey.issueTitle', { name: client.name })}
      body={
        replacing && client.api_key_issued_at
          ? t('admin.clients.apiKey.replaceBody', { date: formatDateTime(client.api_key_issued_at, locale) })
          : t('admin.clients.apiKey.issueBody')
      }
      confirmLabel={t(replacing ? 'admin.clients.apiKey.replace' : 'admin.clients.apiKey.issue')}
      cancelLabel={t('admin.clients.form.cancel')}
      destructive={replacing}
      busy={issue.isPending}
      onConfirm={() =>
        issue.mutate(undefined, {
          onSuccess: (issued) => setApiKey(issued.api_key),
          onError: (error) => {
            onClose()
            result.showError(errorMessage(t, error))
          },
        })
      }
      onClose={onClose}
      testId="client-api-key-issue"
    />
  )
}

export function RevokeApiKeyDialog({ client, onClose }: { client: AdminClient; onClose: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const result = useResultModal()
  const revoke = useRevokeApiKey(client.client_id)
  return (
    <ConfirmDialog
      open
      title={t('admin.clients.apiKey.revokeTitle', { name: client.name })}
      body={t('admin.clients.apiKey.revokeBody')}
      confirmLabel={t('admin.clients.apiKey.revoke')}
      cancelLabel={t('admin.clients.form.cancel')}
      destructive
      busy={revoke.isPending}
      onConfirm={() =>
        revoke.mutate(undefined, {
          onSuccess: () => {
            onClose()
            toast.show(t('admin.clients.apiKey.revoked', { name: client.name }), { severity: 'success' })
          },
          onError: (error) => {
            onClose()
            result.showError(errorMessage(t, error))
          },
        })
      }
      onClose={onClose}
      testId="client-api-key-revoke"
    />
  )
}
