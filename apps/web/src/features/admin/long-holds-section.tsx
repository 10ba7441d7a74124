import Alert from '@mui/material/Alert'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { LongHold } from '@pactum/contracts/admin'
import { Link as RouterLink } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useLongHolds } from './admin-api.ts'
import { shortId } from './admin-format.ts'

/**
 * Money held longer than HOLD_ALERT_DAYS (issue 34, "long holds watched"),
 * on the Ledger page: a sale should have ended long before, so each row
 * says why the money is still there (the status, and a case waiting for
 * the seller or for an admin) and links to the sale.
 */
export function LongHoldsSection() {
  const { t } = useTranslation()
  const holds = useLongHolds()
  return (
    <Stack component="section" spacing={1.5} aria-labelledby="long-holds-heading" data-testid="long-holds">
      <Typography variant="h6" component="h2" id="long-holds-heading">
        {holds.data ? t('admin.longHolds.title', { count: holds.data.alert_days }) : t('admin.longHolds.titlePending')}
      </Typography>
      {holds.isPending ? (
        <StatusMessage busy title={t('admin.longHolds.loading')} />
      ) : holds.isError ? (
        <LoadErrorAlert error={holds.error} onRetry={() => void holds.refetch()} />
      ) : holds.data.holds.length === 0 ? (
        <Alert severity="success" data-testid="long-holds-none">
          {t('admin.longHolds.none', { count: holds.data.alert_days })}
        </Alert>
      ) : (
        <HoldsTable holds={holds.data.holds} />
      )}
    </Stack>
  )
}

function HoldsTable({ holds }: { holds: LongHold[] }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  return (
    <>
      <Typography color="text.secondary">{t('admin.longHolds.intro')}</Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <caption>{t('admin.longHolds.caption', { count: holds.length })}</caption>
          <TableHead>
            <TableRow>
              <TableCell>{t('admin.columns.id')}</TableCell>
              <TableCell align="right">{t('admin.longHolds.held')}</TableCell>
              <TableCell>{t('admin.longHolds.since')}</TableCell>
              <TableCell>{t('admin.longHolds.why')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {holds.map((hold) => (
              <TableRow key={`${hold.transaction_id}-${hold.currency}`} data-testid="long-hold-row" data-id={hold.transaction_id}>
                <TableCell>
                  <Link
                    component={RouterLink}
                    to={routeTo('adminTransaction', { id: hold.transaction_id })}
                    aria-label={t('admin.transactions.open', { id: hold.transaction_id })}
                    sx={{ fontFamily: 'monospace' }}
                  >
                    {shortId(hold.transaction_id)}
                  </Link>
                </TableCell>
                <TableCell align="right">{formatMoney(hold.amount, hold.currency, locale)}</TableCell>
                <TableCell>
                  {formatDate(hold.held_since, locale)} · {t('admin.longHolds.days', { count: hold.days_held })}
                </TableCell>
                <TableCell data-testid="long-hold-why">
                  {t(`admin.kinds.${hold.type}`)} · {t(`transactionStatusNames.${hold.status}`)}
                  {hold.case && ` · ${t(`admin.longHolds.case.${hold.case}`)}`}
                  {' · '}
                  {t('admin.longHolds.lastChange', { date: formatDate(hold.last_change_at, locale) })}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  )
}
