import Box from '@mui/material/Box'
import Skeleton from '@mui/material/Skeleton'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../i18n/react.tsx'
import { useLocale } from '../i18n/use-locale.ts'
import { formatMoney } from '../lib/money.ts'
import { visuallyHidden } from './visually-hidden.ts'

/** What the amount is: the whole price, or a face-to-face sale's deposit or rest of the price. */
export type AmountPart = 'price' | 'deposit' | 'remainder'

/**
 * Price (or the deposit, or the rest of the price), buyer protection fee and
 * what the buyer pays for it. `charge` undefined means the fee is still
 * being calculated. A deposit is named so: read as "Price", a joining
 * seller could take it for the item's price (issue 33 item 2).
 */
export function AmountSummary({
  price,
  charge,
  currency,
  loading,
  part = 'price',
}: {
  price: number
  charge: number | undefined
  currency: string
  loading?: boolean
  part?: AmountPart
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const pending = loading || charge === undefined
  const row = (label: string, amount: number | undefined, testId: string, strong = false) => (
    <>
      <Typography component="dt" sx={{ fontWeight: strong ? 700 : 400 }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, textAlign: 'right', fontWeight: strong ? 700 : 400 }} data-testid={testId}>
        {amount === undefined ? (
          <>
            <Skeleton variant="text" width={80} sx={{ display: 'inline-block' }} aria-hidden />
            <Box component="span" sx={visuallyHidden}>
              {t('amounts.calculating')}
            </Box>
          </>
        ) : (
          formatMoney(amount, currency, locale)
        )}
      </Typography>
    </>
  )
  return (
    <Box
      component="dl"
      aria-busy={pending}
      sx={{ display: 'grid', gridTemplateColumns: '1fr auto', rowGap: 1, columnGap: 2, m: 0, maxWidth: 420 }}
    >
      {row(t(`amounts.${part}`), price, 'amount-price')}
      {row(t('amounts.fee'), pending ? undefined : charge, 'amount-fee')}
      <Box sx={{ gridColumn: '1 / -1', borderTop: 1, borderColor: 'divider' }} />
      {row(
        t(part === 'price' ? 'amounts.total' : `amounts.total_${part}`),
        pending || charge === undefined ? undefined : price + charge,
        'amount-total',
        true,
      )}
    </Box>
  )
}
