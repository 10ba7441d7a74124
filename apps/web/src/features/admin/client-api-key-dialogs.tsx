import type { AdminClient } from '@pactum/contracts/admin'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useToast } from '../../components/toasts.tsx'
import { formatDateTime } from '../../lib/dates.ts'
import { useIssueApiKey, useRevokeApiKey } from './admin-api.ts'
import { ShownOnceDialog } from './shown-once-dialog.tsx'

/** The new key, shown this once: Pactum keeps only its hash. */
function IssuedKeyDialog({ client, apiKey, onClose }: { client: AdminClient; apiKey: string; onClose: () => void }) {
  const { t } = useTranslation()
  const words = {
    title: t('admin.clients.apiKey.issuedTitle', { name: client.name }),
    warning: t('admin.clients.apiKey.shownOnce'),
    label: t('admin.clients.apiKey.label'),
    copy: t('admin.clients.apiKey.copy'),
    copied: t('admin.clients.apiKey.copied'),
    copyFailed: t('admin.clients.apiKey.copyFailed'),
    done: t('admin.clients.apiKey.done'),
  }
  const testId = { dialog: 'client-api-key-issued', value: 'client-api-key-value', done: 'client-api-key-done' }
  return <ShownOnceDialog value={apiKey} words={words} testId={testId} onClose={onClose} />
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
