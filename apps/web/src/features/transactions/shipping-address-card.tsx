import Typography from '@mui/material/Typography'
import type { ShippingDetails, Transaction } from '@pactum/contracts/transactions'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { toLanguageTag } from '@pactum/domain/locales'
import { useLocale } from '../../i18n/use-locale.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/** Where the seller must send the item: the address the buyer gave at checkout. */
export function ShippingAddressCard({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const api = useApiClient()
  const wanted = transaction.role === 'seller' && transaction.paid !== null
  const address = useQuery({
    queryKey: ['shipping-details', transaction.id],
    enabled: wanted,
    retry: false,
    queryFn: ({ signal }) =>
      api.request<ShippingDetails>(`/transactions/${encodeURIComponent(transaction.id)}/shipping_details`, { signal }),
  })
  if (!wanted || !address.data) return null
  const { name, line1, line2, city, postal_code: postalCode, state, country_code: country } = address.data
  const countryName = new Intl.DisplayNames(toLanguageTag(locale), { type: 'region' }).of(country.toUpperCase()) ?? country
  return (
    <ContentCard testId="shipping-address">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('transactionStatus.shipTo')}
      </Typography>
      <Typography component="address" sx={{ fontStyle: 'normal', whiteSpace: 'pre-line' }}>
        {[name, line1, line2, [postalCode, city].filter(Boolean).join(' '), state, countryName].filter(Boolean).join('\n')}
      </Typography>
    </ContentCard>
  )
}
