import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { AuditLogEntry } from '@pactum/contracts/admin'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useAuditLog } from './admin-api.ts'
import { shortId } from './admin-format.ts'

/** What an admin acted on: a transaction, or a reconciliation difference (the day's reconciliation page). */
function Subject({ event }: { event: AuditLogEntry }) {
  const { t } = useTranslation()
  const difference = event.reconciliation_difference
  if (difference) {
    return (
      <Link component={RouterLink} to={routeTo('adminReconciliation', {}, { date: difference.day })}>
        {t('admin.auditLog.difference', { day: difference.day, currency: difference.currency?.toUpperCase() ?? '—' })}
      </Link>
    )
  }
  if (!event.transaction_id) return '—'
  return (
    <Link
      component={RouterLink}
      to={routeTo('adminTransaction', { id: event.transaction_id })}
      aria-label={t('admin.transactions.open', { id: event.transaction_id })}
      sx={{ fontFamily: 'monospace' }}
    >
      {shortId(event.transaction_id)}
    </Link>
  )
}

/** Every admin action, newest first: who, when, on which transaction or reconciliation difference, and why. */
export function AuditLogPage() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const log = useAuditLog()
  const rows = log.data?.pages.flat() ?? []
  return (
    <>
      <PageHeader title={t('admin.auditLog.title')} intro={t('admin.auditLog.intro')} />
      {log.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : log.isError ? (
        <LoadErrorAlert error={log.error} onRetry={() => void log.refetch()} />
      ) : rows.length === 0 ? (
        <Typography data-testid="admin-audit-empty">{t('admin.auditLog.empty')}</Typography>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" data-testid="admin-audit-log">
              <caption>{t('admin.auditLog.caption')}</caption>
              <TableHead>
                <TableRow>
                  <TableCell>{t('admin.columns.when')}</TableCell>
                  <TableCell>{t('admin.columns.actor')}</TableCell>
                  <TableCell>{t('admin.columns.event')}</TableCell>
                  <TableCell>{t('admin.columns.subject')}</TableCell>
                  <TableCell>{t('admin.columns.change')}</TableCell>
                  <TableCell>{t('admin.columns.reason')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((event) => (
                  <TableRow key={event.id} data-testid="admin-audit-row">
                    <TableCell>{formatDateTime(event.created_at, locale)}</TableCell>
                    <TableCell>{event.actor_email ?? '—'}</TableCell>
                    <TableCell>{event.event === 'explain_difference' ? t('admin.auditLog.differenceExplained') : event.event}</TableCell>
                    <TableCell>
                      <Subject event={event} />
                    </TableCell>
                    <TableCell>
                      {event.from_status} → {event.to_status}
                    </TableCell>
                    <TableCell>{event.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {log.hasNextPage && (
            <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage} sx={{ mt: 2 }}>
              {t('admin.loadMore')}
            </Button>
          )}
        </>
      )}
    </>
  )
}
