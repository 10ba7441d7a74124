import { zodResolver } from '@hookform/resolvers/zod'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { type AdminFilterForm, adminFilterFormSchema, anyStatuses } from '@pactum/contracts/admin'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { type AdminFilters, noFilters, useAdminTransactions } from './admin-api.ts'
import { shortId } from './admin-format.ts'

/** What the sale is worth: the price, or for face to face the total once set, else the deposit. */
function amountOf(transaction: AnyTransaction): number {
  return transaction.type === 'online' ? transaction.price : (transaction.pricing?.price ?? transaction.deposit_pricing.price)
}

function FilterForm({ onApply }: { onApply: (filters: AdminFilters) => void }) {
  const { t } = useTranslation()
  const form = useForm<AdminFilterForm>({ resolver: zodResolver(adminFilterFormSchema), defaultValues: noFilters })
  const errorOf = (field: keyof AdminFilterForm) => (form.formState.errors[field] ? t('admin.filters.invalid') : undefined)
  const select = (name: 'status' | 'type', options: Array<{ value: string; label: string }>) => (
    <Controller
      name={name}
      control={form.control}
      render={({ field }) => (
        <TextField
          select
          size="small"
          label={t(`admin.filters.${name}`)}
          {...field}
          sx={{ minWidth: 180 }}
          data-testid={`admin-filter-${name}`}
        >
          <MenuItem value="">{t('admin.filters.any')}</MenuItem>
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  )
  return (
    <Box
      component="form"
      role="search"
      aria-label={t('admin.filters.label')}
      noValidate
      onSubmit={form.handleSubmit((values) => onApply(adminFilterFormSchema.parse(values)))}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3, alignItems: 'flex-start' }}
    >
      <TextField
        size="small"
        label={t('admin.filters.search')}
        helperText={t('admin.filters.searchHint')}
        {...form.register('search')}
        sx={{ minWidth: 260, flexGrow: 1 }}
        slotProps={{ htmlInput: { 'data-testid': 'admin-search' } }}
      />
      {select(
        'status',
        anyStatuses.map((status) => ({ value: status, label: `${t(`transactionStatusNames.${status}`)} (${status})` })),
      )}
      {select('type', [
        { value: 'online', label: t('admin.kinds.online') },
        { value: 'f2f', label: t('admin.kinds.f2f') },
      ])}
      <TextField
        size="small"
        label={t('admin.filters.currency')}
        {...form.register('currency')}
        error={!!errorOf('currency')}
        helperText={errorOf('currency')}
        sx={{ width: 120 }}
      />
      <TextField size="small" label={t('admin.filters.client')} {...form.register('client_id')} sx={{ width: 180 }} />
      <TextField
        size="small"
        type="date"
        label={t('admin.filters.from')}
        {...form.register('created_from')}
        error={!!errorOf('created_from')}
        helperText={errorOf('created_from')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        size="small"
        type="date"
        label={t('admin.filters.to')}
        {...form.register('created_to')}
        error={!!errorOf('created_to')}
        helperText={errorOf('created_to')}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" data-testid="admin-apply-filters">
          {t('admin.filters.apply')}
        </Button>
        <Button
          onClick={() => {
            form.reset(noFilters)
            onApply(noFilters)
          }}
        >
          {t('admin.filters.clear')}
        </Button>
      </Stack>
    </Box>
  )
}

/** Every transaction of both kinds, filtered and searched, a page at a time. */
export function AdminTransactionsPage() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [filters, setFilters] = useState<AdminFilters>(noFilters)
  const list = useAdminTransactions(filters)
  const rows = list.data?.pages.flat() ?? []

  return (
    <>
      <PageHeader title={t('admin.transactions.title')} intro={t('admin.transactions.intro')} />
      <FilterForm onApply={setFilters} />
      {list.isPending ? (
        <StatusMessage busy title={t('admin.loading')} />
      ) : list.isError ? (
        <LoadErrorAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <Typography data-testid="admin-transactions-empty" sx={{ py: 4 }}>
          {t('admin.transactions.empty')}
        </Typography>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" data-testid="admin-transactions">
              <caption>{t('admin.transactions.caption', { count: rows.length })}</caption>
              <TableHead>
                <TableRow>
                  <TableCell>{t('admin.columns.id')}</TableCell>
                  <TableCell>{t('admin.columns.created')}</TableCell>
                  <TableCell>{t('admin.columns.kind')}</TableCell>
                  <TableCell>{t('admin.columns.status')}</TableCell>
                  <TableCell align="right">{t('admin.columns.amount')}</TableCell>
                  <TableCell>{t('admin.columns.client')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((transaction) => (
                  <TableRow key={transaction.id} data-testid="admin-transaction-row" data-id={transaction.id}>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={routeTo('adminTransaction', { id: transaction.id })}
                        aria-label={t('admin.transactions.open', { id: transaction.id })}
                        sx={{ fontFamily: 'monospace' }}
                      >
                        {shortId(transaction.id)}
                      </Link>
                    </TableCell>
                    <TableCell>{formatDateTime(transaction.created, locale)}</TableCell>
                    <TableCell>{t(`admin.kinds.${transaction.type}`)}</TableCell>
                    <TableCell>{t(`transactionStatusNames.${transaction.status}`)}</TableCell>
                    <TableCell align="right">{formatMoney(amountOf(transaction), transaction.currency, locale)}</TableCell>
                    <TableCell>{transaction.client_id ?? '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {list.hasNextPage && (
            <Button
              onClick={() => void list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
              sx={{ mt: 2 }}
              data-testid="admin-load-more"
            >
              {t('admin.loadMore')}
            </Button>
          )}
        </>
      )}
    </>
  )
}
