import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'

/**
 * What the seller is paid out once the money is released, their fee taken
 * off, as the domain computes the payout (`sellerPayout`): the price online;
 * face to face the whole price once set, the deposit until then.
 */
export function sellerReceives(transaction: AnyTransaction): { amount: number; depositOnly: boolean } {
  if (transaction.type === 'online') return { amount: transaction.price - transaction.charge_seller, depositOnly: false }
  const deposit = transaction.deposit_pricing
  if (!transaction.pricing) return { amount: deposit.price - deposit.charge_seller, depositOnly: true }
  return { amount: transaction.pricing.price - deposit.charge_seller - transaction.pricing.charge_seller, depositOnly: false }
}

/** "You receive €96.60" under the amounts, for the seller only: the buyer's total is not what reaches them (issue 33 item 3). */
export function SellerReceives({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  if (transaction.role !== 'seller') return null
  const { amount, depositOnly } = sellerReceives(transaction)
  return (
    <Typography sx={{ fontWeight: 600 }} data-testid="seller-receives">
      {t(depositOnly ? 'amounts.sellerReceivesDeposit' : 'amounts.sellerReceives', {
        amount: formatMoney(amount, transaction.currency, locale),
      })}
    </Typography>
  )
}
