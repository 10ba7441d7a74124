import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import {
  explainDifferenceSchema,
  type ReconciliationDay,
  type ReconciliationDifference,
  reconciliationQuerySchema,
} from '@pactum/contracts/reconciliation'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link as RouterLink, useSearchParams } from 'react-router'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useExplainDifference, useReconciliationDay } from './admin-api.ts'
import { shortId } from './admin-format.ts'
import { ReasonFields } from './reason-fields.tsx'

/** The day the daily job reconciles: yesterday in UTC, as the server counts days. */
export function yesterdayUtc(now: Date = new Date()): string {
  return new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10)
}

type DateForm = z.input<typeof reconciliationQuerySchema>
type ReasonForm = z.input<typeof explainDifferenceSchema>

/** A day's comparison of the ledger with the payment provider (decision 107), and what is left to explain. */
export function ReconciliationPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  // A link to one day (the audit log's) opens on it; otherwise yesterday.
  const [date, setDate] = useState(() => {
    const linked = reconciliationQuerySchema.safeParse({ date: query.get('date') })
    return linked.success ? linked.data.date : yesterdayUtc()
  })
  const day = useReconciliationDay(date)
  const form = useForm<DateForm>({ resolver: zodResolver(reconciliationQuerySchema), defaultValues: { date } })
  const show = form.handleSubmit((values) => setDate(values.date))
  return (
    <>
      <PageHeader title={t('admin.reconciliation.title')} intro={t('admin.reconciliation.intro')} />
      <Stack component="form" direction="row" spacing={2} sx={{ mb: 3 }} onSubmit={(event) => void show(event)} noValidate>
        <TextField
          type="date"
          label={t('admin.reconciliation.date')}
          {...form.register('date')}
          error={!!form.formState.errors.date}
          helperText={form.formState.errors.date ? t('admin.reconciliation.dateInvalid') : undefined}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'reconciliation-date' } }}
        />
        <Button type="submit" variant="outlined">
          {t('admin.reconciliation.show')}
        </Button>
      </Stack>
      {day.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : day.isError ? (
        <LoadErrorAlert error={day.error} onRetry={() => void day.refetch()} />
      ) : (
        <DayResult day={day.data} />
      )}
    </>
  )
}

function DayResult({ day }: { day: ReconciliationDay }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [explaining, setExplaining] = useState<ReconciliationDifference | null>(null)
  if (!day.reconciled) {
    return (
      <Alert severity="info" data-testid="reconciliation-not-run">
        {t('admin.reconciliation.notReconciled', { date: day.date })}
      </Alert>
    )
  }
  const open = day.differences.filter((difference) => difference.status === 'open').length
  const side = (value: ReconciliationDifference['ledger']) =>
    value ? formatMoney(value.amount, value.currency, locale) : t('admin.reconciliation.nothing')
  return (
    <Stack spacing={3}>
      <Alert severity={open === 0 ? 'success' : 'warning'} data-testid="reconciliation-summary">
        {open === 0
          ? t('admin.reconciliation.clean', { at: formatDateTime(day.reconciled_at ?? '', locale) })
          : t('admin.reconciliation.openCount', { count: open, at: formatDateTime(day.reconciled_at ?? '', locale) })}
      </Alert>
      <Totals day={day} />
      {day.differences.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('admin.reconciliation.differences')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.reconciliation.columns.kind')}</TableCell>
                <TableCell>{t('admin.reconciliation.columns.providerId')}</TableCell>
                <TableCell align="right">{t('admin.reconciliation.columns.ledger')}</TableCell>
                <TableCell align="right">{t('admin.reconciliation.columns.provider')}</TableCell>
                <TableCell>{t('admin.reconciliation.columns.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {day.differences.map((difference) => (
                <TableRow key={difference.id} data-testid="reconciliation-difference">
                  <TableCell>
                    {t(`admin.reconciliation.kinds.${difference.kind}`)}
                    {' · '}
                    {t(`admin.reconciliation.movements.${difference.movement}`)}
                  </TableCell>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                      {difference.provider_id}
                    </Typography>
                    {difference.transaction_id && (
                      <Link component={RouterLink} to={routeTo('adminTransaction', { id: difference.transaction_id })}>
                        {t('admin.transactions.open', { id: shortId(difference.transaction_id) })}
                      </Link>
                    )}
                  </TableCell>
                  <TableCell align="right">{side(difference.ledger)}</TableCell>
                  <TableCell align="right">{side(difference.provider)}</TableCell>
                  <TableCell>
                    {difference.status === 'open' ? (
                      <Button size="small" variant="outlined" onClick={() => setExplaining(difference)}>
                        {t('admin.reconciliation.explain')}
                      </Button>
                    ) : (
                      <Stack spacing={0.5}>
                        <Chip size="small" color="success" label={t('admin.reconciliation.explained')} sx={{ alignSelf: 'start' }} />
                        <Typography variant="body2">{difference.reason}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {t('admin.reconciliation.explainedBy', {
                            who: difference.explained_by ?? '',
                            at: formatDateTime(difference.explained_at ?? '', locale),
                          })}
                        </Typography>
                      </Stack>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {explaining && <ExplainDialog date={day.date} difference={explaining} onClose={() => setExplaining(null)} />}
    </Stack>
  )
}

const totalColumns = ['charged', 'refunded', 'transferred', 'disputed', 'paid_out', 'fees'] as const

function Totals({ day }: { day: ReconciliationDay }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const rows = [
    ...day.totals.ledger.map((totals) => ({ side: t('admin.reconciliation.columns.ledger'), totals })),
    ...day.totals.provider.map((totals) => ({ side: t('admin.reconciliation.columns.provider'), totals })),
  ]
  if (rows.length === 0) return <Typography>{t('admin.reconciliation.noMovements')}</Typography>
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('admin.reconciliation.totals')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('admin.reconciliation.totals')}</TableCell>
            {totalColumns.map((column) => (
              <TableCell key={column} align="right">
                {t(`admin.reconciliation.totalColumns.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(({ side, totals }) => (
            <TableRow key={`${side}-${totals.currency}`} data-testid="reconciliation-totals">
              <TableCell>{side}</TableCell>
              {totalColumns.map((column) => (
                <TableCell key={column} align="right">
                  {formatMoney(totals[column], totals.currency, locale)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  )
}

function ExplainDialog({ date, difference, onClose }: { date: string; difference: ReconciliationDifference; onClose: () => void }) {
  const { t } = useTranslation()
  const mutation = useExplainDifference(date)
  const form = useForm<ReasonForm>({ resolver: zodResolver(explainDifferenceSchema), defaultValues: { reason: '' } })
  const reasonError = form.formState.errors.reason ? t('admin.reconciliation.reasonRequired') : undefined
  const confirm = form.handleSubmit(async (body) => {
    await mutation.mutateAsync({ id: difference.id, body }).then(onClose, () => undefined)
  })
  return (
    <ConfirmDialog
      open
      title={t('admin.reconciliation.explainTitle')}
      body={<Typography>{t('admin.reconciliation.explainBody', { id: difference.provider_id })}</Typography>}
      confirmLabel={t('admin.reconciliation.explainConfirm')}
      busy={mutation.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId="reconciliation-explain-dialog"
    >
      <ReasonFields
        field={form.register('reason')}
        label={t('admin.reconciliation.reason')}
        hint={t('admin.reconciliation.reasonHint')}
        error={reasonError}
        failure={mutation.error}
        testId="reconciliation-reason"
      />
    </ConfirmDialog>
  )
}
