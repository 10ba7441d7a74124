import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useAdminClients } from './admin-api.ts'

/** The partner clients in the database, read-only (they come from the configuration file). */
export function ClientsPage() {
  const { t } = useTranslation()
  const clients = useAdminClients()
  return (
    <>
      <PageHeader title={t('admin.clients.title')} intro={t('admin.clients.intro')} />
      {clients.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : clients.isError ? (
        <LoadErrorAlert error={clients.error} onRetry={() => void clients.refetch()} />
      ) : clients.data.length === 0 ? (
        <Typography data-testid="admin-clients-empty">{t('admin.clients.empty')}</Typography>
      ) : (
        <TableContainer>
          <Table size="small" data-testid="admin-clients">
            <caption>{t('admin.clients.caption')}</caption>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.clients.id')}</TableCell>
                <TableCell>{t('admin.clients.name')}</TableCell>
                <TableCell>{t('admin.clients.colours')}</TableCell>
                <TableCell>{t('admin.clients.routes')}</TableCell>
                <TableCell>{t('admin.clients.mobileNavbar')}</TableCell>
                <TableCell>{t('admin.clients.handover')}</TableCell>
                <TableCell align="right">{t('admin.clients.transactions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {clients.data.map((client) => (
                <TableRow key={client.client_id} data-testid="admin-client-row">
                  <TableCell sx={{ fontFamily: 'monospace' }}>{client.client_id}</TableCell>
                  <TableCell>
                    {client.url ? (
                      <Link href={client.url} target="_blank" rel="noopener noreferrer">
                        {client.name}
                      </Link>
                    ) : (
                      client.name
                    )}
                  </TableCell>
                  <TableCell>
                    <Box
                      component="span"
                      sx={{ px: 1, py: 0.25, borderRadius: 1, fontFamily: 'monospace', bgcolor: client.background_color, color: client.text_color, border: 1, borderColor: 'divider' }}
                    >
                      {client.background_color} / {client.text_color}
                    </Box>
                  </TableCell>
                  <TableCell>{client.routes.length === 0 ? t('admin.clients.allRoutes') : client.routes.join(', ')}</TableCell>
                  <TableCell>{client.mobile_navbar_hidden ? t('admin.clients.hidden') : t('admin.clients.shown')}</TableCell>
                  <TableCell>{client.show_seller_confirm_handover ? t('admin.clients.yes') : t('admin.clients.no')}</TableCell>
                  <TableCell align="right">{client.transactions}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  )
}
