import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import type { Payout, PayoutStatus } from '@pactum/contracts/payouts'
import type { TFunction } from '../../i18n/translator.ts'
import { useId } from 'react'
import { Link as RouterLink } from 'react-router'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { type StatusTone, statusTones } from '../../components/status-tones.ts'
import { visuallyHidden } from '../../components/visually-hidden.ts'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { routeTo } from '../../lib/named-routes.ts'

const toneOf: Record<PayoutStatus, StatusTone> = {
  pending: 'waiting',
  in_transit: 'progress',
  paid: 'done',
  failed: 'failed',
  canceled: 'closed',
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

/** Bank reasons the page has its own words for; any other shows the provider's message. */
const translatedFailures = new Set([
  'account_closed',
  'no_account',
  'invalid_account_number',
  'account_frozen',
  'invalid_currency',
  'debit_not_authorized',
])

/** Why the bank refused it, and what follows: update the bank account, or (once done) the next payout takes the money. */
function PayoutFailure({ payout }: { payout: Payout }) {
  const { t } = useTranslation()
  const reason =
    payout.failure_code && translatedFailures.has(payout.failure_code)
      ? t(`profile.balance.payouts.failureReasons.${payout.failure_code}`)
      : payout.failure_message
  return (
    <>
      {reason && (
        <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: 'anywhere' }} data-testid="payout-failure">
          {reason}
        </Typography>
      )}
      {payout.next_step === 'update_bank_account' && (
        <Box sx={{ mt: 0.5 }} data-testid="payout-next-step" data-step={payout.next_step}>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {t('profile.balance.payouts.updateBankAccountHelp')}
          </Typography>
          <Button component={RouterLink} to={routeTo('payoutBankDetails')} size="small" variant="outlined" sx={{ mt: 0.5 }}>
            {t('profile.balance.payouts.updateBankAccount')}
          </Button>
        </Box>
      )}
      {payout.next_step === 'waiting_for_next_payout' && (
        <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }} data-testid="payout-next-step" data-step={payout.next_step}>
          {t('profile.balance.payouts.waitingForNextPayout')}
        </Typography>
      )}
    </>
  )
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
        {payout.status === 'failed' && <PayoutFailure payout={payout} />}
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

/** The payouts to the seller's bank, newest first, each with its status and when it arrives. */
export function PayoutsCard({ payouts }: { payouts: Payout[] }) {
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
