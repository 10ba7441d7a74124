import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { Balance, Money, Payout, PayoutStatus } from '@pactum/contracts/payouts'
import type { TFunction } from '../../i18n/translator.ts'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { type StatusTone, statusTones } from '../../components/status-tones.ts'
import { visuallyHidden } from '../../components/visually-hidden.ts'
import { useLocale } from '../../i18n/use-locale.ts'
import { canRetry } from '../../lib/api/can-retry.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { hasPayoutInFlight, useBalance, usePayouts } from './balance-api.ts'

const toneOf: Record<PayoutStatus, StatusTone> = {
  pending: 'waiting',
  in_transit: 'progress',
  paid: 'done',
  failed: 'failed',
  canceled: 'closed',
}

/** The sum in `currency` of one side of the balance (0 when that side holds none of it). */
function amountIn(side: Money[], currency: string): number {
  return side.filter((money) => money.currency === currency).reduce((sum, money) => sum + money.amount, 0)
}

function BalanceCard({ balance }: { balance: Balance }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  // Both sides list the same currencies, so a currency held only as pending still lines up with its available 0.
  const currencies = [...new Set([...balance.available, ...balance.pending].map((money) => money.currency))]
  const sides = [
    { key: 'available', label: t('profile.balance.available'), hint: t('profile.balance.availableHint'), money: balance.available },
    { key: 'pending', label: t('profile.balance.pending'), hint: t('profile.balance.pendingHint'), money: balance.pending },
  ] as const

  return (
    <ContentCard testId="balance-card">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
        <AccountBalanceWalletOutlinedIcon aria-hidden sx={{ color: 'primary.main' }} />
        <Typography component="h2" variant="h6">
          {t('profile.balance.balanceTitle')}
        </Typography>
      </Stack>
      {currencies.length === 0 ? (
        <Box data-testid="balance-empty">
          <Typography sx={{ fontWeight: 600 }}>{t('profile.balance.emptyTitle')}</Typography>
          <Typography color="text.secondary">{t('profile.balance.emptyBody')}</Typography>
        </Box>
      ) : (
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 3, m: 0 }}>
          {sides.map((side) => (
            <Box key={side.key} data-testid={`balance-${side.key}`}>
              <Typography component="dt" color="text.secondary">
                {side.label}
              </Typography>
              {currencies.map((currency) => (
                <Typography
                  key={currency}
                  component="dd"
                  variant="h5"
                  data-testid={`balance-${side.key}-${currency}`}
                  sx={{ m: 0, fontWeight: 700 }}
                >
                  {formatMoney(amountIn(side.money, currency), currency, locale)}
                </Typography>
              ))}
              <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0, mt: 0.5 }}>
                {side.hint}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </ContentCard>
  )
}

function PayoutStatusChip({ status }: { status: PayoutStatus }) {
  const { t } = useTranslation()
  const tone = statusTones[toneOf[status] ?? 'closed']
  return (
    <Chip
      label={t(`profile.balance.statuses.${status}`)}
      size="small"
      data-testid="payout-status"
      data-status={status}
      sx={{ bgcolor: tone.bg, color: tone.fg, fontWeight: 600, maxWidth: '100%' }}
    />
  )
}

/** When the money is expected at the bank, or arrived there; nothing for a payout that will not arrive. */
function arrivalText(payout: Payout, t: TFunction, date: (iso: string) => string): string {
  if (!payout.arrival_date) return '—'
  if (payout.status === 'paid') return t('profile.balance.payouts.arrived', { date: date(payout.arrival_date) })
  if (payout.status === 'pending' || payout.status === 'in_transit') {
    return t('profile.balance.payouts.expected', { date: date(payout.arrival_date) })
  }
  return '—'
}

function PayoutRow({ payout }: { payout: Payout }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const date = (iso: string) => formatDate(iso, locale)
  return (
    <TableRow data-testid="payout-row" data-id={payout.id}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(payout.created)}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }} data-testid="payout-amount">
        {formatMoney(payout.amount, payout.currency, locale)}
      </TableCell>
      <TableCell>
        <PayoutStatusChip status={payout.status} />
        {payout.status === 'failed' && payout.failure_message && (
          <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: 'anywhere' }} data-testid="payout-failure">
            {payout.failure_message}
          </Typography>
        )}
      </TableCell>
      <TableCell>{arrivalText(payout, t, date)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="payout-bank">
        {payout.bank_account_last4 ? (
          <>
            <Box component="span" sx={visuallyHidden}>
              {t('profile.balance.payouts.accountEnding', { last4: payout.bank_account_last4 })}
            </Box>
            <span aria-hidden>{`•••• ${payout.bank_account_last4}`}</span>
          </>
        ) : (
          '—'
        )}
      </TableCell>
    </TableRow>
  )
}

function PayoutsCard({ payouts }: { payouts: Payout[] }) {
  const { t } = useTranslation()
  const headingId = useId()
  return (
    <ContentCard testId="payouts-card">
      <Typography id={headingId} component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {t('profile.balance.payouts.title')}
      </Typography>
      {payouts.length === 0 ? (
        <Typography color="text.secondary" data-testid="payouts-empty">
          {t('profile.balance.payouts.empty')}
        </Typography>
      ) : (
        // Scrolls sideways on a narrow screen; focusable so the keyboard can scroll it too.
        <TableContainer role="region" aria-labelledby={headingId} tabIndex={0} sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby={headingId} data-testid="payouts-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('profile.balance.payouts.created')}</TableCell>
                <TableCell align="right">{t('profile.balance.payouts.amount')}</TableCell>
                <TableCell>{t('profile.balance.payouts.status')}</TableCell>
                <TableCell>{t('profile.balance.payouts.arrival')}</TableCell>
                <TableCell>{t('profile.balance.payouts.bankAccount')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {payouts.map((payout) => (
                <PayoutRow key={payout.id} payout={payout} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </ContentCard>
  )
}

/** /profile/balance: the seller's money at the payment provider and its way to their bank. */
export function BalancePage() {
  const { t } = useTranslation()
  const payouts = usePayouts()
  const balance = useBalance(payouts.data ? hasPayoutInFlight(payouts.data) : false)

  let body
  if (balance.isPending || payouts.isPending) {
    body = (
      <ContentCard testId="balance-loading">
        <StatusMessage busy title={t('profile.balance.loading')} />
      </ContentCard>
    )
  } else if (balance.isError || payouts.isError) {
    body = (
      <ContentCard testId="balance-error">
        <StatusMessage
          title={t('profile.balance.loadFailed')}
          body={errorMessage(t, balance.error ?? payouts.error)}
          action={
            canRetry(balance.error ?? payouts.error)
              ? {
                  label: t('common.retry'),
                  onClick: () => {
                    if (balance.isError) void balance.refetch()
                    if (payouts.isError) void payouts.refetch()
                  },
                }
              : undefined
          }
        />
      </ContentCard>
    )
  } else {
    body = (
      <>
        <BalanceCard balance={balance.data} />
        <PayoutsCard payouts={payouts.data} />
      </>
    )
  }

  return (
    <>
      <PageHeader title={t('profile.balance.title')} intro={t('profile.balance.intro')} />
      {body}
    </>
  )
}
