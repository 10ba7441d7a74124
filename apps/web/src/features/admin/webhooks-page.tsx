import AddIcon from '@mui/icons-material/Add'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { WebhookEndpoint } from '@pactum/contracts/partner-webhooks'
import { useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { namedRoutes } from '../../lib/named-routes.ts'
import { useAdminClients } from './admin-api.ts'
import { WebhookDeliveries } from './webhook-deliveries.tsx'
import { AddEndpointDialog, DeleteEndpointDialog, RotateSecretDialog } from './webhook-endpoint-dialogs.tsx'
import { useEnableWebhookEndpoint, useWebhookEndpoints } from './webhook-endpoints-api.ts'

type OpenDialog = { kind: 'add' } | { kind: 'rotate' | 'delete'; endpoint: WebhookEndpoint } | null

function EndpointRow({
  clientId,
  endpoint,
  selected,
  onSelect,
  onOpen,
}: {
  clientId: string
  endpoint: WebhookEndpoint
  selected: boolean
  onSelect: () => void
  onOpen: (dialog: OpenDialog) => void
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const toast = useToast()
  const result = useResultModal()
  const enable = useEnableWebhookEndpoint(clientId)
  const reEnable = () =>
    enable.mutate(endpoint.id, {
      onSuccess: () => toast.show(t('admin.webhooks.enabled', { url: endpoint.url }), { severity: 'success' }),
      onError: (error) => result.showError(errorMessage(t, error)),
    })
  return (
    <TableRow data-testid="webhook-endpoint-row">
      <TableCell sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>{endpoint.url}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-line' }}>
        {endpoint.event_types.length === 0 ? t('admin.webhooks.allEvents') : endpoint.event_types.join('\n')}
      </TableCell>
      <TableCell data-testid="webhook-endpoint-state">
        {endpoint.disabled_at ? (
          <>
            <Chip size="small" color="error" variant="outlined" label={t('admin.webhooks.disabled')} />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t('admin.webhooks.disabledWhy', { date: formatDateTime(endpoint.disabled_at, locale) })}
            </Typography>
            {endpoint.disabled_reason && (
              <Typography
                variant="body2"
                color="text.secondary"
                data-testid="webhook-endpoint-disabled-reason"
                sx={{ fontFamily: 'monospace', fontSize: 12, overflowWrap: 'anywhere' }}
              >
                {endpoint.disabled_reason}
              </Typography>
            )}
          </>
        ) : (
          <Chip size="small" color="success" variant="outlined" label={t('admin.webhooks.active')} />
        )}
      </TableCell>
      <TableCell>{formatDateTime(endpoint.created_at, locale)}</TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button
            size="small"
            variant={selected ? 'contained' : 'outlined'}
            aria-pressed={selected}
            onClick={onSelect}
            aria-label={t('admin.webhooks.deliveriesLabel', { url: endpoint.url })}
            data-testid="webhook-endpoint-deliveries"
          >
            {t('admin.webhooks.deliveriesButton')}
          </Button>
          {endpoint.disabled_at && (
            <Button
              size="small"
              variant="outlined"
              color="success"
              loading={enable.isPending}
              onClick={reEnable}
              aria-label={t('admin.webhooks.enableLabel', { url: endpoint.url })}
              data-testid="webhook-endpoint-enable"
            >
              {t('admin.webhooks.enable')}
            </Button>
          )}
          <Button
            size="small"
            onClick={() => onOpen({ kind: 'rotate', endpoint })}
            aria-label={t('admin.webhooks.rotateLabel', { url: endpoint.url })}
            data-testid="webhook-endpoint-rotate"
          >
            {t('admin.webhooks.rotateButton')}
          </Button>
          <Button
            size="small"
            color="error"
            onClick={() => onOpen({ kind: 'delete', endpoint })}
            aria-label={t('admin.webhooks.deleteLabel', { url: endpoint.url })}
            data-testid="webhook-endpoint-delete"
          >
            {t('admin.webhooks.deleteButton')}
          </Button>
        </Stack>
      </TableCell>
    </TableRow>
  )
}

/** A partner client's webhook endpoints, their secrets and what was delivered to each (issue 35). */
export function WebhooksPage() {
  const { t } = useTranslation()
  const { clientId = '' } = useParams()
  const [search, setSearch] = useSearchParams()
  const clients = useAdminClients()
  const endpoints = useWebhookEndpoints(clientId)
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const close = () => setDialog(null)
  const name = clients.data?.find((client) => client.client_id === clientId)?.name ?? clientId
  const selectedId = search.get('endpoint')
  const selected = endpoints.data?.find((endpoint) => endpoint.id === selectedId)
  const select = (id: string) => setSearch(id === selectedId ? {} : { endpoint: id }, { replace: true })

  return (
    <>
      <PageHeader
        title={t('admin.webhooks.title', { name })}
        intro={t('admin.webhooks.intro')}
        breadcrumbs={[{ label: t('admin.clients.title'), to: namedRoutes.adminClients }, { label: t('admin.webhooks.crumb') }]}
      />
      <Button
        variant="contained"
        startIcon={<AddIcon aria-hidden />}
        onClick={() => setDialog({ kind: 'add' })}
        sx={{ mb: 3 }}
        data-testid="webhook-endpoint-add"
      >
        {t('admin.webhooks.add')}
      </Button>
      {endpoints.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : endpoints.isError ? (
        <LoadErrorAlert error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      ) : endpoints.data.length === 0 ? (
        <Typography data-testid="webhook-endpoints-empty">{t('admin.webhooks.empty')}</Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" data-testid="webhook-endpoints">
            <caption>{t('admin.webhooks.caption')}</caption>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.webhooks.url')}</TableCell>
                <TableCell>{t('admin.webhooks.eventTypes')}</TableCell>
                <TableCell>{t('admin.webhooks.state')}</TableCell>
                <TableCell>{t('admin.webhooks.created')}</TableCell>
                <TableCell>{t('admin.webhooks.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {endpoints.data.map((endpoint) => (
                <EndpointRow
                  key={endpoint.id}
                  clientId={clientId}
                  endpoint={endpoint}
                  selected={endpoint.id === selectedId}
                  onSelect={() => select(endpoint.id)}
                  onOpen={setDialog}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {selected && <WebhookDeliveries key={selected.id} clientId={clientId} endpoint={selected} />}
      {dialog?.kind === 'add' && <AddEndpointDialog clientId={clientId} onClose={close} />}
      {dialog?.kind === 'rotate' && <RotateSecretDialog clientId={clientId} endpoint={dialog.endpoint} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteEndpointDialog clientId={clientId} endpoint={dialog.endpoint} onClose={close} />}
    </>
  )
}
