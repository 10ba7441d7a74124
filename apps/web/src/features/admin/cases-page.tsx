import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import { Link as RouterLink } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useCaseQueue } from './admin-api.ts'

/** The cases waiting for an admin, oldest escalation first: each opens its transaction, where it is decided. */
export function CasesPage() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const queue = useCaseQueue()
  return (
    <>
      <PageHeader title={t('admin.cases.title')} intro={t('admin.cases.intro')} />
      {queue.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : queue.isError ? (
        <LoadErrorAlert error={queue.error} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <StatusMessage title={t('admin.cases.empty')} />
      ) : (
        <Table size="small" data-testid="admin-cases">
          <TableHead>
            <TableRow>
              <TableCell>{t('admin.cases.escalated')}</TableCell>
              <TableCell>{t('admin.cases.reason')}</TableCell>
              <TableCell>{t('admin.cases.description')}</TableCell>
              <TableCell align="right">{t('admin.cases.price')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {queue.data.map((dispute) => (
              <TableRow key={dispute.transaction_id} data-testid="admin-case-row">
                <TableCell>
                  <Link component={RouterLink} to={routeTo('adminTransaction', { id: dispute.transaction_id })}>
                    {formatDateTime(dispute.escalated_at ?? dispute.opened_at, locale)}
                  </Link>
                </TableCell>
                <TableCell>{t(`complaintReasons.${dispute.reason}`)}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{dispute.description}</TableCell>
                <TableCell align="right">{formatMoney(dispute.price_in_dispute, dispute.currency, locale)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  )
}
