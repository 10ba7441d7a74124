import Typography from '@mui/material/Typography'
import type { ListingPreview } from '@pactum/contracts/listings'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { useTranslation } from '../../i18n/react.tsx'

/**
 * What a buyer pays for a listing, as its page and its signed-out landing
 * show it: face to face, the deposit with the note that the total comes
 * when they meet; online, the price; each with the fee and the total.
 */
export function ListingAmounts({ preview }: { preview: ListingPreview }) {
  const { t } = useTranslation()
  return (
    <>
      {preview.type === 'f2f' && <Typography color="text.secondary">{t('listings.join.depositNote')}</Typography>}
      <AmountSummary
        part={preview.type === 'f2f' ? 'deposit' : 'price'}
        price={preview.price}
        charge={preview.charge}
        currency={preview.currency}
      />
    </>
  )
}
