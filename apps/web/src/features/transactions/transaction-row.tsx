import Box from '@mui/material/Box'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { TransactionSummary } from '@pactum/contracts/f2f-transactions'
import { Link as RouterLink } from 'react-router'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { UnreadBadge } from '../../components/unread-badge.tsx'
import { StatusChip } from './status-chip.tsx'
import { yourMoveKey } from './your-move.ts'

/** One transaction in the list: what, with whom, when, the person's role, the amount and the status, linking to its page. */
export function TransactionRow({ transaction }: { transaction: TransactionSummary }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  // A sale waiting for the reader stands out from those waiting for someone else.
  const yours = yourMoveKey(transaction) !== null
  return (
    <Box component="li">
      <Box
        component={RouterLink}
        to={routeTo('status', { id: transaction.id })}
        data-testid="transaction-row"
        data-id={transaction.id}
        data-your-move={yours || undefined}
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr auto' },
          gap: 1,
          p: 2,
          bgcolor: 'background.paper',
          border: 1,
          borderColor: yours ? 'primary.main' : 'divider',
          borderLeftWidth: yours ? 6 : 1,
          borderRadius: 3,
          color: 'text.primary',
          textDecoration: 'none',
          '&:hover, &:focus-visible': { borderColor: 'primary.main' },
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{transaction.description}</Typography>
          {transaction.counterparty_name && transaction.role && (
            <Typography variant="body2" data-testid="transaction-row-counterparty">
              {t(transaction.role === 'seller' ? 'transactions.row.sellingTo' : 'transactions.row.buyingFrom', {
                name: transaction.counterparty_name,
              })}
            </Typography>
          )}
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
          <UnreadBadge count={transaction.unread_messages} testId="transaction-row-unread" />
        </Stack>
      </Box>
    </Box>
  )
}
