import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined'
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined'
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined'
import SearchIcon from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { keyframes, styled } from '@mui/material/styles'
import type { TransactionSummary } from '@pactum/contracts/f2f-transactions'
import { lazy, Suspense, useId, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { FallbackOnError } from '../../components/fallback-on-error.tsx'
import { OutlinedTextField } from '../../components/outlined-field.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { visuallyHidden } from '../../components/visually-hidden.ts'
import { useLocale } from '../../i18n/use-locale.ts'
import { canRetry } from '../../lib/api/can-retry.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useDebouncedValue } from '../../lib/use-debounced-value.ts'
import { StatusChip } from './status-chip.tsx'
import { type ListFilter, useTransactionList } from './transactions-api.ts'

const pulse = keyframes`
  0% { opacity: 1; }
  50% { opacity: 0.4; }
  100% { opacity: 1; }
`
/** What MUI's `<Skeleton variant="rounded" height={88} />` draws, without Skeleton in the first load (issue 13). */
const RowPlaceholder = styled('div')(({ theme }) => ({
  height: 88,
  borderRadius: theme.shape.borderRadius,
  backgroundColor: theme.alpha(theme.palette.text.primary, 0.11),
  animation: `${pulse} 2s ease-in-out 0.5s infinite`,
}))

// Only a failed list shows it: Alert and its icons stay out of the page's first load (issue 13).
const ListLoadErrorAlert = lazy(() => import('./list-load-error.tsx').then((module) => ({ default: module.ListLoadErrorAlert })))

function ListLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation()
  const message = errorMessage(t, error)
  const retry = canRetry(error) ? onRetry : undefined
  // Until the Alert's chunk is in, its words alone: a button here would move under the pointer a moment
  // later. If the chunk cannot come (offline), the words and the button, unstyled.
  const plain = (withRetry: boolean) => (
    <Stack spacing={1} data-testid="transactions-error" role="alert" sx={{ alignItems: 'flex-start', color: 'error.main' }}>
      <Typography>{message}</Typography>
      {withRetry && retry && (
        <Button variant="outlined" onClick={retry} data-testid="transactions-retry">
          {t('common.retry')}
        </Button>
      )}
    </Stack>
  )
  return (
    <FallbackOnError fallback={plain(true)}>
      <Suspense fallback={plain(false)}>
        <ListLoadErrorAlert message={message} onRetry={retry} />
      </Suspense>
    </FallbackOnError>
  )
}

const filters: ListFilter[] = ['all', 'active', 'inputRequired', 'waiting', 'completed', 'cancelled']
const searchDebounceMs = 300

export function TransactionsPage() {
  const { t } = useTranslation()
  const [filter, setFilter] = useState<ListFilter>('all')
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText, searchDebounceMs)
  const list = useTransactionList(filter, search)
  const filterLabelId = useId()
  const searchId = useId()
  const searchHintId = useId()
  const items = list.data?.pages.flat() ?? []
  const unfiltered = filter === 'all' && search.trim() === ''

  if (list.isSuccess && items.length === 0 && unfiltered && searchText.trim() === '') {
    return (
      <>
        <PageHeader title={t('transactions.title')} intro={t('transactions.intro')} />
        <ListingsLink />
        <EmptyState />
      </>
    )
  }

  return (
    <>
      <PageHeader title={t('transactions.title')} intro={t('transactions.intro')} />
      <ListingsLink />
      <ContentCard>
        <Stack spacing={2}>
          {/* Not TextField: it brings Select, its menus and MUI's whole input stack into the first load. */}
          <OutlinedTextField
            id={searchId}
            type="search"
            label={t('transactions.search.label')}
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            helperText={t('transactions.search.hint')}
            helperTextId={searchHintId}
            startIcon={<SearchIcon aria-hidden />}
            maxLength={100}
            data-testid="transactions-search"
          />
          <Box role="group" aria-labelledby={filterLabelId}>
            <Typography id={filterLabelId} variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('transactions.filters.label')}
            </Typography>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {filters.map((value) => (
                <Chip
                  key={value}
                  label={t(`transactions.filters.${value}`)}
                  clickable
                  color={filter === value ? 'primary' : 'default'}
                  variant={filter === value ? 'filled' : 'outlined'}
                  aria-pressed={filter === value}
                  onClick={() => setFilter(value)}
                  data-testid={`filter-${value}`}
                />
              ))}
            </Stack>
          </Box>
        </Stack>
      </ContentCard>

      <Box aria-live="polite" aria-busy={list.isFetching}>
        {list.isPending ? (
          <Stack spacing={1.5} data-testid="transactions-loading">
            {[0, 1, 2].map((index) => (
              <RowPlaceholder key={index} aria-hidden />
            ))}
            <Typography role="status" color="text.secondary">
              {t('app.loading')}
            </Typography>
          </Stack>
        ) : list.isError ? (
          <ListLoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : items.length === 0 ? (
          <ContentCard testId="transactions-no-match">
            <Typography component="h2" variant="h6">
              {t('transactions.noMatch.title')}
            </Typography>
            <Typography color="text.secondary">{t('transactions.noMatch.body')}</Typography>
          </ContentCard>
        ) : (
          <>
            <Typography component="h2" sx={visuallyHidden}>
              {t('transactions.listHeading')}
            </Typography>
            <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="transactions-list">
              {items.map((transaction) => (
                <TransactionRow key={transaction.id} transaction={transaction} />
              ))}
            </Stack>
            {list.hasNextPage && (
              <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
                <Button
                  variant="outlined"
                  onClick={() => void list.fetchNextPage()}
                  loading={list.isFetchingNextPage}
                  loadingPosition="start"
                  data-testid="load-more"
                >
                  {t('transactions.loadMore')}
                </Button>
              </Box>
            )}
          </>
        )}
      </Box>
    </>
  )
}

function TransactionRow({ transaction }: { transaction: TransactionSummary }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  return (
    <Box component="li">
      <Box
        component={RouterLink}
        to={routeTo('status', { id: transaction.id })}
        data-testid="transaction-row"
        data-id={transaction.id}
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr auto' },
          gap: 1,
          p: 2,
          bgcolor: 'background.paper',
          border: 1,
          borderColor: 'divider',
          borderRadius: 3,
          color: 'text.primary',
          textDecoration: 'none',
          '&:hover, &:focus-visible': { borderColor: 'primary.main' },
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{transaction.description}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t(transaction.type === 'f2f' ? 'transactions.row.metaF2f' : 'transactions.row.meta', {
              role: t(`roles.${transaction.role ?? 'none'}`),
              date: formatDate(transaction.created, locale),
            })}
          </Typography>
        </Box>
        <Stack spacing={0.5} sx={{ alignItems: { xs: 'flex-start', sm: 'flex-end' } }}>
          <Typography sx={{ fontWeight: 700 }} data-testid="transaction-row-price">
            {formatMoney(transaction.amount, transaction.currency, locale)}
          </Typography>
          <StatusChip transaction={transaction} />
        </Stack>
      </Box>
    </Box>
  )
}

function EmptyState() {
  const { t } = useTranslation()
  return (
    <ContentCard testId="transactions-empty">
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }}>
        <Box
          aria-hidden
          sx={{ display: 'grid', placeItems: 'center', width: 72, height: 72, borderRadius: '50%', bgcolor: '#fce4ec' }}
        >
          <ReceiptLongOutlinedIcon sx={{ fontSize: 36, color: '#c2185b' }} />
        </Box>
        <Typography variant="h6" component="h2">
          {t('transactions.empty.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 460 }}>
          {t('transactions.empty.body')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button
            variant="contained"
            component={RouterLink}
            to={routeTo('createTransaction')}
            startIcon={<AddCircleOutlineIcon aria-hidden />}
          >
            {t('transactions.empty.create')}
          </Button>
          <Button
            variant="outlined"
            component={RouterLink}
            to={routeTo('joinTransaction')}
            startIcon={<GroupAddOutlinedIcon aria-hidden />}
          >
            {t('transactions.empty.join')}
          </Button>
        </Stack>
      </Stack>
    </ContentCard>
  )
}

/** The seller's listings live beside their transactions (issue 12): one step from here. */
function ListingsLink() {
  const { t } = useTranslation()
  return (
    <Box sx={{ mb: 2 }}>
      <Button variant="outlined" component={RouterLink} to={routeTo('listings')} data-testid="to-listings">
        {t('listings.openFromTransactions')}
      </Button>
    </Box>
  )
}
