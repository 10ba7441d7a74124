import SearchIcon from '@mui/icons-material/Search'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useId, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { OutlinedTextField } from '../../components/outlined-field.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { visuallyHidden } from '../../components/visually-hidden.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useDebouncedValue } from '../../lib/use-debounced-value.ts'
import { TransactionRow } from './transaction-row.tsx'
import { type ListFilter, useTransactionList } from './transactions-api.ts'
import { EmptyState } from './transactions-empty.tsx'
import { ListLoadError, RowPlaceholder } from './transactions-list-fallbacks.tsx'
import { BusyButton } from '../../components/busy-button.tsx'
import { EmptyListCard } from '../../components/empty-list-card.tsx'

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
          <EmptyListCard title={t('transactions.noMatch.title')} body={t('transactions.noMatch.body')} testId="transactions-no-match" />
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
                <BusyButton
                  variant="outlined"
                  onClick={() => void list.fetchNextPage()}
                  busy={list.isFetchingNextPage}
                  data-testid="load-more"
                >
                  {t('transactions.loadMore')}
                </BusyButton>
              </Box>
            )}
          </>
        )}
      </Box>
    </>
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
