import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import type { Balance, Money } from '@pactum/contracts/payouts'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { IconHeading } from '../../components/icon-heading.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'

/** The sum in `currency` of one side of the balance (0 when that side holds none of it). */
function amountIn(side: Money[], currency: string): number {
  return side.filter((money) => money.currency === currency).reduce((sum, money) => sum + money.amount, 0)
}

/** The balance at the payment provider, in each currency: what is available and what is still pending. */
export function BalanceCard({ balance }: { balance: Balance }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  // Both sides list the same currencies, so a currency held only as pending still lines up with its available 0.
  const currencies = [...new Set([...balance.available, ...balance.pending].map((money) => money.currency))]
  const sides = [
    { key: 'available', label: t('profile.balance.available'), hint: t('profile.balance.availableHint'), money: balance.available },
    { key: 'pending', label: t('profile.balance.pending'), hint: t('profile.balance.pendingHint'), money: balance.pending },
  ] as const
  // With Connect the platform carries a seller's losses: a refund or dispute after a payout leaves `available` below zero.
  const owed = balance.available.filter((money) => money.amount < 0)

  return (
    <ContentCard testId="balance-card">
      <IconHeading Icon={AccountBalanceWalletOutlinedIcon} title={t('profile.balance.balanceTitle')} />
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
      {owed.map((money) => (
        <Alert key={money.currency} severity="warning" sx={{ mt: 3 }} data-testid={`balance-negative-${money.currency}`}>
          {t('profile.balance.negativeNotice', { amount: formatMoney(-money.amount, money.currency, locale) })}
        </Alert>
      ))}
    </ContentCard>
  )
}
