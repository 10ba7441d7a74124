import AddIcon from '@mui/icons-material/Add'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Stack from '@mui/material/Stack'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { AdminClient, ClientChange } from '@pactum/contracts/admin'
import { useState } from 'react'
import { Link as RouterLink } from 'react-router'
import { useTranslation } from '../../i18n/react.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useAdminClients, useClientChanges } from './admin-api.ts'
import { IssueApiKeyDialog, RevokeApiKeyDialog } from './client-api-key-dialogs.tsx'
import { ClientFormDialog } from './client-form-dialog.tsx'

type OpenDialog = { kind: 'create' } | { kind: 'edit' | 'issueKey' | 'revokeKey'; client: AdminClient } | null

function ClientRow({ client, onOpen }: { client: AdminClient; onOpen: (dialog: OpenDialog) => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  return (
    <TableRow data-testid="admin-client-row">
      <TableCell>
        {client.url ? (
          <Link href={client.url} target="_blank" rel="noopener noreferrer">
            {client.name}
          </Link>
        ) : (
          client.name
        )}
        {/* A div, not the default p: the chip is a div, which a p cannot hold. */}
        <Typography component="div" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {client.client_id}
          {client.in_clients_file && (
            <Chip size="small" variant="outlined" label={t('admin.clients.inFile')} sx={{ ml: 1, fontFamily: 'inherit' }} />
          )}
        </Typography>
        <Box
          component="span"
          title={t('admin.clients.colours')}
          sx={{
            display: 'inline-block',
            mt: 0.5,
            px: 1,
            py: 0.25,
            borderRadius: 1,
            fontFamily: 'monospace',
            fontSize: 13,
            whiteSpace: 'nowrap',
            bgcolor: client.background_color,
            color: client.text_color,
            border: 1,
            borderColor: 'divider',
          }}
        >
          {client.background_color} / {client.text_color}
        </Box>
      </TableCell>
      {/* One route per line: they are paths, which break badly at their slashes. */}
      <TableCell sx={{ whiteSpace: 'pre-line', fontFamily: 'monospace', fontSize: 13 }}>
        {client.routes.length === 0 ? t('admin.clients.allRoutes') : client.routes.join('\n')}
      </TableCell>
      <TableCell>
        <Typography variant="body2">
          {t('admin.clients.mobileNavbar')}: {client.mobile_navbar_hidden ? t('admin.clients.hidden') : t('admin.clients.shown')}
        </Typography>
        <Typography variant="body2">
          {t('admin.clients.handover')}: {client.show_seller_confirm_handover ? t('admin.clients.yes') : t('admin.clients.no')}
        </Typography>
      </TableCell>
      <TableCell data-testid="admin-client-api-key">
        {client.api_key_issued_at
          ? t('admin.clients.keyIssued', { date: formatDateTime(client.api_key_issued_at, locale) })
          : t('admin.clients.noKey')}
      </TableCell>
      <TableCell align="right">{client.transactions}</TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button
            size="small"
            variant="outlined"
            onClick={() => onOpen({ kind: 'edit', client })}
            aria-label={t('admin.clients.editLabel', { name: client.name })}
            data-testid="admin-client-edit"
          >
            {t('admin.clients.edit')}
          </Button>
          <Button
            size="small"
            onClick={() => onOpen({ kind: 'issueKey', client })}
            aria-label={t(client.api_key_issued_at ? 'admin.clients.newKeyLabel' : 'admin.clients.issueKeyLabel', { name: client.name })}
            data-testid="admin-client-issue-key"
          >
            {t(client.api_key_issued_at ? 'admin.clients.newKey' : 'admin.clients.issueKey')}
          </Button>
          <Button
            size="small"
            component={RouterLink}
            to={routeTo('adminClientWebhooks', { clientId: client.client_id })}
            aria-label={t('admin.clients.webhooksLabel', { name: client.name })}
            data-testid="admin-client-webhooks"
          >
            {t('admin.clients.webhooks')}
          </Button>
          {client.api_key_issued_at && (
            <Button
              size="small"
              color="error"
              onClick={() => onOpen({ kind: 'revokeKey', client })}
              aria-label={t('admin.clients.revokeKeyLabel', { name: client.name })}
              data-testid="admin-client-revoke-key"
            >
              {t('admin.clients.revokeKey')}
            </Button>
          )}
        </Stack>
      </TableCell>
    </TableRow>
  )
}

function actorOf(change: ClientChange, t: (key: string) => string): string {
  if (change.actor_kind === 'configuration') return t('admin.clients.changes.byFile')
  if (change.actor_kind === 'operator') return t('admin.clients.changes.byOperator')
  return change.actor_email ?? '—'
}

/** Who changed which client and how, newest first. */
function ClientChanges() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const changes = useClientChanges()
  const rows = changes.data?.pages.flat() ?? []
  return (
    <Box component="section" aria-labelledby="client-changes-heading" sx={{ mt: 5 }}>
      <Typography id="client-changes-heading" variant="h2" sx={{ fontSize: 20, fontWeight: 600, mb: 2 }}>
        {t('admin.clients.changes.title')}
      </Typography>
      {changes.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : changes.isError ? (
        <LoadErrorAlert error={changes.error} onRetry={() => void changes.refetch()} />
      ) : rows.length === 0 ? (
        <Typography data-testid="admin-client-changes-empty">{t('admin.clients.changes.empty')}</Typography>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" data-testid="admin-client-changes">
              <caption>{t('admin.clients.changes.caption')}</caption>
              <TableHead>
                <TableRow>
                  <TableCell>{t('admin.columns.when')}</TableCell>
                  <TableCell>{t('admin.columns.actor')}</TableCell>
                  <TableCell>{t('admin.clients.id')}</TableCell>
                  <TableCell>{t('admin.clients.changes.what')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((change) => (
                  <TableRow key={change.id} data-testid="admin-client-change">
                    <TableCell>{formatDateTime(change.created_at, locale)}</TableCell>
                    <TableCell>{actorOf(change, t)}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{change.client_id}</TableCell>
                    <TableCell>{t(`admin.clients.changes.actions.${change.action}`)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {changes.hasNextPage && (
            <Button onClick={() => void changes.fetchNextPage()} disabled={changes.isFetchingNextPage} sx={{ mt: 2 }}>
              {t('admin.loadMore')}
            </Button>
          )}
        </>
      )}
    </Box>
  )
}

/** The partner clients: their look and rules, their API keys, and who changed them. */
export function ClientsPage() {
  const { t } = useTranslation()
  const clients = useAdminClients()
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const close = () => setDialog(null)
  return (
    <>
      <PageHeader title={t('admin.clients.title')} intro={t('admin.clients.intro')} />
      <Button
        variant="contained"
        startIcon={<AddIcon aria-hidden />}
        onClick={() => setDialog({ kind: 'create' })}
        sx={{ mb: 3 }}
        data-testid="admin-client-add"
      >
        {t('admin.clients.add')}
      </Button>
      {clients.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : clients.isError ? (
        <LoadErrorAlert error={clients.error} onRetry={() => void clients.refetch()} />
      ) : clients.data.length === 0 ? (
        <Typography data-testid="admin-clients-empty">{t('admin.clients.empty')}</Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" data-testid="admin-clients">
            <caption>{t('admin.clients.caption')}</caption>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.clients.client')}</TableCell>
                <TableCell>{t('admin.clients.routes')}</TableCell>
                <TableCell>{t('admin.clients.settings')}</TableCell>
                <TableCell>{t('admin.clients.apiKeyColumn')}</TableCell>
                <TableCell align="right">{t('admin.clients.transactions')}</TableCell>
                <TableCell>{t('admin.clients.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {clients.data.map((client) => (
                <ClientRow key={client.client_id} client={client} onOpen={setDialog} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ClientChanges />
      {dialog?.kind === 'create' && <ClientFormDialog client={null} onClose={close} />}
      {dialog?.kind === 'edit' && <ClientFormDialog client={dialog.client} onClose={close} />}
      {dialog?.kind === 'issueKey' && <IssueApiKeyDialog client={dialog.client} onClose={close} />}
      {dialog?.kind === 'revokeKey' && <RevokeApiKeyDialog client={dialog.client} onClose={close} />}
    </>
  )
}
